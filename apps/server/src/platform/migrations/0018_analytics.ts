/**
 * Tables of the reporting store (modules/analytics; docs/analytics.md "The store"):
 *
 * - `call_facts`: one row per call with every dimension a report filter or grouping needs
 *   (company, business unit, number, start time UTC, answer status, duration, who answered, tags,
 *   qualification, outcome, department, extension label, caller's state, first contact, last- and
 *   first-touch attribution, tracking pool). Rebuilt idempotently from the calls module whenever a
 *   call changes (domain events) and by the reconcile job.
 * - `call_attributions`: what call tracking said about a call (`call.attributed`), kept so a fact
 *   rebuilt later (reconcile, annotation) keeps its attribution.
 * - `call_hourly_rollups`: per UTC hour, per (company, number, traffic source, pool, answer status,
 *   first contact): counts and sums, maintained by a trigger on `call_facts` inside the same
 *   statement (never stale). Whole-hour buckets serve every whole-hour time zone, DST included.
 * - `analytics_exports`: export jobs (calls, messages, faxes, voicemails) and their files.
 * - `analytics_job_runs`: the last run of a periodic job (one reconcile chain however many nodes).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists call_facts (
      call_id bigint primary key,
      company_id bigint not null,
      organization_id bigint,
      number_id bigint not null,
      started_at timestamptz not null,
      direction text not null,
      status smallint not null,
      answer_status smallint not null,
      duration_s integer not null default 0,
      answer_time_s integer,
      answered_by bigint,
      from_number text not null,
      to_number text not null,
      caller text not null,
      contact_id bigint,
      geo text not null default '',
      tag_ids bigint[] not null default '{}',
      qualification smallint,
      is_qualified boolean not null default false,
      is_lead boolean not null default false,
      outcome text,
      department text,
      extension_label text not null default '',
      is_first_contact boolean not null default false,
      traffic_source text not null default '',
      source text,
      medium text,
      campaign text,
      keyword text,
      first_traffic_source text not null default '',
      first_source text,
      first_medium text,
      first_campaign text,
      first_keyword text,
      dni_pool_id bigint,
      dni_session_id text,
      lead_id bigint,
      updated_at timestamptz not null default now()
    )`.execute(db);
  // Every report reads one company's range: an index-only scan carries the rollup dimensions.
  await sql`create index if not exists call_facts_company_time on call_facts (company_id, started_at)
    include (number_id, answer_status, duration_s, answer_time_s, is_first_contact, traffic_source, dni_pool_id)`.execute(db);
  await sql`create index if not exists call_facts_session on call_facts (dni_session_id) where dni_session_id is not null`.execute(db);
  await sql`create index if not exists call_facts_number_time on call_facts (number_id, started_at desc)`.execute(db);
  // First contact: a company's earliest call with an outside party.
  await sql`create index if not exists call_facts_company_caller on call_facts (company_id, caller, started_at, call_id)`.execute(db);

  await sql`
    create table if not exists call_attributions (
      call_id bigint primary key,
      company_id bigint not null,
      is_first_contact boolean not null,
      lead_id bigint,
      method text not null,
      pool_id bigint,
      session_id text,
      traffic_source text,
      source text,
      medium text,
      campaign text,
      keyword text,
      first_traffic_source text,
      first_source text,
      first_medium text,
      first_campaign text,
      first_keyword text,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table if not exists call_hourly_rollups (
      company_id bigint not null,
      hour timestamptz not null,
      number_id bigint not null,
      traffic_source text not null,
      dni_pool_id bigint not null,
      answer_status smallint not null,
      is_first_contact boolean not null,
      calls integer not null,
      duration_s bigint not null,
      answered_duration_s bigint not null,
      answer_time_s bigint not null,
      answer_time_n integer not null,
      qualified integer not null,
      leads integer not null,
      primary key (company_id, hour, number_id, traffic_source, dni_pool_id, answer_status, is_first_contact)
    )`.execute(db);

  // The rollup follows the facts inside the same statement: subtract the old row's share, add the new one's.
  await sql`
    create or replace function call_facts_rollup() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        update call_hourly_rollups r set
          calls = r.calls - 1,
          duration_s = r.duration_s - old.duration_s,
          answered_duration_s = r.answered_duration_s - case when old.answer_status = 1 then old.duration_s else 0 end,
          answer_time_s = r.answer_time_s - case when old.answer_status = 1 and old.answer_time_s is not null then old.answer_time_s else 0 end,
          answer_time_n = r.answer_time_n - case when old.answer_status = 1 and old.answer_time_s is not null then 1 else 0 end,
          qualified = r.qualified - case when old.is_qualified then 1 else 0 end,
          leads = r.leads - case when old.is_lead then 1 else 0 end
        where r.company_id = old.company_id and r.hour = date_trunc('hour', old.started_at) and r.number_id = old.number_id
          and r.traffic_source = old.traffic_source and r.dni_pool_id = coalesce(old.dni_pool_id, 0)
          and r.answer_status = old.answer_status and r.is_first_contact = old.is_first_contact;
        delete from call_hourly_rollups r
        where r.company_id = old.company_id and r.hour = date_trunc('hour', old.started_at) and r.number_id = old.number_id
          and r.traffic_source = old.traffic_source and r.dni_pool_id = coalesce(old.dni_pool_id, 0)
          and r.answer_status = old.answer_status and r.is_first_contact = old.is_first_contact and r.calls <= 0;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into call_hourly_rollups as r (company_id, hour, number_id, traffic_source, dni_pool_id, answer_status, is_first_contact,
          calls, duration_s, answered_duration_s, answer_time_s, answer_time_n, qualified, leads)
        values (new.company_id, date_trunc('hour', new.started_at), new.number_id, new.traffic_source, coalesce(new.dni_pool_id, 0),
          new.answer_status, new.is_first_contact, 1, new.duration_s,
          case when new.answer_status = 1 then new.duration_s else 0 end,
          case when new.answer_status = 1 and new.answer_time_s is not null then new.answer_time_s else 0 end,
          case when new.answer_status = 1 and new.answer_time_s is not null then 1 else 0 end,
          case when new.is_qualified then 1 else 0 end,
          case when new.is_lead then 1 else 0 end)
        on conflict (company_id, hour, number_id, traffic_source, dni_pool_id, answer_status, is_first_contact) do update set
          calls = r.calls + 1,
          duration_s = r.duration_s + excluded.duration_s,
          answered_duration_s = r.answered_duration_s + excluded.answered_duration_s,
          answer_time_s = r.answer_time_s + excluded.answer_time_s,
          answer_time_n = r.answer_time_n + excluded.answer_time_n,
          qualified = r.qualified + excluded.qualified,
          leads = r.leads + excluded.leads;
      end if;
      return null;
    end $$`.execute(db);
  await sql`drop trigger if exists call_facts_rollup on call_facts`.execute(db);
  // Only a change of a rolled-up column touches the rollup (an annotation of tags does not).
  await sql`create trigger call_facts_rollup_ins after insert or delete on call_facts for each row execute function call_facts_rollup()`.execute(db);
  await sql`create trigger call_facts_rollup_upd after update on call_facts for each row
    when ((old.company_id, old.started_at, old.number_id, old.traffic_source, coalesce(old.dni_pool_id, 0), old.answer_status, old.is_first_contact,
           old.duration_s, old.answer_time_s, old.is_qualified, old.is_lead)
      is distinct from (new.company_id, new.started_at, new.number_id, new.traffic_source, coalesce(new.dni_pool_id, 0), new.answer_status, new.is_first_contact,
           new.duration_s, new.answer_time_s, new.is_qualified, new.is_lead))
    execute function call_facts_rollup()`.execute(db);

  await sql`
    create table if not exists analytics_exports (
      id bigserial primary key,
      company_id bigint not null,
      user_id bigint not null,
      kind text not null,
      status text not null default 'queued',
      columns jsonb not null,
      params jsonb not null,
      rows integer,
      blob_key text,
      file_name text not null,
      error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index if not exists analytics_exports_user on analytics_exports (user_id, company_id, id desc)`.execute(db);
  // The last run of a periodic job (the reconcile pass): a second chain of the same job sees a recent run and ends.
  await sql`create table if not exists analytics_job_runs (name text primary key, last_run_at timestamptz not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists analytics_job_runs`.execute(db);
  await sql`drop table if exists analytics_exports`.execute(db);
  await sql`drop trigger if exists call_facts_rollup_upd on call_facts`.execute(db);
  await sql`drop trigger if exists call_facts_rollup_ins on call_facts`.execute(db);
  await sql`drop function if exists call_facts_rollup()`.execute(db);
  await sql`drop table if exists call_hourly_rollups`.execute(db);
  await sql`drop table if exists call_attributions`.execute(db);
  await sql`drop table if exists call_facts`.execute(db);
}
