/**
 * Who is calling: resolves the session cookie or the `Authorization: Bearer` token on every
 * `/api` request into `request.auth`, and enforces the anti-forgery rule (foundation §7):
 * a state-changing request that comes with cookies, or that signs in, must carry
 * `X-XSRF-TOKEN` equal to the `XSRF-TOKEN` cookie, else 419. Bearer-only requests are exempt.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/db.js';
import { CsrfError, UnauthenticatedError } from '../http/errors.js';
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

/** Registers the request hooks. Call before any `/api` route. */
export function registerAuth(app: FastifyInstance, db: Db): void {
  app.decorateRequest('auth', null);
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
        void sessionsRepository.touchToken(db, token.id).catch(() => {});
      }
    }
    if (!request.auth && cookieToken) {
      const session = await sessionsRepository.find(db, hashToken(cookieToken));
      if (session) {
        request.auth = { userId: session.user_id, via: 'session', sessionId: session.id, mfaPending: session.mfa_pending, remember: session.remember };
        const ttl = sessionTtlMs(session.remember);
        if (Date.now() - (session.expires_at.getTime() - ttl) > 60_000) {
          void sessionsRepository.touch(db, session.id, new Date(Date.now() + ttl)).catch(() => {});
        }
      }
    }
    // Secure by default: a route is public only when it says so.
    if (!config.public && request.routeOptions.url && !(request.auth && (!request.auth.mfaPending || config.allowMfaPending))) {
      throw new UnauthenticatedError();
    }
  });
}
