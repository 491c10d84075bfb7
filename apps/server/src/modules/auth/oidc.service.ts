/**
 * Sign-in with Google and Microsoft through OpenID Connect, and the consent context (spec 000 §7 "GET, POST /oauth
 * provider redirect, callback and token" and "GET /oauth/consent/context | nonce"; docs/auth.md "OIDC sign-in").
 *
 * - Start: a flow row (random `state`, `nonce`, PKCE verifier; 10 minutes, single use) bound to the browser by the
 *   SHA-256 of a cookie value, and the provider's authorization URL.
 * - Callback: the flow of `state` is taken (once) and must belong to this browser; the code is exchanged and the ID
 *   token verified (platform/oidc). Then an identity already linked (`iss` + `sub`) signs its user in; otherwise a
 *   provider account whose e-mail the provider verified and that matches a user's e-mail (case-insensitive) waits for
 *   that person's consent (a nonce, 10 minutes) before it is linked; anything else is refused with a reason code
 *   (contracts `OIDC_SIGN_IN_ERRORS`). OIDC never creates accounts.
 * - Deactivated people are refused as with passwords; a person with MFA on still gives a code (the session starts
 *   `mfa_pending`, `POST /sanctum/mfa` completes it).
 * Sessions and cookies are set by the routes (oidc.routes.ts).
 */
import type { OidcConsentContext, OidcIdentity, OidcProviderId, OidcSignInError } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { hashToken, randomToken, safeEqual } from '../../platform/auth/tokens.js';
import { AppError, ConflictError, NotFoundError, ServiceUnavailableError } from '../../platform/http/errors.js';
import { OIDC_PROVIDER_NAMES, OIDC_SCOPES, OidcProviderError, type OidcClient } from '../../platform/oidc/oidc-client.js';
import { isDeactivatedEverywhere } from '../companies/companies.service.js';
import { findUser, findUserByEmail, type UserRow } from '../users/users.service.js';
import { smsMfaEnabled } from './mfa-sms.service.js';
import { tokenOrMfaStep } from './auth.service.js';
import { oidcRepository, type OidcLinkConsentRow } from './oidc.repository.js';

/** An authorization request (start → callback) lives this long (ms). */
export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000;
/** A consent request (callback → approve or refuse) lives this long (ms). */
export const OIDC_CONSENT_TTL_MS = 10 * 60 * 1000;
/** The client named on the consent screen: the app the provider account is linked to. */
export const OIDC_CLIENT_NAME = 'Switchboard';

/** What each requested scope gives this app, as the consent screen lists it. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: 'Your {provider} account identifier, to recognise you each time you sign in',
  email: 'Your e-mail address, and whether {provider} has verified it',
  profile: 'Your name',
};

/** 404 for a consent nonce that is unknown, used, expired or another browser's. */
export class OidcConsentExpiredError extends AppError {
  constructor() {
    super(404, 'This sign-in request has expired. Please sign in again.');
  }
}

/** The outcome of a callback or an approved consent. */
export type OidcOutcome =
  | { kind: 'signed_in'; userId: number; mfaRequired: boolean; remember: boolean; returnTo: string | null }
  | { kind: 'consent'; nonce: string; returnTo: string | null }
  | { kind: 'refused'; error: OidcSignInError };

/** Whether signing `user` in needs a second step: TOTP on, or SMS codes on (the password sign-in's rule). */
async function mfaRequiredFor(ctx: AppContext, user: UserRow): Promise<boolean> {
  return (user.totp_enabled && Boolean(user.totp_secret)) || (await smsMfaEnabled(ctx, user.id));
}

/**
 * Starts a sign-in with `client`: stores the flow bound to `browserToken` (the value of the browser-binding cookie)
 * and answers the provider URL to send the browser to.
 * @throws OidcProviderError when the provider's discovery fails.
 */
export async function startOidcSignIn(
  ctx: AppContext,
  client: OidcClient,
  input: { redirectUri: string; browserToken: string; remember: boolean; returnTo: string | null },
): Promise<URL> {
  const state = randomToken(24);
  const nonce = randomToken(24);
  const codeVerifier = randomToken(48);
  const url = await client.authorizationUrl({ redirectUri: input.redirectUri, state, nonce, codeVerifier });
  const now = new Date();
  await oidcRepository.createFlow(
    ctx.db,
    {
      state,
      browser_hash: hashToken(input.browserToken),
      provider: client.id,
      nonce,
      code_verifier: codeVerifier,
      remember: input.remember,
      return_to: input.returnTo,
      expires_at: new Date(now.getTime() + OIDC_FLOW_TTL_MS),
    },
    now,
  );
  return url;
}

/**
 * Completes the callback of `client` (`callbackUrl` = the registered redirect URI with the provider's query).
 * `browserToken` is the browser-binding cookie's value (undefined when the browser sent none).
 * Never throws for a refusal: a missing, used, expired or foreign `state`, a provider error or an ID token that does
 * not verify come back as `refused` (`expired`, `cancelled`, `failed`).
 * @throws OidcProviderError only when the provider cannot be reached at all (`unavailable` is decided by the route).
 */
