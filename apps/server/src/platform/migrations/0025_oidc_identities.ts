/**
 * Tables of sign-in with Google and Microsoft through OpenID Connect (modules/auth; docs/auth.md "OIDC sign-in"):
 * - `oidc_identities`: a provider account linked to a user, keyed by the ID token's issuer and subject
 *   (`iss` + `sub`, unique); the e-mail the provider last gave, when it was linked and last used.
 * - `oidc_flows`: one authorization request in progress (state, nonce, PKCE verifier), bound to the browser that
 *   started it by the SHA-256 of a cookie value; single use, 10 minutes.
 * - `oidc_link_consents`: a verified provider account waiting for its person's consent before it is linked to the
 *   user with the same e-mail (`GET /oauth/consent/context?nonce=`); keyed by the SHA-256 of the nonce, bound to the
 *   same browser, single use, 10 minutes.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oidc_identities (
      id bigserial primary key,
      user_id bigint not null references users(id) on delete cascade,
      provider text not null,
      issuer text not null,
      subject text not null,
      email text,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      unique (issuer, subject)
    );
    create index oidc_identities_user on oidc_identities(user_id);
    create table oidc_flows (
      state text primary key,
      browser_hash text not null,
      provider text not null,
      nonce text not null,
      code_verifier text not null,
      remember boolean not null default false,
      return_to text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index oidc_flows_expires on oidc_flows(expires_at);
    create table oidc_link_consents (
      nonce_hash text primary key,
      browser_hash text not null,
      user_id bigint not null references users(id) on delete cascade,
      provider text not null,
      issuer text not null,
      subject text not null,
      email text not null,
      name text,
      scopes text[] not null,
      remember boolean not null default false,
      return_to text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index oidc_link_consents_expires on oidc_link_consents(expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists oidc_link_consents; drop table if exists oidc_flows; drop table if exists oidc_identities;`.execute(db);
}
