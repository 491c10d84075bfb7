/**
 * Safer sign-in defaults (docs/auth.md "Operators", "Remember me", "One use per TOTP code"):
 * - `users.is_operator`: the deployment's operator (foundation §1 "a privileged operator";
 *   §3 Session `isAdmin`), e.g. allowed to read every mail of the development outbox. Off for
 *   everyone; set by hand in SQL (docs/auth.md).
 * - `sessions.remember`: whether the sign-in asked to be remembered (a 14-day persistent cookie)
 *   or not (a browser-session cookie and a 12-hour idle lifetime).
 * - `auth_totp_steps`: the last RFC 6238 time step accepted per user (modules/auth), so a TOTP
 *   code is accepted once.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users add column is_operator boolean not null default false;
    alter table sessions add column remember boolean not null default true;
    create table auth_totp_steps (
      user_id bigint primary key references users(id) on delete cascade,
      last_step bigint not null,
      updated_at timestamptz not null default now()
    );
  `.execute(db);
}
