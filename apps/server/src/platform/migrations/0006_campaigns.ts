/**
 * Campaigns (docs/campaigns.md; spec 001 §3 Campaign, §4 states): campaigns with every server field and
 * counter, their groups, their media, the per-company campaign settings (sending rate) and one
 * row per recipient, which is the send ledger that makes each message go out at most once.
 *
 * `campaign_groups.group_id` has no foreign key on purpose: the groups tables belong to the
 * contacts module's migration and a deleted group must not delete a sent campaign's history.
 * Quiet hours reuse `companies.quiet_hours_start/end`.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table campaigns (
      id bigserial primary key,
      user_id bigint references users(id) on delete set null,
      company_id bigint not null references companies(id) on delete cascade,
      type text not null default 'sms',
      title text not null,
      text text not null default '',
      unsubscribe_text text not null default '',
      should_be_sent_at timestamptz,
      state text not null default 'draft',
      sent_count integer not null default 0,
      delivered_count integer not null default 0,
      undelivered_count integer not null default 0,
      responded_count integer not null default 0,
      unsubscriber_count integer not null default 0,
      skipped_unsubscribed_count integer not null default 0,
      skipped_invalid_count integer not null default 0,
      recipients_count integer not null default 0,
      number_id bigint references numbers(id) on delete set null,
      preview_count integer not null default 0,
      preview_credits integer not null default 0,
      started boolean not null default false,
      started_at timestamptz,
      finished_at timestamptz,
      dynamic_fields jsonb not null default '[]',
      skip_inbox boolean not null default false,
      rate_per_second real,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index campaigns_company on campaigns (company_id, id desc);

    create table campaign_groups (
      campaign_id bigint not null references campaigns(id) on delete cascade,
      group_id bigint not null,
      primary key (campaign_id, group_id)
    );

    create table campaign_media (
      id bigserial primary key,
      campaign_id bigint not null references campaigns(id) on delete cascade,
      position integer not null default 0,
      name text not null,
      url text not null,
      blob_key text,
      content_type text not null default 'application/octet-stream',
      created_at timestamptz not null default now()
    );
    create index campaign_media_campaign on campaign_media (campaign_id, position);

    create table campaign_settings (
      company_id bigint primary key references companies(id) on delete cascade,
      rate_per_second real,
      updated_at timestamptz not null default now()
    );

    create table campaign_recipients (
      id bigserial primary key,
      campaign_id bigint not null references campaigns(id) on delete cascade,
      company_id bigint not null,
      contact_id bigint not null,
      number text not null,
      merge jsonb not null default '{}',
      state text not null default 'pending',
      not_before timestamptz,
      claimed_at timestamptz,
      carrier_sid text,
      item_id bigint,
      error_code integer,
      sent_at timestamptz,
      delivered_at timestamptz,
      responded_at timestamptz,
      unsubscribed_at timestamptz,
      created_at timestamptz not null default now(),
      unique (campaign_id, contact_id)
    );
    create index campaign_recipients_pending on campaign_recipients (campaign_id, id) where state = 'pending';
    create index campaign_recipients_claimed on campaign_recipients (campaign_id, claimed_at) where state = 'sending';
    create index campaign_recipients_number on campaign_recipients (company_id, number, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table campaign_recipients; drop table campaign_settings; drop table campaign_media; drop table campaign_groups; drop table campaigns;`.execute(db);
}
