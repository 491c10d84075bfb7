/**
 * Routing, complete (docs/telephony.md): company and user schedules with holidays, manual open/closed
 * override per number, greetings and their assignment to route entries, company tags on calls,
 * notes, and the call's qualification and custom-field values.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table company_schedules (
      company_id bigint primary key references companies(id) on delete cascade,
      schedule jsonb not null,
      holidays jsonb not null default '[]',
      updated_at timestamptz not null default now()
    );
    create table user_schedules (
      user_id bigint primary key references users(id) on delete cascade,
      schedule jsonb not null,
      updated_at timestamptz not null default now()
    );
    create table number_overrides (
      number_id bigint primary key references numbers(id) on delete cascade,
      mode text not null default 'auto',
      until timestamptz,
      updated_at timestamptz not null default now()
    );
    create table greetings (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null,
      content text not null default '',
      voice text not null default '',
      source text not null,
      audio_key text not null,
      content_type text not null default 'audio/wav',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index greetings_company on greetings (company_id, id desc);
    create table greeting_assignments (
      number_id bigint not null references numbers(id) on delete cascade,
      extension integer not null,
      kind text not null,
      greeting_id bigint not null references greetings(id) on delete cascade,
      primary key (number_id, extension, kind)
    );
    create table tags (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null,
      created_at timestamptz not null default now()
    );
    create unique index tags_company_name on tags (company_id, lower(name));
    create table call_tags (
      call_id bigint not null references calls(id) on delete cascade,
      tag_id bigint not null references tags(id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (call_id, tag_id)
    );
    create table notes (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      model_type text not null,
      model_id bigint not null,
      user_id bigint references users(id) on delete set null,
      body text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index notes_model on notes (model_type, model_id, id);
    alter table calls add column qualification smallint;
    alter table calls add column eav_attribute_values jsonb not null default '{}';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table calls drop column eav_attribute_values;
    alter table calls drop column qualification;
    drop table notes; drop table call_tags; drop table tags; drop table greeting_assignments;
    drop table greetings; drop table number_overrides; drop table user_schedules; drop table company_schedules;
  `.execute(db);
}
