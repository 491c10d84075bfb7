/**
 * Tables of call tracking (modules/tracking; spec 002 "DNI", docs/tracking.md):
 * - `dni_settings`: one row per company: its public script key, "wait for consent", first-party host.
 * - `dni_pools`, `dni_pool_numbers` (a number is in at most one pool; `session_id`/`held_until`: the
 *   session holding it and when that session ends unless it is seen again), `dni_pool_purchases`
 *   (bulk purchases of numbers for a pool), `dni_exhaustions` (episodes of a pool without a free number).
 * - `dni_static_sources`: static tracking numbers (one number, one source).
 * - `dni_sessions`, `dni_page_views`: visitors' sessions and their pages.
 * - `dni_leads`, `dni_texts`, `dni_call_attributions`: people, their texts, and every inbound call's attribution.
 * - `dni_sweep_schedule`: one row, when the session sweep job runs next (one pending sweep across nodes).
 * Inbound calls stored before this migration are recorded as unattributed (method `none`) so that
 * "first contact" (docs/tracking.md) counts them.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dni_settings (
      company_id bigint primary key references companies(id) on delete cascade,
      key text not null unique,
      wait_for_consent boolean not null default false,
      first_party_host text,
      last_seen_at timestamptz,
      last_seen_url text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table dni_pools (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null,
      active boolean not null default true,
      priority integer not null default 100,
      source_rules jsonb not null,
      target_numbers jsonb not null default '[]',
      session_duration_minutes integer not null default 30,
      cool_down_minutes integer not null default 10,
      fallback_number_id bigint references numbers(id) on delete set null,
      exhausted_since timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index dni_pools_company on dni_pools (company_id, priority, id);
    create table dni_pool_numbers (
      number_id bigint primary key references numbers(id) on delete cascade,
      pool_id bigint not null references dni_pools(id) on delete cascade,
      company_id bigint not null,
      number text not null,
      session_id uuid,
      held_until timestamptz,
      last_assigned_at timestamptz,
      added_at timestamptz not null default now()
    );
    create index dni_pool_numbers_pick on dni_pool_numbers (pool_id, last_assigned_at nulls first, number_id);
    create index dni_pool_numbers_session on dni_pool_numbers (session_id) where session_id is not null;
    create table dni_pool_purchases (
      batch_id uuid primary key,
      pool_id bigint not null references dni_pools(id) on delete cascade,
      company_id bigint not null,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create table dni_exhaustions (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      pool_id bigint not null references dni_pools(id) on delete cascade,
      started_at timestamptz not null default now(),
      ended_at timestamptz,
      fallback_sessions integer not null default 0
    );
    create index dni_exhaustions_pool on dni_exhaustions (pool_id, started_at);
    create table dni_static_sources (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null,
      number_id bigint not null unique references numbers(id) on delete cascade,
      number text not null,
      traffic_source text not null default 'static',
      source text,
      medium text,
      campaign text,
      keyword text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index dni_static_sources_company on dni_static_sources (company_id, id);
    create table dni_leads (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      phone text not null,
      first_seen_at timestamptz not null,
      last_seen_at timestamptz not null,
      calls integer not null default 0,
      texts integer not null default 0,
      unique (company_id, phone)
    );
    create table dni_sessions (
      id uuid primary key,
      company_id bigint not null references companies(id) on delete cascade,
      pool_id bigint references dni_pools(id) on delete set null,
      visitor_id uuid not null,
      lead_id bigint references dni_leads(id) on delete set null,
      number_id bigint,
      number text,
      fallback boolean not null default false,
      traffic_source text not null,
      source text,
      medium text,
      campaign text,
      keyword text,
      content text,
      landing_page text,
      referrer text,
      gclid text,
      gbraid text,
      wbraid text,
      msclkid text,
      fbclid text,
      first_touch jsonb not null,
      started_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      cool_down_minutes integer not null default 0,
      ended_at timestamptz,
      page_views integer not null default 1,
      calls integer not null default 0,
      last_page_url text,
      last_page_title text,
      device text
    );
    create index dni_sessions_live on dni_sessions (company_id, expires_at);
    create index dni_sessions_number on dni_sessions (number_id, started_at desc) where number_id is not null;
    create index dni_sessions_visitor on dni_sessions (company_id, visitor_id, started_at);
    create index dni_sessions_started on dni_sessions (company_id, started_at);
    create index dni_sessions_pool on dni_sessions (pool_id, started_at);
    create table dni_page_views (
      id bigint generated always as identity primary key,
      session_id uuid not null references dni_sessions(id) on delete cascade,
      company_id bigint not null,
      at timestamptz not null default now(),
      url text not null,
      title text,
      number text
    );
    create index dni_page_views_session on dni_page_views (session_id, at);
    create table dni_texts (
      carrier_sid text primary key,
      company_id bigint not null references companies(id) on delete cascade,
      lead_id bigint references dni_leads(id) on delete set null,
      from_number text not null,
      number_id bigint not null,
      at timestamptz not null
    );
    create index dni_texts_lead on dni_texts (lead_id, at);
    create table dni_call_attributions (
      call_id bigint primary key references calls(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      number_id bigint not null,
      number text not null,
      from_number text not null,
      started_at timestamptz not null,
      is_first_contact boolean not null,
      lead_id bigint references dni_leads(id) on delete set null,
      method text not null,
      pool_id bigint references dni_pools(id) on delete set null,
      static_source_id bigint references dni_static_sources(id) on delete set null,
      session_id uuid references dni_sessions(id) on delete set null,
      traffic_source text,
      source text,
      medium text,
      campaign text,
      keyword text,
      landing_page text,
      referrer text,
      gclid text,
      gbraid text,
      wbraid text,
      msclkid text,
      fbclid text,
      first_touch jsonb,
      status smallint not null default 0,
      duration_s integer not null default 0,
      created_at timestamptz not null default now()
    );
    create index dni_call_attributions_caller on dni_call_attributions (company_id, from_number, started_at);
    create index dni_call_attributions_company on dni_call_attributions (company_id, started_at desc);
    create index dni_call_attributions_session on dni_call_attributions (session_id) where session_id is not null;
    create table dni_sweep_schedule (
      id smallint primary key default 1 check (id = 1),
      next_at timestamptz
    );
    insert into dni_sweep_schedule (id, next_at) values (1, null);
  `.execute(db);
  // Calls stored before call tracking existed: unattributed, first contact by start time (docs/tracking.md "First contact").
  await sql`
    insert into dni_call_attributions (call_id, company_id, number_id, number, from_number, started_at, is_first_contact, method, status, duration_s)
    select c.id, c.company_id, c.number_id, c.to_number, c.from_number, c.started_at,
      row_number() over (partition by c.company_id, c.from_number order by c.started_at, c.id) = 1,
      'none', c.status, c.duration_s
    from calls c where c.direction = 'inbound'
    on conflict (call_id) do nothing
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists dni_sweep_schedule;
    drop table if exists dni_call_attributions;
    drop table if exists dni_texts;
    drop table if exists dni_page_views;
    drop table if exists dni_sessions;
    drop table if exists dni_leads;
    drop table if exists dni_static_sources;
    drop table if exists dni_exhaustions;
    drop table if exists dni_pool_purchases;
    drop table if exists dni_pool_numbers;
    drop table if exists dni_pools;
    drop table if exists dni_settings;
  `.execute(db);
}
