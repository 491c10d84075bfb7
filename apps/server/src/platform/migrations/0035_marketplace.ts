/**
 * Number marketplace (modules/marketplace; docs/marketplace.md) and the billing changes it and the new meters need
 * (modules/billing; docs/billing.md "Usage", "Invoices"):
 * - `marketplace_numbers`: one row per E.164 number ever put on the marketplace, with the company holding it now;
 * - `marketplace_listings`: each offer of such a number (seller, price in integer cents, state draft → listed →
 *   pending_transfer → sold, or withdrawn), the buyer and the buyer's invoice once sold;
 * - `billing_usage.kind` gains `fax_pages`, `lookups`, `transcription_minutes`; `billing_invoices.kind` gains
 *   `purchase` (a one-off invoice such as a marketplace purchase).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table marketplace_numbers (
      id bigserial primary key,
      number text not null unique,
      number_type smallint not null,
      holder_company_id bigint not null references companies(id) on delete cascade,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index marketplace_numbers_holder on marketplace_numbers (holder_company_id);

    create table marketplace_listings (
      id bigserial primary key,
      marketplace_number_id bigint not null references marketplace_numbers(id) on delete cascade,
      seller_company_id bigint not null references companies(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      title text not null default '',
      description text not null default '',
      price_cents integer not null check (price_cents >= 100 and price_cents <= 10000000),
      state text not null check (state in ('draft', 'listed', 'pending_transfer', 'sold', 'withdrawn')),
      buyer_company_id bigint references companies(id) on delete set null,
      invoice_id bigint,
      fee_cents integer not null default 0,
      created_by bigint references users(id) on delete set null,
      listed_at timestamptz,
      sold_at timestamptz,
      withdrawn_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index marketplace_listings_number on marketplace_listings (marketplace_number_id, id desc);
    create index marketplace_listings_state on marketplace_listings (state, id desc);
    create index marketplace_listings_seller on marketplace_listings (seller_company_id, id desc);
    create index marketplace_listings_buyer on marketplace_listings (buyer_company_id, id desc) where buyer_company_id is not null;
    -- At most one open (draft, listed or pending) listing per number.
    create unique index marketplace_listings_open on marketplace_listings (marketplace_number_id)
      where state in ('draft', 'listed', 'pending_transfer');

    alter table billing_usage drop constraint billing_usage_kind_check;
    alter table billing_usage add constraint billing_usage_kind_check check (kind in (
      'minutes_inbound', 'minutes_outbound', 'sms_segments', 'mms_messages', 'fax_pages', 'lookups', 'transcription_minutes'));
    alter table billing_invoices drop constraint billing_invoices_kind_check;
    alter table billing_invoices add constraint billing_invoices_kind_check check (kind in ('renewal', 'proration', 'purchase'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from billing_invoice_lines where invoice_id in (select id from billing_invoices where kind = 'purchase');
    delete from billing_invoices where kind = 'purchase';
    delete from billing_usage where kind in ('fax_pages', 'lookups', 'transcription_minutes');
    alter table billing_invoices drop constraint billing_invoices_kind_check;
    alter table billing_invoices add constraint billing_invoices_kind_check check (kind in ('renewal', 'proration'));
    alter table billing_usage drop constraint billing_usage_kind_check;
    alter table billing_usage add constraint billing_usage_kind_check check (kind in ('minutes_inbound', 'minutes_outbound', 'sms_segments', 'mms_messages'));
    drop table if exists marketplace_listings, marketplace_numbers;
  `.execute(db);
}
