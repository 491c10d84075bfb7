/**
 * The analytics and ad-platform browser ids a tracking session carried at number assignment (issue 24; docs/tracking.md
 * "Ad platform ids"): GA4's `client_id` (from the `_ga` cookie) and `session_id` (from `_ga_<stream>`), Meta's `_fbp`
 * and `_fbc`. Handed to the integrations' deliveries through `call.attributed` (GA4 joins the call to the visitor's web
 * session; Meta matches the browser). Nullable: most visitors have none, and sessions from before this have none.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table dni_sessions
      add column ga_client_id text check (length(ga_client_id) <= 100),
      add column ga_session_id text check (length(ga_session_id) <= 40),
      add column fbp text check (length(fbp) <= 200),
      add column fbc text check (length(fbc) <= 600);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dni_sessions drop column ga_client_id, drop column ga_session_id, drop column fbp, drop column fbc;`.execute(db);
}
