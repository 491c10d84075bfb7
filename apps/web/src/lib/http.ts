/**
 * The HTTP client: the spec's shared request conventions (foundation §7 "Shared conventions") and
 * error handling (foundation §8 "Error catalogue").
 *
 * - credentials are always sent; the XSRF-TOKEN cookie is copied into X-XSRF-TOKEN for non-absolute
 *   URLs (GET /api/csrf-cookie is called once before the first state-changing call when the cookie
 *   is missing); Accept: application/json; a bearer header when a token exists; in admin mode (the session's
 *   `isAdmin`, spec 000 §3, §7) the admin header `X-Admin-Mode: 1` on every call to this site;
 * - `:companyId` in the path or in a query value is replaced by the selected company id;
 * - query params use bracket arrays and JSON-encoded object values; FormData bodies go as multipart;
 * - the result is `{ data, status }`; failures reject with an {@link HttpError} `{ status, errors }`
 *   where `errors` is the body's `errors` field, else the body, else its message;
 * - 401 (unless `skipAuthHandling`) or 500 "Unauthenticated" → log out: clear the session, the query
 *   cache and the live connection, wait LOGOUT_DELAY_MS (500 ms), then signal after-logout;
 * - 400/403/422 → error toast for ERROR_TOAST_MS (10 s): title + detail, or the collected messages;
 * - 429 → up to RATE_LIMIT_RETRIES (3) retries after Retry-After seconds (RATE_LIMIT_DEFAULT_WAIT_MS
 *   when absent) with a warning notice on the first retry;
 * - 409 ADMIN_MODE_MISMATCH (the page's admin mode is not the session's: admin mode was entered or left in another
 *   tab) → the page reloads, so it shows the session it really has (docs/auth.md "Admin mode");
 * - anything else (network failure, 404, 5xx) → the unknown-error toast for 10 s.
 */
import {
  ERROR_TOAST_MS,
  LOGOUT_DELAY_MS,
  RATE_LIMIT_DEFAULT_WAIT_MS,
  RATE_LIMIT_RETRIES,
  RATE_LIMIT_WARNING,
  UNKNOWN_ERROR,
  WARNING_TITLE,
} from '@switchboard/domain';
import { ADMIN_MODE_HEADER, ADMIN_MODE_MISMATCH } from '@switchboard/contracts';
import { SUPPORT_EMAIL } from './config';
import { notify } from './notify';
import { queryClient } from './query-client';
import { disconnectRealtime } from './realtime';
import { clearSession, getSession } from './session';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Query params: arrays in bracket notation, objects JSON-encoded. */
  params?: Record<string, unknown>;
  /** JSON body, or FormData for multipart. */
  data?: unknown;
  /** Skip the automatic 401 handling (login calls, the session probe). */
  skipAuthHandling?: boolean;
  /** Don't toast 400/403/422 answers (the caller shows them itself). */
  silent?: boolean;
  signal?: AbortSignal;
  /** 'blob' answers a successful body as a Blob (audio, downloads); default parses JSON. */
  responseType?: 'json' | 'blob';
}

/** A successful call: the response data and its HTTP status. */
export interface HttpResult<T> {
  data: T;
  status: number;
}

/** A failed call (foundation §7 "an error with status and errors"); status 0 = network failure. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errors: unknown,
    readonly body: unknown,
  ) {
    super(typeof (body as { message?: unknown })?.message === 'string' ? (body as { message: string }).message : `HTTP ${status}`);
    this.name = 'HttpError';
  }

  /** Field errors `{field: [messages]}` of a 422 answer (empty otherwise). */
  get fieldErrors(): Record<string, string[]> {
    const errors = (this.body as { errors?: unknown })?.errors;
    return errors && typeof errors === 'object' ? (errors as Record<string, string[]>) : {};
  }
}

const XSRF_COOKIE = 'XSRF-TOKEN';
const CSRF_PATH = '/api/csrf-cookie';

