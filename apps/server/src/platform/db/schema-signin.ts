/**
 * Kysely table types added for modules auth and push (OIDC, SMS codes, admin sessions, push subscriptions) (migration 0022). Part of `DB` (schema.ts); every
 * table is listed in `modules/ownership.ts` TABLE_OWNERS under its owner.
 */
import type { Generated } from 'kysely';

/** platform/auth: an operator's session inside an account (docs/auth.md "Admin mode"). */
export interface AdminSessionsTable {
  session_id: string;
  operator_user_id: number;
  company_id: number;
  started_at: Generated<Date>;
  /** Hard end (UTC); admin sessions never slide. */
  expires_at: Date;
}

/** modules/auth: a user's SMS second factor and its one pending code (docs/auth.md "MFA by SMS"). */
export interface MfaSmsTable {
  user_id: number;
  /** E.164. */
  phone: string;
  enabled: Generated<boolean>;
  /** SHA-256 hex of the pending 6-digit code, null when none. */
  code_hash: string | null;
  code_expires_at: Date | null;
  last_sent_at: Date | null;
  updated_at: Generated<Date>;
}

/** modules/auth: a Google or Microsoft account linked to a user (docs/auth.md "OIDC sign-in"). */
export interface OidcIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  /** 'google' | 'microsoft' (platform/oidc OIDC_PROVIDER_IDS). */
  provider: string;
  /** The ID token's `iss`; with `subject` the identity's key. */
  issuer: string;
  /** The ID token's `sub`. */
  subject: string;
  /** The e-mail the provider gave at the last sign-in (lower-cased), null when none. */
  email: string | null;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}

/** modules/auth: an authorization request in progress (single use; docs/auth.md "OIDC sign-in"). */
export interface OidcFlowsTable {
  /** The random `state` sent to the provider. */
  state: string;
  /** SHA-256 hex of the browser-binding cookie's value. */
  browser_hash: string;
  provider: string;
  nonce: string;
  /** PKCE code verifier (RFC 7636), sent only to the token endpoint. */
  code_verifier: string;
  remember: Generated<boolean>;
  /** Web path to open after signing in, null = the default page. */
  return_to: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
}

/** modules/auth: a verified provider account waiting for consent before it is linked (spec 000 §7 consent context). */
export interface OidcLinkConsentsTable {
  /** SHA-256 hex of the consent nonce. */
  nonce_hash: string;
  browser_hash: string;
  user_id: number;
  provider: string;
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
  scopes: string[];
  remember: Generated<boolean>;
  return_to: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
}

export interface SignInTables {
  admin_sessions: AdminSessionsTable;
  mfa_sms: MfaSmsTable;
  oidc_identities: OidcIdentitiesTable;
  oidc_flows: OidcFlowsTable;
  oidc_link_consents: OidcLinkConsentsTable;
}
