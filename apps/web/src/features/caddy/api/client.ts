/**
 * The consumer area's HTTP client and session (docs/consumer-area.md "Accounts and sessions"). Apart from the business
 * app's client (lib/http.ts) on purpose:
 *
 * - the session is a bearer token of `POST /api/caddy/auth/login` or `/register`, kept in localStorage under
 *   {@link CADDY_SESSION_KEY} (never the business session, which is a cookie; the two never reach each other's routes);
 * - a 401 never triggers the business app's forced logout (the spec: consumer calls skip the business app's
 *   unauthorized handling): a 401 on a call made with a consumer token ends only the consumer session and calls the
 *   handler the consumer shell registers ({@link setCaddyUnauthorizedHandler});
 * - anti-forgery: when the browser also holds a business session cookie, the server asks for `X-XSRF-TOKEN` equal to
 *   the `XSRF-TOKEN` cookie on every state-changing call (platform/auth/auth.plugin.ts: "bearer only" is exempt, a
 *   bearer beside a session cookie is not). The HttpOnly session cookie cannot be seen from here, so every
 *   state-changing call sends the header, fetching the cookie first (`GET /api/csrf-cookie`) when missing; a 419 drops
 *   the stale cookie and retries once;
 * - no toasts: the screens show the answer's message and field errors where they belong.
 */
import type { CaddySession, Infer } from '@switchboard/contracts';
import { useSyncExternalStore } from 'react';

/** A consumer session: `{accountId, token, iapId, plan, subscriptionStatus}` (the contracts' CaddySession). */
export type CaddySessionData = Infer<typeof CaddySession>;

/** localStorage key of the consumer session (JSON of {@link CaddySessionData}). */
export const CADDY_SESSION_KEY = 'caddy.session';
const XSRF_COOKIE = 'XSRF-TOKEN';
/** What a person sees when the server cannot be reached. */
export const CADDY_OFFLINE = 'We could not reach the server. Check your connection and try again.';
/** What a person sees for an answer with no message of its own (5xx). */
export const CADDY_UNKNOWN = 'Something went wrong on our side. Please try again in a moment.';

/** A failed consumer call: the HTTP status (0: network failure), the answer's message and field errors. */
export class CaddyError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
    /** Seconds to wait (a 429's Retry-After), when told. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'CaddyError';
  }

  /** The first message of `field`, else undefined. */
  field(field: string): string | undefined {
    return this.fieldErrors[field]?.[0];
  }
}

/** The message to show for any error thrown by a consumer call. */
export function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : CADDY_UNKNOWN;
}

// --- session store ------------------------------------------------------------------------------------------------

function readStored(): CaddySessionData | null {
  try {
    const raw = globalThis.localStorage?.getItem(CADDY_SESSION_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<CaddySessionData>;
    return typeof parsed.token === 'string' && typeof parsed.accountId === 'number' ? (parsed as CaddySessionData) : null;
  } catch (error) {
    if (error instanceof DOMException || error instanceof SyntaxError) return null; // storage unavailable, or not ours
    throw error;
  }
}

let session: CaddySessionData | null = readStored();
const listeners = new Set<() => void>();
let onUnauthorized: () => void = () => {};

function emit(next: CaddySessionData | null): void {
  session = next;
  try {
    if (next) globalThis.localStorage?.setItem(CADDY_SESSION_KEY, JSON.stringify(next));
    else globalThis.localStorage?.removeItem(CADDY_SESSION_KEY);
  } catch (error) {
    if (!(error instanceof DOMException)) throw error; // storage unavailable: the session lives in memory only
  }
  for (const listener of listeners) listener();
}

/** The consumer session in force (non-reactive), or null. */
export function getCaddySession(): CaddySessionData | null {
  return session;
}

/** Stores the session answered by the second step of sign-up or sign-in. */
export function setCaddySession(next: CaddySessionData): void {
  emit(next);
}

/** Ends the consumer session in this browser (sign-out, or a 401). The business session is untouched. */
export function clearCaddySession(): void {
  emit(null);
}

/** The consumer session, reactive (re-renders on sign-in and sign-out, also from another tab). */
export function useCaddySession(): CaddySessionData | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      const onStorage = (event: StorageEvent) => {
        if (event.key === CADDY_SESSION_KEY) {
          session = readStored();
          listener();
        }
      };
      globalThis.addEventListener?.('storage', onStorage);
      return () => {
        listeners.delete(listener);
        globalThis.removeEventListener?.('storage', onStorage);
      };
    },
    () => session,
  );
}

