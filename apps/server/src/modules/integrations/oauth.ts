/**
 * OAuth 2 for every provider, done once (docs/integrations.md "OAuth"): authorization code with PKCE (S256, where the
 * provider takes it) and a `state` bound to the signed-in user and company (stored as its SHA-256 with the sealed
 * verifier, single use, 10 minutes), the code exchange, refresh before expiry, and revocation — all through
 * `openid-client` v6 (oauth4webapi), never hand-written token code. Adapters only describe their server
 * (`OAuthServer`); a provider's non-standard token answers (Slack's `ok:false` / token_type `bot`) are normalised by its
 * `normalizeTokenResponse` inside the library's fetch, and ID tokens (not used: this is not a sign-in) are dropped.
 *
 * Endpoints: live — the adapter's, each overridable by `INTEGRATIONS_<ID>_AUTHORIZATION_ENDPOINT`,
 * `_TOKEN_ENDPOINT`, `_REVOCATION_ENDPOINT` (tests' mock OAuth server); sandbox — the local sandbox authorization
 * server (`sandbox-oauth.ts`): a consent page at `/api/integrations/sandbox-oauth/{provider}/authorize` and an
 * in-process token endpoint. Client credentials: `<envPrefix>_CLIENT_ID` / `_CLIENT_SECRET` (sandbox: fixed ones).
 */
import * as client from 'openid-client';
import type { AppContext } from '../../context.js';
import type { FetchLike, OAuthServer, ProviderId, TokenGrant } from './providers/provider.js';
import { ReconnectNeededError, RetryableProviderError } from './providers/provider.js';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, sandboxAuthServer } from './sandbox-oauth.js';

/** Where the providers come back (the same for every provider; registered with each provider's app). */
export function callbackUrl(ctx: AppContext, provider: ProviderId): string {
  return `${ctx.config.publicUrl}/api/oauth-integrations/${provider}/callback`;
}

/** The endpoints and client used for `provider` in this configuration. */
export function resolvedServer(ctx: AppContext, provider: ProviderId, server: OAuthServer) {
  const env = ctx.config.integrations.env;
  const key = `INTEGRATIONS_${provider.toUpperCase()}`;
  if (ctx.config.integrations.mode === 'sandbox') {
    const base = `${ctx.config.publicUrl}/api/integrations/sandbox-oauth/${provider}`;
    return {
      authorizationEndpoint: `${base}/authorize`,
      tokenEndpoint: `${base}/token`,
      revocationEndpoint: `${base}/revoke`,
      clientId: SANDBOX_CLIENT_ID,
      clientSecret: SANDBOX_CLIENT_SECRET,
      sandbox: true,
    };
  }
  return {
    authorizationEndpoint: env[`${key}_AUTHORIZATION_ENDPOINT`] || server.authorizationEndpoint,
    tokenEndpoint: env[`${key}_TOKEN_ENDPOINT`] || server.tokenEndpoint,
    revocationEndpoint: env[`${key}_REVOCATION_ENDPOINT`] || server.revocationEndpoint,
    clientId: env[`${server.envPrefix}_CLIENT_ID`] ?? '',
    clientSecret: env[`${server.envPrefix}_CLIENT_SECRET`] ?? '',
    sandbox: false,
  };
}

/** The library's configuration for one provider, with a fetch that normalises token answers. */
function configurationOf(ctx: AppContext, provider: ProviderId, server: OAuthServer): client.Configuration {
  const r = resolvedServer(ctx, provider, server);
  if (!r.clientId) throw new RetryableProviderError(`${provider}: ${server.envPrefix}_CLIENT_ID is not configured`);
  const metadata: client.ServerMetadata = {
    issuer: new URL(r.authorizationEndpoint).origin,
    authorization_endpoint: r.authorizationEndpoint,
    token_endpoint: r.tokenEndpoint,
    ...(r.revocationEndpoint ? { revocation_endpoint: r.revocationEndpoint } : {}),
  };
  const auth = server.clientAuth === 'client_secret_basic' ? client.ClientSecretBasic(r.clientSecret) : client.ClientSecretPost(r.clientSecret);
  const config = new client.Configuration(metadata, r.clientId, r.clientSecret, auth);
  const base: FetchLike = r.sandbox ? (input, init) => sandboxAuthServer.fetch(ctx, new Request(input, init)) : fetch;
  config[client.customFetch] = async (url, options) => {
    const res = await base(url, { ...options, signal: AbortSignal.timeout(20_000) } as RequestInit);
    if (url !== r.tokenEndpoint) return res;
    let body: Record<string, unknown>;
    try {
      body = (await res.clone().json()) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof SyntaxError) return res; // not JSON: the library reports it
      throw error;
    }
    let out = { status: res.status, body };
    if (server.normalizeTokenResponse) out = server.normalizeTokenResponse(out.status, out.body);
    delete out.body.id_token;
    return new Response(JSON.stringify(out.body), { status: out.status, headers: { 'content-type': 'application/json' } });
  };
  if (new URL(r.tokenEndpoint).protocol === 'http:') client.allowInsecureRequests(config);
  return config;
}

