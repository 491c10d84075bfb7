/**
 * Transcript search, AI attribute rules and search exports (modules/call-intelligence; docs/call-intelligence.md).
 *
 * - `call_search_docs`: the search read model, one row per call with a complete transcript: the call facts the
 *   filters of GET /calls/search need (company, number, started_at UTC, duration s, the outside party's E.164,
 *   answer status, who answered in the app, qualification, tag ids), the transcript's segments (for passages) and
 *   PostgreSQL full-text vectors (`english` configuration) of all the text and per speaker (agent, client), each
 *   with a GIN index. Written only by call-intelligence from `transcript.changed`, `call.changed`, `call.annotated`.
 * - `ai_attribute_rules`: per-company rules (keywords or phrases → qualification, an outcome, a department).
 * - `call_search_exports`: CSV export jobs of a search (`format=csv&async=1`).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table call_search_docs (
      call_id bigint primary key,
      company_id bigint not null,
      number_id bigint not null,
      transcript_id bigint not null,
      started_at timestamptz not null,
      duration_s integer not null default 0,
      direction text not null,
      caller text not null,
      answer_status smallint not null,
      answered_by bigint,
      qualification smallint,
      tag_ids bigint[] not null default '{}',
      segments jsonb not null,
      tsv_all tsvector not null,
      tsv_agent tsvector not null,
      tsv_client tsvector not null,
      indexed_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index call_search_docs_company_started on call_search_docs (company_id, started_at desc, call_id desc)`.execute(db);
  await sql`create index call_search_docs_tsv_all on call_search_docs using gin (tsv_all)`.execute(db);
  await sql`create index call_search_docs_tsv_agent on call_search_docs using gin (tsv_agent)`.execute(db);
  await sql`create index call_search_docs_tsv_client on call_search_docs using gin (tsv_client)`.execute(db);
  await sql`create index call_search_docs_tags on call_search_docs using gin (tag_ids)`.execute(db);

  await sql`
    create table ai_attribute_rules (
      id bigserial primary key,
      company_id bigint not null references companies (id) on delete cascade,
      name text not null,
      target text not null check (target in ('qualification', 'outcome', 'department')),
      value text not null,
      attribute_id bigint,
      keywords jsonb not null,
      speaker smallint,
      position integer not null default 0,
      enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index ai_attribute_rules_company on ai_attribute_rules (company_id, position, id)`.execute(db);

  await sql`
    create table call_search_exports (
      id bigserial primary key,
      company_id bigint not null references companies (id) on delete cascade,
      user_id bigint not null,
      params jsonb not null,
      status text not null default 'queued',
      rows integer,
      blob_key text,
      file_name text not null,
      error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index call_search_exports_user on call_search_exports (user_id, company_id, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists call_search_exports`.execute(db);
  await sql`drop table if exists ai_attribute_rules`.execute(db);
  await sql`drop table if exists call_search_docs`.execute(db);
}
