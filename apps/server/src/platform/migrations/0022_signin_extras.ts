/**
 * Sign-in extras (spec 000 §3 Session `isAdmin`, §4 "Admin login", §7 `remoteLogin`, MFA `sendCode`;
 * docs/auth.md "Admin mode", "MFA by SMS"):
 * - `admin_sessions`: a session opened by an operator inside an account (one row per admin session,
 *   deleted with its session): the operator, the company, the hard end (never slides).
 * - `mfa_sms`: a user's SMS second factor: the E.164 phone, whether enabled, and the one pending code
 *   (SHA-256, expiry) and its last send (the 30-second spacing; counts live in `auth_throttle`).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table admin_sessions (
      session_id text primary key references sessions(id) on delete cascade,
      operator_user_id bigint not null references users(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      started_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index admin_sessions_operator on admin_sessions(operator_user_id);
    create table mfa_sms (
      user_id bigint primary key references users(id) on delete cascade,
      phone text not null,
      enabled boolean not null default false,
      code_hash text,
      code_expires_at timestamptz,
      last_sent_at timestamptz,
      updated_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists mfa_sms; drop table if exists admin_sessions;`.execute(db);
}
