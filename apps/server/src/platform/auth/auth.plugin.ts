/**
 * Who is calling: resolves the session cookie or the `Authorization: Bearer` token on every
 * `/api` request into `request.auth`, and enforces the anti-forgery rule (foundation §7):
 * a state-changing request that comes with cookies, or that signs in, must carry
 * `X-XSRF-TOKEN` equal to the `XSRF-TOKEN` cookie, else 419. Bearer-only requests are exempt.
 *
 * Admin mode (spec 000 §7 "an admin header is added in admin mode"; docs/auth.md "Admin mode"): a state-changing
 * request of a signed-in caller on a non-public route must carry `X-Admin-Mode: 1` exactly when its session is an
 * admin session, else 409 (ADMIN_MODE_MISMATCH): a page that believes it is in admin mode while the session is the
 * operator's own (admin mode left in another tab), or the reverse, changes nothing under the wrong name. Reads pass.
 */
import { ADMIN_MODE_HEADER, ADMIN_MODE_MISMATCH } from '@switchboard/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/db.js';
import type { Hooks } from '../hooks/hooks.js';
import { API_KEY_OTHER_UNIT } from '../http/access.js';
import { AppError, ConflictError, CsrfError, UnauthenticatedError } from '../http/errors.js';
import { requiredScopeFor } from './api-key-scopes.js';
import { sessionsRepository } from './sessions.repository.js';
import { hashToken, randomToken, safeEqual } from './tokens.js';

export const SESSION_COOKIE = 'switchboard_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
/** Remembered sessions slide: each use extends them to this lifetime (ms); their cookie persists as long. */
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;
/**
 * Sessions signed in without `remember` (docs/auth.md "Remember me"): a browser-session cookie
 * (no Max-Age, gone when the browser closes) and this idle lifetime on the server (ms), also sliding.
 */
export const SESSION_IDLE_TTL_MS = 12 * 3600 * 1000;

/** The server-side lifetime of a session (ms), by whether it is remembered. */
export function sessionTtlMs(remember: boolean): number {
  return remember ? SESSION_TTL_MS : SESSION_IDLE_TTL_MS;
}

export type AuthContext = {
  userId: number;
  via: 'session' | 'token';
  sessionId?: string;
  tokenId?: number;
  /** True between the password step and the MFA step; only the MFA routes accept it. */
  mfaPending: boolean;
  /** Session sign-ins: whether the person asked to be remembered (carried over the MFA step). */
  remember?: boolean;
  /**
   * Set when the bearer token is an API key (personal access token; docs/api-and-webhooks.md): its scopes and the
   * business unit it is limited to (null: every company of the user).
   */
  apiKey?: { id: number; scopes: string[]; organizationId: number | null };
  /**
   * Admin mode: the operator who opened this account (set by admin sessions); the audit log records their actions
   * under this id (docs/audit.md).
   */
  operatorUserId?: number;
  /** Admin mode: the one company the admin session was opened in (other companies are refused). */
  adminCompanyId?: number;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Routes that accept a session still waiting for its MFA code. */
    allowMfaPending?: boolean;
    /** Browser sign-in routes: CSRF is required even without cookies. */
    signIn?: boolean;
    /** Routes anyone may call; every other `/api` route answers 401 without a user. */
    public?: boolean;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Sets a fresh anti-forgery cookie and returns its value. */
export function issueXsrfCookie(reply: FastifyReply, secure: boolean): string {
  const value = randomToken(24);
  reply.setCookie(XSRF_COOKIE, value, { path: '/', sameSite: 'lax', httpOnly: false, secure });
  return value;
}

/**
 * Starts a session for the user and sets its httpOnly cookie: with `remember`, a cookie that
 * persists 14 days (SESSION_TTL_MS); without, a browser-session cookie and a 12-hour idle
 * lifetime (SESSION_IDLE_TTL_MS). Returns the session id (the hash of the cookie value).
 */
export async function startSession(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  mfaPending: boolean,
  secure: boolean,
  remember: boolean,
): Promise<string> {
  const token = randomToken();
  const id = hashToken(token);
  await sessionsRepository.create(db, {
    id,
    user_id: userId,
    mfa_pending: mfaPending,
    expires_at: new Date(Date.now() + sessionTtlMs(remember)),
    remember,
    user_agent: request.headers['user-agent']?.slice(0, 300) ?? null,
    ip: request.ip,
  });
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, ...(remember ? { maxAge: SESSION_TTL_MS / 1000 } : {}) });
  return id;
}

