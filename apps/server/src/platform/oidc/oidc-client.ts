/**
 * The OpenID Connect relying party (docs/auth.md "OIDC sign-in"): one client per configured provider (Google,
 * Microsoft), built on `openid-client` v6. It discovers the issuer (`<issuer>/.well-known/openid-configuration`,
 * once, retried after a failure), builds the authorization URL (code flow, PKCE S256, `state`, `nonce`), and on the
 * callback exchanges the code and verifies the ID token (signature, `iss`, `aud`, `exp`, `nonce`; the library's
 * checks), then reads the e-mail claims from the ID token, else from the UserInfo endpoint.
 *
 * No provider is invented: with no client id configured there is no client (the sandbox offers none). An issuer on
 * plain `http://` is accepted only on the loopback interface (a local test provider).
 */
import * as client from 'openid-client';
import type { Config, OidcProviderSettings } from '../config.js';

/** Providers the sign-in page may offer, in display order. */
export const OIDC_PROVIDER_IDS = ['google', 'microsoft'] as const;
export type OidcProviderId = (typeof OIDC_PROVIDER_IDS)[number];
/** The name shown on buttons and messages ("Continue with Google"). */
export const OIDC_PROVIDER_NAMES: Record<OidcProviderId, string> = { google: 'Google', microsoft: 'Microsoft' };
/** Scopes asked for: the subject, the e-mail address (and whether it is verified), the name. */
export const OIDC_SCOPES = ['openid', 'email', 'profile'] as const;
/** Longest wait for one request to a provider (seconds). */
const PROVIDER_TIMEOUT_S = 10;

/** What a verified sign-in tells about the person. */
export type OidcIdentityClaims = {
  /** The ID token's `iss` (for Microsoft's `common` endpoint, the person's tenant issuer). */
  issuer: string;
  /** The ID token's `sub`. */
  subject: string;
  /** Trimmed, lower-cased; null when the provider gave none. */
  email: string | null;
  /** True only when the provider says so (`email_verified: true`; Microsoft Entra: `xms_edov: true`). */
  emailVerified: boolean;
  name: string | null;
};

/** The provider could not be reached, refused the code, or gave an ID token that does not verify. */
export class OidcProviderError extends Error {
  constructor(
    message: string,
    /**
     * The provider's OAuth error code when it sent one (`access_denied`, `invalid_grant`, …), `invalid_response` for an
     * answer that does not verify, null when the provider could not be reached (discovery failed).
     */
    readonly code: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OidcProviderError';
  }
}

/** One provider's relying-party operations. */
export interface OidcClient {
  readonly id: OidcProviderId;
  /**
   * The provider's authorization URL for a code-flow request with PKCE (S256).
   * @throws OidcProviderError when discovery fails.
   */
  authorizationUrl(request: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<URL>;
  /**
   * Processes the callback URL (as registered, with the provider's query), exchanges the code and verifies the ID
   * token against `state`, `nonce` and the PKCE verifier.
   * @throws OidcProviderError with the provider's error code (`access_denied` when the person cancelled).
   */
  complete(callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<OidcIdentityClaims>;
  /**
   * Exchanges a code an app obtained itself (its own PKCE verifier, `redirectUri` and optional `nonce`) and verifies the
   * ID token (spec 000 §7 "/oauth … token").
   * @throws OidcProviderError with the provider's error code (`invalid_grant` for a used, expired or foreign code).
   */
  exchangeCode(request: { code: string; redirectUri: string; codeVerifier: string; nonce?: string }): Promise<OidcIdentityClaims>;
}

function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

function stringClaim(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

function providerErrorCode(error: unknown): string | null {
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) return error.error;
  return null;
}

/** Builds the client of one provider; discovery happens on first use. */
export function createOidcClient(id: OidcProviderId, settings: OidcProviderSettings): OidcClient {
  const issuer = new URL(settings.issuer);
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && isLoopback(issuer))) {
    throw new Error(`OIDC ${id}: the issuer must be an https URL (plain http only on loopback): ${settings.issuer}`);
  }
  let discovered: Promise<client.Configuration> | undefined;

  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(issuer, settings.clientId, settings.clientSecret ? { client_secret: settings.clientSecret } : undefined, undefined, {
        timeout: PROVIDER_TIMEOUT_S,
        ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        discovered = undefined; // try again on the next sign-in
        throw new OidcProviderError(`OIDC ${id}: discovery of ${settings.issuer} failed`, null, { cause: error });
      });
    return discovered;
  }

  return {
    id,
    async authorizationUrl({ redirectUri, state, nonce, codeVerifier }) {
      const config = await configuration();
      return client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: OIDC_SCOPES.join(' '),
        response_type: 'code',
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async complete(callbackUrl, checks) {
      return grant(callbackUrl, { expectedState: checks.state, expectedNonce: checks.nonce, pkceCodeVerifier: checks.codeVerifier });
    },
    async exchangeCode({ code, redirectUri, codeVerifier, nonce }) {
      // The app's redirect URI with the code, as the provider sent it back (state was checked by the app).
      const url = new URL(redirectUri);
      url.search = new URLSearchParams({ code }).toString();
      // A provider that names itself in authorization responses (RFC 9207) did so to the app; the code is redeemed at
      // this configured provider and its ID token's issuer is checked, so its own issuer stands in.
      const metadata = (await configuration()).serverMetadata();
      if (metadata.authorization_response_iss_parameter_supported) url.searchParams.set('iss', metadata.issuer);
      return grant(url, { expectedState: client.skipStateCheck, expectedNonce: nonce, pkceCodeVerifier: codeVerifier });
    },
  };

  /** The code exchange, the ID token's checks and the claims (UserInfo when the ID token has no e-mail). */
  async function grant(
    currentUrl: URL,
    checks: { expectedState: string | typeof client.skipStateCheck; expectedNonce?: string; pkceCodeVerifier: string },
  ): Promise<OidcIdentityClaims> {
    const config = await configuration();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, checks);
    } catch (error) {
      throw new OidcProviderError(`OIDC ${id}: the authorization response or code exchange failed`, providerErrorCode(error) ?? 'invalid_response', {
        cause: error,
      });
    }
    const idToken = tokens.claims();
    if (!idToken) throw new OidcProviderError(`OIDC ${id}: no ID token in the token response`, null);
    let claims: Record<string, unknown> = idToken;
    // Some providers put the e-mail in the UserInfo answer only (OIDC Core §5.4 with an access token issued).
    if (stringClaim(idToken.email) === null && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
      try {
        claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
      } catch (error) {
        throw new OidcProviderError(`OIDC ${id}: the UserInfo request failed`, providerErrorCode(error) ?? 'invalid_response', { cause: error });
      }
    }
    const email = stringClaim(claims.email)?.toLowerCase() ?? null;
    // Microsoft Entra sends no `email_verified`; its optional claim `xms_edov` says the domain owner verified it.
    const emailVerified = claims.email_verified === true || (id === 'microsoft' && claims.xms_edov === true);
    const name = stringClaim(claims.name) ?? ([stringClaim(claims.given_name), stringClaim(claims.family_name)].filter(Boolean).join(' ') || null);
    return { issuer: idToken.iss, subject: idToken.sub, email, emailVerified, name };
  }
}

/** The clients of every configured provider (client id set), in display order. */
export function createOidcClients(settings: Config['oidc']): Map<OidcProviderId, OidcClient> {
  const out = new Map<OidcProviderId, OidcClient>();
  for (const id of OIDC_PROVIDER_IDS) {
    const s = settings[id];
    if (s?.clientId) out.set(id, createOidcClient(id, s));
  }
  return out;
}
