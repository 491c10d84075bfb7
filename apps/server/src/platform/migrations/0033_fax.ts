/**
 * Faxes sent and received on fax numbers (modules/fax; docs/fax.md). One row per fax: direction,
 * the other party, status (queued | sending | delivered | receiving | received | failed), page
 * count, the PDF's blob key, the provider's fax id (unique per provider: webhooks find the fax by
 * it) and the thread item that shows it in the inbox. Times are UTC.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table faxes (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      direction text not null check (direction in ('inbound', 'outbound')),
      local_number text not null,
      remote text not null,
      status text not null check (status in ('queued', 'sending', 'delivered', 'receiving', 'received', 'failed')),
      pages integer check (pages >= 0),
      error text,
      file_key text,
      file_size integer,
      cover_note text,
      provider text not null,
      provider_fax_id text,
      user_id bigint references users(id) on delete set null,
      conversation_id bigint,
      item_id bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz
    );
    create unique index faxes_provider_fax_id on faxes (provider, provider_fax_id) where provider_fax_id is not null;
    create index faxes_company_created on faxes (company_id, created_at desc, id desc);
    create index faxes_number on faxes (number_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists faxes`.execute(db);
}
