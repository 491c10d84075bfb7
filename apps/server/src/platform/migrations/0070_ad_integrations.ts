/**
 * Integrations with ad platforms, analytics and CRMs (modules/integrations; docs/integrations.md; spec 002 §7
 * "Integrations"):
 * - `ad_integrations`: one row per connection of a company to a provider (GA4 and ADF may have several; an OAuth
 *   provider one per company): its state, who connected it and as whom, the provider config (spec "OAuth integration:
 *   id, config"), per-integration settings, and the OAuth tokens / API secrets sealed with AES-256-GCM
 *   (`integrations/crypto.ts`; never stored in clear).
 * - `ad_integration_oauth_states`: one pending authorization per `state` (stored as its SHA-256), bound to the user
 *   and company that started it, with the sealed PKCE verifier; used once, expires after 10 minutes.
 * - `ad_integration_deliveries`: the delivery log and outbox: one row per (integration, delivery key), the item as
 *   first sent (frozen), its state, attempts, next try, the provider's answer and the HTTP exchanges of the last try.
 * - `ad_integration_touches`: the attribution of each call as call tracking announced it (`call.attributed`), kept
 *   by this module so deliveries carry it.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ad_integrations (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      provider text not null check (provider in ('ga4', 'googleads', 'microsoftads', 'metaads', 'slackbot', 'salesforce', 'gohighlevel', 'hubspot', 'adf')),
      state text not null check (state in ('pending', 'connected', 'active', 'needs_reconnect', 'inactive')),
      name text not null default '',
      external_account_id text,
      account_name text,
      config jsonb not null default '{}',
      settings jsonb not null default '{}',
      secrets_sealed text,
      access_token_sealed text,
      refresh_token_sealed text,
      token_expires_at timestamptz,
      scopes text,
      connected_by bigint references users(id) on delete set null,
      connected_at timestamptz,
      last_delivery_at timestamptz,
      last_delivery_result text,
      last_error text,
      backfill_days integer not null default 7 check (backfill_days between 0 and 90),
      reconnect_notified_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index ad_integrations_company on ad_integrations (company_id, provider);
    create unique index ad_integrations_oauth_one on ad_integrations (company_id, provider) where provider not in ('ga4', 'adf');

    create table ad_integration_oauth_states (
      state_hash text primary key,
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint not null references users(id) on delete cascade,
      provider text not null,
      code_verifier_sealed text not null,
      redirect_uri text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index ad_integration_oauth_states_expiry on ad_integration_oauth_states (expires_at);

    create table ad_integration_deliveries (
      id bigserial primary key,
      integration_id bigint not null references ad_integrations(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      delivery_key text not null,
      kind text not null,
      call_id bigint,
      text_id bigint,
      item jsonb,
      dedup_key text,
      state text not null default 'pending' check (state in ('pending', 'delivered', 'duplicate', 'skipped', 'rejected', 'failed', 'waiting')),
      attempts integer not null default 0,
      next_at timestamptz not null default now(),
      leased_until timestamptz,
      provider_ref text,
      message text,
      exchanges jsonb,
      source text not null default 'event' check (source in ('event', 'backfill', 'replay', 'setup')),
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      updated_at timestamptz not null default now(),
      unique (integration_id, delivery_key)
    );
    create index ad_integration_deliveries_due on ad_integration_deliveries (next_at) where state = 'pending';
    create index ad_integration_deliveries_log on ad_integration_deliveries (integration_id, id desc);
    create index ad_integration_deliveries_call on ad_integration_deliveries (call_id) where call_id is not null;

    create table ad_integration_touches (
      call_id bigint primary key,
      company_id bigint not null references companies(id) on delete cascade,
      touch jsonb not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists ad_integration_touches;
    drop table if exists ad_integration_deliveries;
    drop table if exists ad_integration_oauth_states;
    drop table if exists ad_integrations;
  `.execute(db);
}
