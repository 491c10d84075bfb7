/**
 * Numbers, complete (docs/numbers.md): background batches (release, bulk update, bulk purchase),
 * forward contacts, per-company number limits and limit-increase requests, number triggers,
 * number templates and port-in requests. Owned by modules/numbers, number-templates and ports.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table number_batches (
      id uuid primary key default gen_random_uuid(),
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint references users(id) on delete set null,
      kind text not null check (kind in ('release','update','purchase')),
      total integer not null,
      done integer not null default 0,
      failed integer not null default 0,
      params jsonb not null default '{}',
      items jsonb not null default '[]',
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index number_batches_company on number_batches (company_id, created_at desc);
    create table forward_contacts (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null,
      number text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index forward_contacts_company on forward_contacts (company_id, name);
    create table company_number_limits (
      company_id bigint primary key references companies(id) on delete cascade,
      number_limit integer not null,
      updated_at timestamptz not null default now()
    );
    create table number_limit_requests (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint references users(id) on delete set null,
      current_limit integer not null,
      requested_limit integer not null,
      reason text not null,
      status text not null default 'pending',
      created_at timestamptz not null default now()
    );
    create table number_triggers (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      event text not null check (event in ('call.missed','call.voicemail','sms.received')),
      action text not null check (action in ('email','webhook')),
      target text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index number_triggers_unique on number_triggers (number_id, event, action, target);
    create index number_triggers_company on number_triggers (company_id, number_id);
    create table number_templates (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null,
      routes jsonb not null default '[]',
      schedule jsonb not null default '{}',
      record boolean not null default false,
      call_transcription_enabled boolean not null default false,
      ai_eav_enabled boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index number_templates_company on number_templates (company_id, name);
    create table port_requests (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint references users(id) on delete set null,
      numbers jsonb not null,
      carrier_name text not null,
      account_number text not null,
      pin text not null,
      authorized_name text not null,
      service_address text not null,
      bill_copy text,
      state text not null default 'submitted' check (state in ('submitted','in_progress','completed','rejected')),
      reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz
    );
    create index port_requests_company on port_requests (company_id, created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists port_requests; drop table if exists number_templates; drop table if exists number_triggers;
    drop table if exists number_limit_requests; drop table if exists company_number_limits;
    drop table if exists forward_contacts; drop table if exists number_batches;
  `.execute(db);
}