export async function completeOidcCallback(ctx: AppContext, client: OidcClient, callbackUrl: URL, browserToken: string | undefined): Promise<OidcOutcome> {
  const now = new Date();
  const state = callbackUrl.searchParams.get('state');
  const flow = state ? await oidcRepository.takeFlow(ctx.db, state, now) : undefined;
  if (!flow || flow.provider !== client.id || !browserToken || !safeEqual(flow.browser_hash, hashToken(browserToken))) {
    return { kind: 'refused', error: 'expired' };
  }
  const providerError = callbackUrl.searchParams.get('error');
  if (providerError) return { kind: 'refused', error: providerError === 'access_denied' ? 'cancelled' : 'failed' };

  let claims;
  try {
    claims = await client.complete(callbackUrl, { state: flow.state, nonce: flow.nonce, codeVerifier: flow.code_verifier });
  } catch (error) {
    if (!(error instanceof OidcProviderError)) throw error;
    ctx.log.warn({ err: error, provider: client.id }, 'OIDC callback refused');
    return { kind: 'refused', error: error.code === 'access_denied' ? 'cancelled' : 'failed' };
  }

  // A provider account already linked signs its person in.
  const identity = await oidcRepository.findIdentity(ctx.db, claims.issuer, claims.subject);
  if (identity) {
    const user = await findUser(ctx, identity.user_id);
    if (!user) return { kind: 'refused', error: 'failed' };
    if (await isDeactivatedEverywhere(ctx, user.id)) return { kind: 'refused', error: 'deactivated' };
    await oidcRepository.touchIdentity(ctx.db, identity.id, claims.email, now);
    return { kind: 'signed_in', userId: user.id, mfaRequired: await mfaRequiredFor(ctx, user), remember: flow.remember, returnTo: flow.return_to };
  }

  // Otherwise link only to the user with the same e-mail, and only when the provider verified it.
  if (!claims.email) return { kind: 'refused', error: 'no_email' };
  if (!claims.emailVerified) return { kind: 'refused', error: 'unverified_email' };
  const user = await findUserByEmail(ctx, claims.email);
  if (!user) return { kind: 'refused', error: 'unknown_email' };
  if (await isDeactivatedEverywhere(ctx, user.id)) return { kind: 'refused', error: 'deactivated' };
  const nonce = randomToken(32);
  await oidcRepository.createConsent(
    ctx.db,
    {
      nonce_hash: hashToken(nonce),
      browser_hash: flow.browser_hash,
      user_id: user.id,
      provider: client.id,
      issuer: claims.issuer,
      subject: claims.subject,
      email: claims.email,
      name: claims.name,
      scopes: [...OIDC_SCOPES],
      remember: flow.remember,
      return_to: flow.return_to,
      expires_at: new Date(now.getTime() + OIDC_CONSENT_TTL_MS),
    },
    now,
  );
  return { kind: 'consent', nonce, returnTo: flow.return_to };
}

/** The consent request of `nonce` made in this browser. @throws OidcConsentExpiredError (404) when unknown, used, expired or another browser's. */
async function consentOf(ctx: AppContext, nonce: string, browserToken: string | undefined, now: Date): Promise<OidcLinkConsentRow> {
  const row = await oidcRepository.findConsent(ctx.db, hashToken(nonce), now);
  if (!row || !browserToken || !safeEqual(row.browser_hash, hashToken(browserToken))) {
    throw new OidcConsentExpiredError();
  }
  return row;
}

function providerName(id: string): string {
  return OIDC_PROVIDER_NAMES[id as OidcProviderId] ?? id;
}

/**
 * `GET /api/oauth/consent/context?nonce=` (spec 000 §7): what the consent screen shows before the provider account is
 * linked (contracts `OidcConsentContext`). Reading it does not use the request.
 * @throws OidcConsentExpiredError (404) when the nonce is unknown, used, expired, or was issued to another browser.
 */
export async function oidcConsentContext(ctx: AppContext, nonce: string, browserToken: string | undefined): Promise<OidcConsentContext> {
  const row = await consentOf(ctx, nonce, browserToken, new Date());
  const user = await findUser(ctx, row.user_id);
  if (!user) throw new OidcConsentExpiredError();
  const name = providerName(row.provider);
  return {
    nonce,
    client_name: OIDC_CLIENT_NAME,
    provider: { id: row.provider as OidcProviderId, name },
    scopes: row.scopes.map((scope) => ({ scope, description: (SCOPE_DESCRIPTIONS[scope] ?? scope).replaceAll('{provider}', name) })),
    user: { email: user.email, name: `${user.first_name} ${user.last_name}`.trim() },
    identity: { email: row.email, name: row.name },
    expires_at: row.expires_at.toISOString(),
  };
}

/**
 * `POST /api/oauth/consent`: uses the consent request (once). Approved: links the provider account to the user and
 * signs them in (MFA still applies; deactivated people are refused); refused: nothing is linked.
 * @throws OidcConsentExpiredError (404) as `oidcConsentContext`; ConflictError (409) when the provider account was linked to
 *   another user meanwhile; returns `refused` `deactivated` when every membership was deactivated meanwhile.
 */
