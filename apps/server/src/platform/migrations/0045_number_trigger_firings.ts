/**
 * Number triggers fire (docs/numbers.md "Triggers"): a webhook trigger signs what it sends with a secret of its own
 * (Standard Webhooks, `whsec_…`; existing webhook triggers get one here), and every firing is kept once per trigger
 * and event (`number_trigger_firings`, unique on (trigger_id, event_key): a repeated domain event fires nothing
 * twice), with its delivery state for the number's Triggers card.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table number_triggers add column signing_secret text;
    update number_triggers
       set signing_secret = 'whsec_' || encode(decode(md5(random()::text || id::text) || md5(clock_timestamp()::text || random()::text), 'hex'), 'base64')
     where action = 'webhook';
    create table number_trigger_firings (
      id bigint generated always as identity primary key,
      trigger_id bigint not null references number_triggers(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      event_key text not null,
      payload jsonb not null,
      state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      last_status_code integer,
      last_error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create unique index number_trigger_firings_once on number_trigger_firings (trigger_id, event_key);
    create index number_trigger_firings_latest on number_trigger_firings (trigger_id, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists number_trigger_firings;
    alter table number_triggers drop column if exists signing_secret;
  `.execute(db);
}
