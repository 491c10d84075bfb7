/**
 * Caller-name lookups cached per E.164 number, and each company's caller-ID setting (modules/caller-id;
 * docs/caller-id.md). The cache is shared by every company: a provider answer about a public number is
 * the same whoever asked (billing meters each company's provider lookups through `caller-id.looked-up`).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table caller_id_lookups (
      e164 text primary key,
      found boolean not null,
      caller_name text,
      caller_type text check (caller_type in ('business', 'consumer')),
      line_type text,
      carrier_name text,
      country_code text,
      provider text not null,
      looked_up_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index caller_id_lookups_expires_idx on caller_id_lookups (expires_at);

    create table caller_id_settings (
      company_id bigint primary key references companies(id) on delete cascade,
      auto_lookup boolean not null default true,
      updated_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists caller_id_settings; drop table if exists caller_id_lookups;`.execute(db);
}
