/**
 * Tables of API keys, outbound webhooks and the audit log (modules/api-keys, webhooks, audit;
 * docs/api-and-webhooks.md, docs/audit.md).
 *
 * - `api_tokens` (platform/auth) gains personal access tokens (spec 001 "API keys"): `kind`
 *   ('session' = a device sign-in from createTokenSession, 'personal' = an API key), `scopes`
 *   (contracts `API_KEY_SCOPES`), an optional business unit (`organization_id`), the first
 *   characters of the key (`token_prefix`, shown in lists) and the address of the last use.
 * - `webhook_endpoints`: a company's subscribed URL, its event types and signing secret (`whsec_…`).
 * - `webhook_deliveries`: one message (Standard Webhooks `webhook-id` = `message_id`) for one endpoint;
 *   `event_key` makes a domain event produce at most one delivery per endpoint.
 * - `webhook_attempts`: every HTTP attempt of a delivery with its status and response time (ms).
 * - `audit_log`: append-only; a trigger refuses UPDATE and DELETE of its rows.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table api_tokens
      add column kind text not null default 'session' check (kind in ('session', 'personal')),
      add column scopes text[] not null default '{}',
      add column organization_id bigint references organizations(id) on delete cascade,
      add column token_prefix text,
      add column last_used_ip text`.execute(db);
  await sql`create index api_tokens_personal on api_tokens (user_id, created_at) where kind = 'personal'`.execute(db);

  await sql`
    create table webhook_endpoints (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      url text not null,
      description text not null default '',
      events text[] not null,
      secret text not null,
      enabled boolean not null default true,
      disabled_reason text,
      disabled_at timestamptz,
      failing_since timestamptz,
      created_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_endpoints_company on webhook_endpoints (company_id)`.execute(db);

  await sql`
    create table webhook_deliveries (
      id bigserial primary key,
      endpoint_id bigint not null references webhook_endpoints(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      event_type text not null,
      event_key text not null,
      message_id text not null,
      payload jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      claimed_until timestamptz,
      last_status_code integer,
      last_duration_ms integer,
      last_error text,
      replay_of bigint references webhook_deliveries(id) on delete set null,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create unique index webhook_deliveries_once on webhook_deliveries (endpoint_id, event_key)`.execute(db);
  await sql`create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id desc)`.execute(db);

  await sql`
    create table webhook_attempts (
      id bigserial primary key,
      delivery_id bigint not null references webhook_deliveries(id) on delete cascade,
      attempt integer not null,
      attempted_at timestamptz not null default now(),
      status_code integer,
      duration_ms integer not null,
      error text,
      response_body text,
      unique (delivery_id, attempt)
    )`.execute(db);

  await sql`
    create table audit_log (
      id bigserial primary key,
      created_at timestamptz not null default now(),
      company_id bigint,
      actor_kind text not null check (actor_kind in ('user', 'api_key', 'operator', 'system')),
      actor_user_id bigint,
      actor_name text,
      api_key_id bigint,
      operator_user_id bigint,
      action text not null,
      entity_type text not null,
      entity_id text,
      method text,
      path text,
      status_code integer,
      outcome text not null default 'success' check (outcome in ('success', 'refused', 'failed')),
      changes jsonb,
      ip text,
      user_agent text
    )`.execute(db);
  await sql`create index audit_log_company on audit_log (company_id, created_at desc, id desc)`.execute(db);
  await sql`create index audit_log_actor on audit_log (actor_user_id, created_at desc)`.execute(db);
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only' using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`
    create trigger audit_log_no_change before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists audit_log`.execute(db);
  await sql`drop function if exists audit_log_append_only()`.execute(db);
  await sql`drop table if exists webhook_attempts`.execute(db);
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhook_endpoints`.execute(db);
  await sql`
    alter table api_tokens drop column kind, drop column scopes, drop column organization_id,
      drop column token_prefix, drop column last_used_ip`.execute(db);
}
