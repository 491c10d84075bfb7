/**
 * Outbound calling from the browser: remembered caller IDs and outbound call legs (modules/in-app-calling, calls; docs/calling.md).
 *
 * - `caller_id_preferences` (in-app-calling): the company number a user last chose as caller ID, per company.
 * - `sandbox_handset_calls` (carriers/sandbox): the simulated outside handset's leg of a call placed
 *   from the browser (ringing, answered, ended), with the keypad tones it heard and hold state.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table caller_id_preferences (
      user_id bigint not null references users(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      updated_at timestamptz not null default now(),
      primary key (user_id, company_id)
    );

    create table sandbox_handset_calls (
      sid text primary key,
      parent_sid text not null,
      call_ref text,
      from_number text not null,
      to_number text not null,
      state text not null check (state in ('ringing', 'answered', 'ended')),
      end_reason text,
      on_hold boolean not null default false,
      digits text not null default '',
      transferred_to text,
      dial_action text,
      timeout_s integer not null default 30,
      created_at timestamptz not null default now(),
      answered_at timestamptz,
      ended_at timestamptz
    );
    create index sandbox_handset_calls_parent on sandbox_handset_calls (parent_sid);
    create index sandbox_handset_calls_live on sandbox_handset_calls (to_number) where state <> 'ended';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sandbox_handset_calls; drop table if exists caller_id_preferences;`.execute(db);
}
