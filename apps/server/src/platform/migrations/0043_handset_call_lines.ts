/**
 * The sandbox handset of a call placed from the browser speaks and hears hold music (carriers/sandbox; docs/calling.md "Sandbox"):
 *
 * - `sandbox_handset_calls.lines`: what the outside person and the agent said during the answered
 *   call, typed in the Phone simulator (`[{speaker: 'caller'|'agent', text, at}]`, `at` = seconds
 *   since the answer); spoken into the two channels of the call's recording.
 * - `sandbox_handset_calls.hold_music_url`: what the held handset hears (the number's on-hold
 *   greeting, a signed URL; null = the carrier's default music or not held).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table sandbox_handset_calls add column lines jsonb not null default '[]'::jsonb;
    alter table sandbox_handset_calls add column hold_music_url text;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table sandbox_handset_calls drop column if exists hold_music_url;
    alter table sandbox_handset_calls drop column if exists lines;
  `.execute(db);
}