let afterLogout: () => void = () => window.location.assign('/login');
let onAdminModeMismatch: () => void = () => window.location.reload();
let loggingOut: Promise<void> | null = null;
let csrfPromise: Promise<void> | null = null;

/** Registers what happens once a forced logout finished (the app navigates to the sign-in page). */
export function setAfterLogout(handler: () => void): void {
  afterLogout = handler;
}

/** Registers what happens when the server says the page's admin mode is stale (default: reload the page). */
export function setOnAdminModeMismatch(handler: () => void): void {
  onAdminModeMismatch = handler;
}

function isAbsolute(url: string): boolean {
  return /^[a-z][a-z\d+\-.]*:\/\//i.test(url) || url.startsWith('//');
}

function readCookie(name: string): string | null {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : null;
}

function substituteCompany(value: string): string {
  const { companyId } = getSession();
  return companyId === null ? value : value.replaceAll(':companyId', String(companyId));
}

async function encodeParams(params: Record<string, unknown> | undefined): Promise<string> {
  if (!params) return '';
  // query-string comes with the first request that has parameters (the sign-in page makes none), so the first page
  // does not carry it (apps/web/README.md "First page").
  const { default: queryString } = await import('query-string');
  const prepared: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (typeof value === 'string') prepared[key] = substituteCompany(value);
    else if (value instanceof Date) prepared[key] = value.toISOString();
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) prepared[key] = JSON.stringify(value);
    else prepared[key] = value;
  }
  // Arrays in the foundation's bracket form (`ids[]=1&ids[]=2`), in the order given.
  const query = queryString.stringify(prepared, { arrayFormat: 'bracket', skipNull: true, sort: false });
  return query ? `?${query}` : '';
}

async function ensureCsrfCookie(): Promise<void> {
  if (readCookie(XSRF_COOKIE)) return;
  csrfPromise ??= fetch(CSRF_PATH, { credentials: 'include', headers: { Accept: 'application/json' } })
    .then(() => undefined)
    .finally(() => {
      csrfPromise = null;
    });
  await csrfPromise;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return text; // not JSON: the text itself
    throw error;
  }
}

/** Foundation §8 "Failure body selection": the errors field, else the response data, else the message. */
function selectErrors(body: unknown): unknown {
  if (body && typeof body === 'object') {
    const b = body as { errors?: unknown; message?: unknown };
    if (b.errors !== undefined) return b.errors;
    return body;
  }
  return body;
}

/** Messages of an error body: title + detail, or the collected texts of `errors`, or `message`. */
export function errorMessages(body: unknown): { title?: string; message: string } | null {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? { message: body } : null;
  const b = body as { title?: unknown; detail?: unknown; errors?: unknown; message?: unknown };
  if (typeof b.title === 'string' && b.title) return { title: b.title, message: typeof b.detail === 'string' ? b.detail : '' };
  const collected: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') collected.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(b.errors);
  if (collected.length === 0 && typeof b.message === 'string') collected.push(b.message);
  return collected.length > 0 ? { message: [...new Set(collected)].join('\n') } : null;
}

/** Forced logout (foundation §8, 401): clear session and local data, wait 500 ms, after-logout. */
function forceLogout(): Promise<void> {
  loggingOut ??= (async () => {
    clearSession();
    queryClient.clear();
    disconnectRealtime();
    await sleep(LOGOUT_DELAY_MS);
    afterLogout();
  })().finally(() => {
    loggingOut = null;
  });
  return loggingOut;
}

function isUnauthenticated500(status: number, body: unknown): boolean {
  const message = (body as { message?: unknown })?.message;
  return status === 500 && typeof message === 'string' && message.includes('Unauthenticated');
}

function retryAfterMs(response: Response): number {
  const header = response.headers.get('Retry-After');
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : RATE_LIMIT_DEFAULT_WAIT_MS;
}

/**
 * Performs one call with the shared conventions.
 *
 * @param url path such as '/api/companies/:companyId/numbers' (absolute URLs get no XSRF header)
 * @returns `{ data, status }`
 * @throws HttpError with `{ status, errors }` after the error behaviour of foundation §8 has run
 */
