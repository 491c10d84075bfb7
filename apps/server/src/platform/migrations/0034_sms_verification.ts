/**
 * 10DLC brands, campaigns and their numbers (modules/sms-verification; docs/sms-verification.md). A company's brand
 * (who sends) and its SMS verification campaigns (what is sent, how people opt in), each campaign with a status per
 * number type (local: 10DLC through The Campaign Registry; toll-free: toll-free verification), the numbers on it and
 * every status change. Fees are integer cents (USD); times are UTC.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sms_brands (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      is_draft boolean not null default true,
      status text not null default 'draft' check (status in ('draft', 'pending', 'verified', 'unverified', 'expired')),
      company_type text,
      legal_name text not null default '',
      dba_name text not null default '',
      tax_id text not null default '',
      tax_id_type text check (tax_id_type in ('DUNS', 'GIIN', 'LEI')),
      alt_business_id text not null default '',
      tax_id_country text not null default 'US',
      stock_exchange text,
      stock_symbol text not null default '',
      vertical text,
      website text not null default '',
      email text not null default '',
      phone text not null default '',
      street text not null default '',
      city text not null default '',
      state text not null default '',
      postal_code text not null default '',
      country text not null default 'US',
      contact_first_name text not null default '',
      contact_last_name text not null default '',
      vetting_score integer,
      status_reason text,
      registry_id text,
      submitted_at timestamptz,
      registration_paid boolean not null default false,
      vetting_paid boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index sms_brands_company on sms_brands (company_id);

    create table sms_campaigns (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      brand_id bigint not null references sms_brands(id) on delete cascade,
      is_draft boolean not null default true,
      is_submitted boolean not null default false,
      use_case text,
      sub_usecases jsonb not null default '[]',
      description text not null default '',
      message_volume text,
      sample_messages jsonb not null default '[]',
      optins jsonb not null default '[]',
      opt_out_message text not null default '',
      help_message text not null default '',
      embedded_links boolean not null default false,
      embedded_phone boolean not null default false,
      age_gated boolean not null default false,
      direct_lending boolean not null default false,
      local_status text check (local_status in ('pending', 'approved', 'rejected', 'expired')),
      local_reason text,
      local_registry_id text,
      local_submitted_at timestamptz,
      toll_free_status text check (toll_free_status in ('pending', 'approved', 'rejected', 'expired')),
      toll_free_reason text,
      toll_free_registry_id text,
      toll_free_submitted_at timestamptz,
      months_paid integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index sms_campaigns_company on sms_campaigns (company_id);
    create index sms_campaigns_registry on sms_campaigns (local_registry_id) where local_registry_id is not null;

    create table sms_campaign_numbers (
      number_id bigint primary key references numbers(id) on delete cascade,
      campaign_id bigint not null references sms_campaigns(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      side text not null check (side in ('local', 'toll_free')),
      registry_assigned boolean not null default false,
      added_at timestamptz not null default now()
    );
    create index sms_campaign_numbers_campaign on sms_campaign_numbers (campaign_id);

    create table sms_verification_history (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      campaign_id bigint references sms_campaigns(id) on delete cascade,
      brand_id bigint references sms_brands(id) on delete cascade,
      subject text not null check (subject in ('brand', 'local', 'toll_free')),
      from_status text,
      to_status text not null,
      reason text,
      vetting_score integer,
      source text not null,
      at timestamptz not null default now()
    );
    create index sms_verification_history_campaign on sms_verification_history (campaign_id, id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sms_verification_history, sms_campaign_numbers, sms_campaigns, sms_brands`.execute(db);
}