export async function decideOidcConsent(
  ctx: AppContext,
  nonce: string,
  browserToken: string | undefined,
  approve: boolean,
): Promise<OidcOutcome | { kind: 'cancelled' }> {
  const now = new Date();
  await consentOf(ctx, nonce, browserToken, now);
  const row = await oidcRepository.takeConsent(ctx.db, hashToken(nonce), now);
  if (!row) throw new OidcConsentExpiredError();
  if (!approve) return { kind: 'cancelled' };
  const user = await findUser(ctx, row.user_id);
  if (!user) throw new OidcConsentExpiredError();
  if (await isDeactivatedEverywhere(ctx, user.id)) return { kind: 'refused', error: 'deactivated' };
  const linked = await oidcRepository.linkIdentity(ctx.db, {
    user_id: user.id,
    provider: row.provider,
    issuer: row.issuer,
    subject: row.subject,
    email: row.email,
    last_used_at: now,
  });
  if (linked.user_id !== user.id) throw new ConflictError(`This ${providerName(row.provider)} account is already linked to another Switchboard account.`);
  ctx.log.info({ userId: user.id, provider: row.provider }, 'OIDC identity linked');
  return { kind: 'signed_in', userId: user.id, mfaRequired: await mfaRequiredFor(ctx, user), remember: row.remember, returnTo: row.return_to };
}

/** `GET /api/user/oauth-identities`: the provider accounts linked to the user, oldest first (times UTC ISO 8601). */
export async function listOidcIdentities(ctx: AppContext, userId: number): Promise<OidcIdentity[]> {
  const rows = await oidcRepository.listIdentities(ctx.db, userId);
  return rows.map((r) => ({
    id: r.id,
    provider: r.provider as OidcProviderId,
    provider_name: providerName(r.provider),
    email: r.email,
    created_at: r.created_at.toISOString(),
    last_used_at: r.last_used_at?.toISOString() ?? null,
  }));
}

/**
 * `DELETE /api/user/oauth-identities/{id}`: unlinks one of the user's provider accounts (the password still signs in:
 * OIDC never creates accounts, so every user has one).
 * @throws NotFoundError (404) when the user has no such identity (another person's included).
 */
export async function unlinkOidcIdentity(ctx: AppContext, userId: number, id: number): Promise<void> {
  if (!(await oidcRepository.deleteIdentity(ctx.db, userId, id))) throw new NotFoundError('Linked account');
}

/** What the token call answers for a refusal (422 `{message}`), by reason. */
export const OIDC_TOKEN_REFUSALS = {
  not_linked: 'This {provider} account is not linked to a Switchboard user yet. Sign in with {provider} once in the browser to link it.',
  deactivated: 'Your account has been deactivated. Please contact your administrator.',
  failed: 'The {provider} sign-in could not be completed. Please try again.',
} as const;

/**
 * `POST /oauth/{provider}/token` (spec 000 §7 "/oauth … token"; docs/auth.md "OIDC sign-in"): a mobile app that ran the
 * provider's code flow with PKCE trades the code for a bearer token. Only an already linked provider account signs in
 * (linking needs the consent screen, in the browser); MFA still applies (`{mfa_required, mfa_token}`, then
 * `POST /sanctum/mfaToken`).
 * @throws AppError 422 `{message}` ({@link OIDC_TOKEN_REFUSALS}) for a bad code, an unlinked account or a deactivated
 *   person; ServiceUnavailableError 503 when the provider cannot be reached.
 */
export async function exchangeOidcToken(
  ctx: AppContext,
  client: OidcClient,
  body: { code: string; code_verifier: string; redirect_uri: string; nonce?: string; device_name?: string },
) {
  const say = (m: string) => m.replaceAll('{provider}', OIDC_PROVIDER_NAMES[client.id]);
  let claims;
  try {
    claims = await client.exchangeCode({ code: body.code, redirectUri: body.redirect_uri, codeVerifier: body.code_verifier, nonce: body.nonce });
  } catch (error) {
    if (!(error instanceof OidcProviderError)) throw error;
    ctx.log.warn({ err: error, provider: client.id }, 'OIDC token exchange refused');
    if (error.code === null) throw new ServiceUnavailableError(5, say('{provider} cannot be reached at the moment. Please try again later.'));
    throw new AppError(422, say(OIDC_TOKEN_REFUSALS.failed));
  }
  const identity = await oidcRepository.findIdentity(ctx.db, claims.issuer, claims.subject);
  const user = identity ? await findUser(ctx, identity.user_id) : undefined;
  if (!identity || !user) throw new AppError(422, say(OIDC_TOKEN_REFUSALS.not_linked));
  if (await isDeactivatedEverywhere(ctx, user.id)) throw new AppError(422, OIDC_TOKEN_REFUSALS.deactivated);
  await oidcRepository.touchIdentity(ctx.db, identity.id, claims.email, new Date());
  return tokenOrMfaStep(ctx, user, await mfaRequiredFor(ctx, user), body.device_name ?? `${OIDC_PROVIDER_NAMES[client.id]} sign-in`);
}
