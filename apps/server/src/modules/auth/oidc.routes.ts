/**
 * OIDC sign-in over HTTP (spec 000 §7 "GET, POST /oauth provider redirect, callback and token", "GET
 * /oauth/consent/context | nonce"; docs/auth.md "OIDC sign-in"). Paths under /api:
 * - `GET /oauth/providers`: the configured providers (`{data:[{id,name}]}`), for the sign-in page's buttons.
 * - `GET /oauth/{provider}/redirect?remember=&return_to=`: 302 to the provider (404 when not configured).
 * - `POST /oauth/{provider}/token {code, code_verifier, redirect_uri, nonce?, device_name?}`: a mobile app's code → a
 *   bearer token (or the MFA step); only provider accounts already linked.
 * - `GET /oauth/{provider}/callback`: the provider's redirect back; 302 to the app: the page asked for when signed
 *   in, `/login?oauth=mfa&from=<path>` when a code is needed, `/login?oauth_consent=<nonce>[&from=<path>]` when a verified account waits for
 *   consent before it is linked, `/login?oauth_error=<code>&provider=<id>` when refused.
 * - `GET /oauth/consent/context?nonce=`: the consent screen's facts; `POST /oauth/consent {nonce, approve}`.
 * - `GET /user/oauth-identities`, `DELETE /user/oauth-identities/{id}`: the person's linked provider accounts (not with
 *   an API key, whatever its scopes: 403).
 * The flow is bound to the browser by the httpOnly cookie `switchboard_oidc` (path /api/oauth, 10 minutes).
 */
import {
  ErrorBody,
  errorResponses,
  OidcCallbackQuery,
  OidcConsentBody,
  OidcConsentContext,
  OidcConsentQuery,
  OidcConsentResponse,
  OidcIdentityList,
  OidcIdentityParams,
  OidcProviderList,
  OidcProviderParams,
  OidcRedirectQuery,
  OidcTokenBody,
  TokenSessionResponse,
  type OidcProviderId,
  type OidcSignInError,
} from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { ApiKeyScopeError, issueXsrfCookie, startSession } from '../../platform/auth/auth.plugin.js';
import { randomToken } from '../../platform/auth/tokens.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { fieldError, NotFoundError } from '../../platform/http/errors.js';
import { createOidcClients, OIDC_PROVIDER_NAMES, OidcProviderError, type OidcClient } from '../../platform/oidc/oidc-client.js';
import { getCurrentUser } from '../users/users.service.js';
import { auditAdminSessionEnd } from './admin-login.service.js';
import { endSessionById, MSG_DEACTIVATED } from './auth.service.js';
import {
  completeOidcCallback,
  decideOidcConsent,
  exchangeOidcToken,
  listOidcIdentities,
  OIDC_FLOW_TTL_MS,
  oidcConsentContext,
  startOidcSignIn,
  unlinkOidcIdentity,
  type OidcOutcome,
} from './oidc.service.js';
import { redirectAnswer } from '../../platform/http/openapi.js';

/** The httpOnly cookie binding a sign-in flow and its consent request to the browser that started them. */
export const OIDC_BROWSER_COOKIE = 'switchboard_oidc';
/** Where the app opens after an OIDC sign-in when the start named no `return_to`. */
const DEFAULT_RETURN_TO = '/inbox';
const withErrors = { ...errorResponses, 419: ErrorBody };