/** How long an operator's admin session lasts (ms), from its start; it never slides (docs/auth.md "Admin mode"). */
export const ADMIN_SESSION_TTL_MS = 60 * 60 * 1000;

/**
 * Starts an admin session (spec 000 §4 "Admin login"): a browser-session cookie for `userId` (the account's
 * person the operator acts as) marked with the operator and the company, ending ADMIN_SESSION_TTL_MS from now.
 * Returns the session id and its end (UTC).
 */
export async function startAdminSession(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  admin: { userId: number; operatorUserId: number; companyId: number },
  secure: boolean,
): Promise<{ id: string; expiresAt: Date }> {
  const token = randomToken();
  const id = hashToken(token);
  const expiresAt = new Date(Date.now() + ADMIN_SESSION_TTL_MS);
  await db.transaction().execute(async (tx) => {
    await sessionsRepository.create(tx, {
      id,
      user_id: admin.userId,
      mfa_pending: false,
      expires_at: expiresAt,
      remember: false,
      user_agent: request.headers['user-agent']?.slice(0, 300) ?? null,
      ip: request.ip,
    });
    await sessionsRepository.markAdmin(tx, { session_id: id, operator_user_id: admin.operatorUserId, company_id: admin.companyId, expires_at: expiresAt });
  });
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  return { id, expiresAt };
}

/** Ends the current session (if any) and clears the cookie; returns the ended session's id. */
export async function endSession(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
  const id = request.auth?.sessionId;
  if (id) await sessionsRepository.delete(db, id);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  return id;
}

/** Throws 401 unless a fully signed-in user is calling; returns the auth context. */
export function requireAuth(request: FastifyRequest): AuthContext {
  const a = request.auth;
  if (!a || (a.mfaPending && !request.routeOptions.config.allowMfaPending)) throw new UnauthenticatedError();
  return a;
}

/** The company ids a request names explicitly (path `companyId`, query or body `company_id`). */
function namedCompanyIds(request: FastifyRequest): number[] {
  const out: number[] = [];
  const take = (v: unknown) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
    if (Number.isSafeInteger(n) && n > 0) out.push(n);
  };
  take((request.params as Record<string, unknown> | undefined)?.companyId);
  take((request.query as Record<string, unknown> | undefined)?.company_id);
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) take((body as Record<string, unknown>).company_id);
  return out;
}

/**
 * Registers the request hooks. Call before any `/api` route. The business unit of a company (API keys limited to one)
 * comes from the `companyOrganizationOf` hook (provided by api-keys).
 */