/** A pending authorization: what the browser is sent to, and what is stored against `state`. */
export type AuthorizationStart = { url: string; state: string; codeVerifier: string };

/** Builds the provider's authorization URL with a fresh `state` and PKCE verifier. */
export async function startAuthorization(ctx: AppContext, provider: ProviderId, server: OAuthServer): Promise<AuthorizationStart> {
  const config = configurationOf(ctx, provider, server);
  const state = client.randomState();
  const codeVerifier = client.randomPKCECodeVerifier();
  const params: Record<string, string> = {
    redirect_uri: callbackUrl(ctx, provider),
    [server.scopeParam ?? 'scope']: server.scopes.join(server.scopeSeparator ?? ' '),
    state,
    ...(server.extraAuthorizeParams ?? {}),
  };
  if (server.pkce) {
    params.code_challenge = await client.calculatePKCECodeChallenge(codeVerifier);
    params.code_challenge_method = 'S256';
  }
  return { url: client.buildAuthorizationUrl(config, params).href, state, codeVerifier };
}

/** The grant's `error` code when the library saw an OAuth error answer, else null. */
function oauthErrorCode(error: unknown): string | null {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) return error.error;
  return null;
}

function toGrant(tokens: client.TokenEndpointResponse): TokenGrant {
  return { ...(tokens as unknown as Record<string, unknown>), access_token: tokens.access_token } as TokenGrant;
}

/**
 * Exchanges the callback's code (checks `state` and PKCE through the library).
 * @param query the callback's query parameters as received
 * @throws ReconnectNeededError when the provider refuses (`invalid_grant`, `access_denied`…), RetryableProviderError when unreachable.
 */
export async function exchangeCode(
  ctx: AppContext,
  provider: ProviderId,
  server: OAuthServer,
  query: Record<string, string>,
  checks: { state: string; codeVerifier: string },
): Promise<TokenGrant> {
  const config = configurationOf(ctx, provider, server);
  const current = new URL(callbackUrl(ctx, provider));
  for (const [k, v] of Object.entries(query)) current.searchParams.set(k, v);
  try {
    const tokens = await client.authorizationCodeGrant(
      config,
      current,
      { expectedState: checks.state, ...(server.pkce ? { pkceCodeVerifier: checks.codeVerifier } : {}) },
      server.extraTokenParams ? { ...server.extraTokenParams } : undefined,
    );
    return toGrant(tokens);
  } catch (error) {
    if (error instanceof ReconnectNeededError) throw error;
    const code = oauthErrorCode(error);
    if (code) throw new ReconnectNeededError(`${provider} refused the authorization: ${code}`);
    throw new RetryableProviderError(`${provider} token endpoint: ${(error as Error).message}`);
  }
}

/**
 * Refreshes an access token. @throws ReconnectNeededError on `invalid_grant` (revoked, expired refresh token),
 * RetryableProviderError when the provider is unreachable or answers 5xx.
 */
export async function refreshGrant(ctx: AppContext, provider: ProviderId, server: OAuthServer, refreshToken: string): Promise<TokenGrant> {
  const config = configurationOf(ctx, provider, server);
  try {
    return toGrant(await client.refreshTokenGrant(config, refreshToken, server.extraTokenParams ? { ...server.extraTokenParams } : undefined));
  } catch (error) {
    if (error instanceof ReconnectNeededError) throw error;
    const code = oauthErrorCode(error);
    if (code === 'invalid_grant' || code === 'unauthorized_client' || code === 'invalid_client') {
      throw new ReconnectNeededError(`${provider} refused the refresh: ${code}`);
    }
    throw new RetryableProviderError(`${provider} refresh: ${code ?? (error as Error).message}`);
  }
}

/** Revokes a token at the provider's RFC 7009 endpoint (best effort: errors are returned, not thrown). */
export async function revokeToken(ctx: AppContext, provider: ProviderId, server: OAuthServer, token: string): Promise<string | null> {
  const r = resolvedServer(ctx, provider, server);
  if (!r.revocationEndpoint) return 'no revocation endpoint';
  try {
    await client.tokenRevocation(configurationOf(ctx, provider, server), token);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