/** Registers what happens after a consumer token was refused (401): the shell sends the person to sign-in. */
export function setCaddyUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

// --- requests -----------------------------------------------------------------------------------------------------

function readCookie(name: string): string | null {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : null;
}

async function ensureCsrfCookie(): Promise<void> {
  if (readCookie(XSRF_COOKIE)) return;
  await fetch('/api/csrf-cookie', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return { message: text };
    throw error;
  }
}

function toError(status: number, body: unknown, retryAfter: number | null): CaddyError {
  const b = (body && typeof body === 'object' ? body : {}) as { message?: unknown; errors?: unknown };
  const fieldErrors: Record<string, string[]> = {};
  if (b.errors && typeof b.errors === 'object') {
    for (const [key, value] of Object.entries(b.errors as Record<string, unknown>)) {
      fieldErrors[key] = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    }
  }
  let message = typeof b.message === 'string' && b.message ? b.message : '';
  if (status >= 500 || !message) message = status === 429 ? 'Too many attempts. Please wait a moment and try again.' : CADDY_UNKNOWN;
  if (status === 429 && retryAfter) message = `${message.replace(/\.$/, '')}. Try again in ${retryAfter} s.`;
  return new CaddyError(status, message, fieldErrors, retryAfter);
}

export interface CaddyRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Query parameters (strings and numbers only: the consumer calls need no more). */
  params?: Record<string, string | number | undefined>;
  /** A JSON body, or FormData for multipart. */
  data?: unknown;
  signal?: AbortSignal;
}

/**
 * One consumer call: `path` under `/api/caddy` (`/numbers`, `/auth/login`, …), with the session's bearer token.
 * @returns the parsed JSON answer (null for an empty body) and its status.
 * @throws CaddyError with the status, the answer's message and field errors (status 0 when the server is unreachable).
 */
export async function caddyRequest<T>(path: string, options: CaddyRequest = {}): Promise<{ data: T; status: number }> {
  const method = options.method ?? 'GET';
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(options.params ?? {})) if (value !== undefined && value !== '') query.set(key, String(value));
  const url = `/api/caddy${path}${query.size ? `?${query}` : ''}`;
  const isForm = options.data instanceof FormData;
  const token = session?.token ?? null;
  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (method !== 'GET') {
      await ensureCsrfCookie().catch(() => undefined); // offline: the call itself reports it
      const xsrf = readCookie(XSRF_COOKIE);
      if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
    }
    if (options.data !== undefined && !isForm) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        credentials: 'same-origin',
        body: options.data === undefined ? undefined : isForm ? (options.data as FormData) : JSON.stringify(options.data),
        signal: options.signal,
      });
    } catch (cause) {
      if ((cause as Error)?.name === 'AbortError') throw cause;
      throw new CaddyError(0, CADDY_OFFLINE);
    }
    const body = await readBody(response);
    if (response.ok) return { data: body as T, status: response.status };
    if (response.status === 419 && attempt === 0) {
      document.cookie = `${XSRF_COOKIE}=; Max-Age=0; path=/`;
      continue;
    }
    if (response.status === 401 && token && session?.token === token) {
      clearCaddySession();
      onUnauthorized();
    }
    const retry = Number(response.headers.get('Retry-After'));
    throw toError(response.status, body, Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null);
  }
}

/** Shorthands answering the body only. */
export const caddy = {
  get: async <T>(path: string, params?: CaddyRequest['params'], signal?: AbortSignal) => (await caddyRequest<T>(path, { params, signal })).data,
  post: async <T>(path: string, data?: unknown) => (await caddyRequest<T>(path, { method: 'POST', data })).data,
  put: async <T>(path: string, data?: unknown) => (await caddyRequest<T>(path, { method: 'PUT', data })).data,
  delete: async <T>(path: string) => (await caddyRequest<T>(path, { method: 'DELETE' })).data,
};