export function registerAuth(app: FastifyInstance, db: Db, hooks?: Hooks): void {
  app.decorateRequest('auth', null);
  // An API key reaches only the routes its scopes allow (docs/api-and-webhooks.md "Scopes"). Checked once the body is
  // read (so a refusal's audit entry can name the company it was about) and before validation and the access check.
  app.addHook('preValidation', async (request) => {
    const key = request.auth?.apiKey;
    if (key) assertApiKeyScope(request, key.scopes);
  });
  // An API key limited to a business unit reaches only that unit's companies (spec 001: optional business unit id).
  app.addHook('preHandler', async (request) => {
    const key = request.auth?.apiKey;
    const organizationOf = hooks?.get('companyOrganizationOf');
    if (!key || key.organizationId === null || !organizationOf) return;
    for (const companyId of namedCompanyIds(request)) {
      if ((await organizationOf(companyId)) !== key.organizationId) throw new ApiKeyScopeError(null, API_KEY_OTHER_UNIT);
    }
  });
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const config = request.routeOptions.config ?? {};
    const header = request.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const cookieToken = request.cookies[SESSION_COOKIE];
    const hasCookies = Boolean(request.headers.cookie);

    if (STATE_CHANGING.has(request.method) && (hasCookies || config.signIn) && !(bearer && !cookieToken)) {
      const cookie = request.cookies[XSRF_COOKIE];
      const sent = request.headers['x-xsrf-token'];
      const value = Array.isArray(sent) ? sent[0] : sent;
      if (!cookie || !value || !safeEqual(decodeURIComponent(value), decodeURIComponent(cookie))) throw new CsrfError();
    }

    if (bearer) {
      const token = await sessionsRepository.findToken(db, hashToken(bearer));
      if (token) {
        request.auth = { userId: token.user_id, via: 'token', tokenId: token.id, mfaPending: false };
        if (token.kind === 'personal') request.auth.apiKey = { id: token.id, scopes: token.scopes, organizationId: token.organization_id };
        void sessionsRepository.touchToken(db, token.id, token.kind === 'personal' ? request.ip : undefined).catch(() => {});
      }
    }
    if (!request.auth && cookieToken) {
      const session = await sessionsRepository.find(db, hashToken(cookieToken));
      if (session) {
        request.auth = { userId: session.user_id, via: 'session', sessionId: session.id, mfaPending: session.mfa_pending, remember: session.remember };
        if (session.operator_user_id !== null && session.admin_company_id !== null) {
          // Admin mode (docs/auth.md "Admin mode"): the operator acts; the session never slides.
          request.auth.operatorUserId = session.operator_user_id;
          request.auth.adminCompanyId = session.admin_company_id;
        }
        const ttl = sessionTtlMs(session.remember);
        if (request.auth.operatorUserId === undefined && Date.now() - (session.expires_at.getTime() - ttl) > 60_000) {
          void sessionsRepository.touch(db, session.id, new Date(Date.now() + ttl)).catch(() => {});
        }
      }
    }
    if (request.auth && STATE_CHANGING.has(request.method) && request.routeOptions.url && !config.public) assertAdminModeHeader(request);
    // Secure by default: a route is public only when it says so.
    if (!config.public && request.routeOptions.url && !(request.auth && (!request.auth.mfaPending || config.allowMfaPending))) {
      throw new UnauthenticatedError();
    }
  });
}

/** True when the request carries the admin-mode header with a true value (`1` or `true`). */
export function claimsAdminMode(request: FastifyRequest): boolean {
  const sent = request.headers[ADMIN_MODE_HEADER];
  const value = (Array.isArray(sent) ? sent[0] : sent)?.trim().toLowerCase();
  return value === '1' || value === 'true';
}

/**
 * The admin header must match the session (see the module doc): present on an admin session's state-changing
 * requests, absent on every other session's and token's.
 * @throws ConflictError (409, ADMIN_MODE_MISMATCH) otherwise.
 */
function assertAdminModeHeader(request: FastifyRequest): void {
  const isAdmin = request.auth?.operatorUserId !== undefined;
  if (claimsAdminMode(request) !== isAdmin) throw new ConflictError(ADMIN_MODE_MISMATCH);
}

/** 403 for an API key lacking the route's scope (docs/api-and-webhooks.md "Scopes"). */
export class ApiKeyScopeError extends AppError {
  constructor(scope: string | null, message?: string) {
    super(403, message ?? (scope ? `This API key does not have the ${scope} scope.` : 'This route cannot be called with an API key.'));
  }
}

/**
 * Refuses an API-key request whose route needs a scope the key lacks, or that API keys may not call at all.
 * @throws ApiKeyScopeError (403)
 */
function assertApiKeyScope(request: FastifyRequest, scopes: readonly string[]): void {
  const pattern = request.routeOptions.url;
  if (!pattern) return; // unknown route: the 404 handler answers
  const scope = requiredScopeFor(request.method, pattern, request.routeOptions.config?.access);
  if (!scope || !scopes.includes(scope)) throw new ApiKeyScopeError(scope);
}