/** Registers the OIDC sign-in, consent and linked-account routes, with one client per configured provider. */
export function registerOidcRoutes(app: App, ctx: AppContext): void {
  const secure = ctx.config.publicUrl.startsWith('https://');
  const clients = createOidcClients(ctx.config.oidc);

  function clientOf(provider: string): OidcClient {
    const c = clients.get(provider as OidcProviderId);
    if (!c) throw new NotFoundError('Sign-in provider');
    return c;
  }
  const redirectUri = (id: OidcProviderId) => `${ctx.config.publicUrl}/api/oauth/${id}/callback`;
  const loginError = (error: OidcSignInError, id: OidcProviderId) => `/login?${new URLSearchParams({ oauth_error: error, provider: id })}`;

  /** Signs the outcome's user in (rotation: the request's session ends first) and answers where the app goes next. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, outcome: Extract<OidcOutcome, { kind: 'signed_in' }>): Promise<void> {
    if (request.auth?.sessionId) {
      await auditAdminSessionEnd(ctx, request, 'signed-in-again');
      await endSessionById(ctx, request.auth.sessionId);
    }
    await startSession(ctx.db, request, reply, outcome.userId, outcome.mfaRequired, secure, outcome.remember);
    issueXsrfCookie(reply, secure);
  }

  app.get(
    '/api/oauth/providers',
    {
      config: { access: access.public() },
      schema: { tags: ['session'], summary: 'The configured OIDC sign-in providers (none unless configured)', response: { 200: OidcProviderList } },
    },
    async () => ({ data: [...clients.keys()].map((id) => ({ id, name: OIDC_PROVIDER_NAMES[id] })) }),
  );

  app.get(
    '/api/oauth/:provider/redirect',
    {
      config: { access: access.public() },
      schema: {
        tags: ['session'],
        summary: 'Starts an OIDC sign-in: 302 to the provider (code flow, PKCE, state, nonce); 404 when the provider is not configured',
        params: OidcProviderParams,
        querystring: OidcRedirectQuery,
        response: {
          302: redirectAnswer('To the provider’s sign-in page, or to the sign-in page with a reason when the provider is unavailable'),
          404: ErrorBody,
          422: errorResponses[422],
        },
      },
    },
    async (request, reply) => {
      const client = clientOf(request.params.provider);
      const browserToken = request.cookies[OIDC_BROWSER_COOKIE] || randomToken();
      let url: URL;
      try {
        url = await startOidcSignIn(ctx, client, {
          redirectUri: redirectUri(client.id),
          browserToken,
          remember: request.query.remember === '1' || request.query.remember === 'true',
          returnTo: request.query.return_to ?? null,
        });
      } catch (error) {
        if (!(error instanceof OidcProviderError)) throw error;
        request.log.warn({ err: error, provider: client.id }, 'OIDC provider unavailable');
        return reply.redirect(loginError('unavailable', client.id), 302);
      }
      reply.setCookie(OIDC_BROWSER_COOKIE, browserToken, { path: '/api/oauth', httpOnly: true, sameSite: 'lax', secure, maxAge: OIDC_FLOW_TTL_MS / 1000 });
      return reply.header('cache-control', 'no-store').redirect(url.href, 302);
    },
  );

  app.post(
    '/api/oauth/:provider/token',
    {
      config: { access: access.public() },
      schema: {
        tags: ['session'],
        summary:
          'Mobile OIDC sign-in: a code the app obtained with its own PKCE verifier → a bearer token, or `{mfa_required, mfa_token}` (then POST /sanctum/mfaToken); only a provider account already linked in the browser; 422 `{message}` when refused',
        params: OidcProviderParams,
        body: OidcTokenBody,
        response: { 200: TokenSessionResponse, 404: ErrorBody, 422: errorResponses[422], 503: ErrorBody },
      },
    },
    async (request) => exchangeOidcToken(ctx, clientOf(request.params.provider), request.body),
  );

  app.get(
    '/api/oauth/:provider/callback',
    {
      config: { access: access.public() },
      schema: {
        tags: ['session'],
        summary: 'The provider redirects here; 302 to the app: signed in, MFA step, consent screen, or the sign-in page with a reason',
        params: OidcProviderParams,
        querystring: OidcCallbackQuery,
        response: { 302: redirectAnswer('To the app: signed in, the MFA step, the consent screen, or the sign-in page with a reason'), 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const client = clientOf(request.params.provider);
      const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const callbackUrl = new URL(redirectUri(client.id) + search);
      const outcome = await completeOidcCallback(ctx, client, callbackUrl, request.cookies[OIDC_BROWSER_COOKIE]);
      reply.header('cache-control', 'no-store');
      switch (outcome.kind) {
        case 'refused':
          request.log.info({ provider: client.id, reason: outcome.error }, 'OIDC sign-in refused');
          return reply.redirect(loginError(outcome.error, client.id), 302);
        case 'consent':
          return reply.redirect(
            `/login?${new URLSearchParams({ oauth_consent: outcome.nonce, ...(outcome.returnTo ? { from: outcome.returnTo } : {}) })}`,
            302,
          );
        case 'signed_in': {
          await signIn(request, reply, outcome);
          const next = outcome.returnTo ?? DEFAULT_RETURN_TO;
          if (outcome.mfaRequired) return reply.redirect(`/login?${new URLSearchParams({ oauth: 'mfa', from: next })}`, 302);
          return reply.redirect(next, 302);
        }
      }
    },
  );

  app.get(
    '/api/oauth/consent/context',
    {
      config: { access: access.public() },
      schema: {
        tags: ['session'],
        summary: 'The consent screen before a provider account is linked: client name, provider, scopes, the user (404 when expired)',
        querystring: OidcConsentQuery,
        response: { 200: OidcConsentContext, ...errorResponses },
      },
    },
    async (request) => oidcConsentContext(ctx, request.query.nonce, request.cookies[OIDC_BROWSER_COOKIE]),
  );

  app.post(
    '/api/oauth/consent',
    {
      config: { access: access.public(), signIn: true },
      schema: {
        tags: ['session'],
        summary: 'Approves (links the provider account and signs in: `{user}` or `{mfa_required}`) or refuses (`{cancelled}`) a consent request',
        body: OidcConsentBody,
        response: { 200: OidcConsentResponse, 409: ErrorBody, ...withErrors },
      },
    },
    async (request, reply) => {
      const outcome = await decideOidcConsent(ctx, request.body.nonce, request.cookies[OIDC_BROWSER_COOKIE], request.body.approve);
      if (outcome.kind === 'cancelled') return { cancelled: true as const };
      // Deactivated between the callback and the consent: refused as a password sign-in would be.
      if (outcome.kind !== 'signed_in') throw fieldError('nonce', MSG_DEACTIVATED);
      await signIn(request, reply, outcome);
      if (outcome.mfaRequired) return { mfa_required: true as const };
      return { user: await getCurrentUser(ctx, outcome.userId) };
    },
  );

  app.get(
    '/api/user/oauth-identities',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['session'],
        summary: 'The Google and Microsoft accounts linked to the current user',
        response: { 200: OidcIdentityList, ...errorResponses },
      },
    },
    async (request) => {
      // Sign-in methods are the person's own business, like MFA: never reachable with an API key.
      if (request.auth!.apiKey) throw new ApiKeyScopeError(null);
      return { data: await listOidcIdentities(ctx, request.auth!.userId) };
    },
  );

  app.delete(
    '/api/user/oauth-identities/:id',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['session'],
        summary: 'Unlinks one of the current user’s provider accounts (204; 404 when not theirs)',
        params: OidcIdentityParams,
        response: { 204: z.null().optional(), ...withErrors },
      },
    },
    async (request, reply) => {
      if (request.auth!.apiKey) throw new ApiKeyScopeError(null);
      await unlinkOidcIdentity(ctx, request.auth!.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