export async function request<T>(url: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
  const method = options.method ?? 'GET';
  const absolute = isAbsolute(url);
  const target = substituteCompany(url) + (await encodeParams(options.params));
  const isForm = typeof FormData !== 'undefined' && options.data instanceof FormData;

  let csrfRetried = false;
  for (let attempt = 0; ; attempt++) {
    if (method !== 'GET' && !absolute) await ensureCsrfCookie();
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (!absolute) {
      const xsrf = readCookie(XSRF_COOKIE);
      if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
    }
    const { token, user } = getSession();
    if (token) headers.Authorization = `Bearer ${token}`;
    // Admin mode (spec 000 §7 "an admin header is added in admin mode"): the server checks it against the session.
    if (user?.isAdmin && !absolute) headers[ADMIN_MODE_HEADER] = '1';
    if (options.data !== undefined && !isForm) headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await fetch(target, {
        method,
        credentials: 'include',
        headers,
        body: options.data === undefined ? undefined : isForm ? (options.data as FormData) : JSON.stringify(options.data),
        signal: options.signal,
      });
    } catch (cause) {
      if ((cause as Error)?.name === 'AbortError') throw cause;
      notify.danger(UNKNOWN_ERROR(SUPPORT_EMAIL), ERROR_TOAST_MS);
      throw new HttpError(0, null, null);
    }

    if (response.ok && options.responseType === 'blob') return { data: (await response.blob()) as T, status: response.status };
    const body = await readBody(response);
    const { status } = response;
    if (response.ok) return { data: body as T, status };

    if (status === 429 && attempt < RATE_LIMIT_RETRIES) {
      if (attempt === 0) notify.show({ type: 'warn', title: WARNING_TITLE, message: RATE_LIMIT_WARNING });
      await sleep(retryAfterMs(response));
      continue;
    }
    // A stale anti-forgery cookie: fetch a fresh one and retry once (Sanctum's 419, design decision).
    if (status === 419 && !csrfRetried && !absolute) {
      csrfRetried = true;
      document.cookie = `${XSRF_COOKIE}=; Max-Age=0; path=/`;
      continue;
    }

    const error = new HttpError(status, selectErrors(body), body);
    if (status === 409 && (body as { message?: unknown } | null)?.message === ADMIN_MODE_MISMATCH) {
      notify.danger(ADMIN_MODE_MISMATCH, ERROR_TOAST_MS);
      onAdminModeMismatch();
      throw error;
    }
    if ((status === 401 && !options.skipAuthHandling) || isUnauthenticated500(status, body)) {
      void forceLogout();
    } else if (status === 400 || status === 403 || status === 422) {
      if (!options.silent) {
        const shown = errorMessages(body);
        notify.danger(shown?.message || UNKNOWN_ERROR(SUPPORT_EMAIL), ERROR_TOAST_MS, shown?.title);
      }
    } else if (status !== 401) {
      notify.danger(UNKNOWN_ERROR(SUPPORT_EMAIL), ERROR_TOAST_MS);
    }
    throw error;
  }
}

/** Convenience wrappers returning only the data. */
export const http = {
  get: async <T>(url: string, options?: Omit<RequestOptions, 'method' | 'data'>) => (await request<T>(url, { ...options, method: 'GET' })).data,
  post: async <T>(url: string, data?: unknown, options?: Omit<RequestOptions, 'method' | 'data'>) =>
    (await request<T>(url, { ...options, method: 'POST', data })).data,
  put: async <T>(url: string, data?: unknown, options?: Omit<RequestOptions, 'method' | 'data'>) =>
    (await request<T>(url, { ...options, method: 'PUT', data })).data,
  delete: async <T>(url: string, data?: unknown, options?: Omit<RequestOptions, 'method' | 'data'>) =>
    (await request<T>(url, { ...options, method: 'DELETE', data })).data,
};
