/**
 * The sandbox carrier's mid-call redirects (docs/calling.md "Transfer of an answered inbound call"): a transfer of an
 * inbound call answered in the app moves the caller's leg to new TwiML, as Twilio's `calls(sid).update({twiml})`
 * does. The simulator's call engine, waiting while the caller talks to the browser, takes the redirect of its call
 * SID and follows it. One pending redirect per call; taken (deleted) when followed.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sandbox_call_redirects (
      sid text primary key,
      twiml text not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sandbox_call_redirects;`.execute(db);
}
