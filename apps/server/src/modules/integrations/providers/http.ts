/**
 * Small helpers adapters may use to turn a provider's HTTP answer into the port's typed errors (provider.ts):
 * 429 → RateLimitedError (Retry-After, else `fallbackRetryMs`), 401 → ReconnectNeededError, 403/400/404/409/422 →
 * PermanentProviderError, 5xx / network → RetryableProviderError; {@link requestJson}, the one way adapters read a
 * provider's JSON answer (network errors, JSON, their own error mapping). Also SHA-256 hex of normalised contact data.
 */
import crypto from 'node:crypto';
import { PermanentProviderError, RateLimitedError, ReconnectNeededError, RetryableProviderError, retryAfterMs, type ProviderConnection } from './provider.js';

/** The body as JSON, or `{ text }` when it is not JSON (cut at 2,000 chars). */
export async function readBody(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch (error) {
    if (error instanceof SyntaxError) return { text: text.slice(0, 2000) };
    throw error;
  }
}

/**
 * Throws the port's error for a non-2xx answer; returns the parsed body of a 2xx.
 * @param describe the provider's error message from a body (e.g. Google `error.message`)
 */
export async function expectOk(
  res: Response,
  now: Date,
  describe: (body: Record<string, unknown>) => string = (b) => JSON.stringify(b).slice(0, 300),
  fallbackRetryMs = 60_000,
): Promise<Record<string, unknown>> {
  const body = await readBody(res);
  if (res.ok) return body;
  const msg = `HTTP ${res.status}: ${describe(body)}`;
  if (res.status === 429) throw new RateLimitedError(retryAfterMs(res.headers, fallbackRetryMs, now), msg);
  if (res.status === 401) throw new ReconnectNeededError(msg);
  if (res.status >= 500 || res.status === 408) throw new RetryableProviderError(msg, res.status);
  throw new PermanentProviderError(msg, res.status);
}

/** Maps a provider's failed answer (status, headers, the JSON body or null when it is not JSON) to the port's errors. */
export type ProviderErrorMapper = (status: number, headers: Headers, body: unknown, now: Date) => never;

/** A provider's answer to one request: its status and JSON body (`{}` when empty, or not JSON on an allowed status). */
export type JsonAnswer = { status: number; json: Record<string, unknown> };

/**
 * One request to a provider's JSON API, read the same way for every adapter: a network failure or timeout →
 * RetryableProviderError (`<provider> unreachable: …`); a non-2xx answer (other than the `allow`ed statuses the caller
 * handles itself, e.g. HubSpot's 404/409) or a 2xx that `isError` calls an error (Meta's `{ error }`) → the provider's
 * `onError` mapping; a 2xx whose body is not JSON → RetryableProviderError.
 */
export async function requestJson(
  conn: Pick<ProviderConnection, 'fetch' | 'now'>,
  url: string | URL,
  init: RequestInit,
  opts: { provider: string; onError: ProviderErrorMapper; allow?: readonly number[]; isError?: (json: unknown) => boolean },
): Promise<JsonAnswer> {
  let res: Response;
  try {
    res = await conn.fetch(url, init);
  } catch (error) {
    throw new RetryableProviderError(`${opts.provider} unreachable: ${(error as Error).message}`);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? (JSON.parse(text) as unknown) : {};
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  if ((!res.ok && !opts.allow?.includes(res.status)) || (json !== null && opts.isError?.(json))) opts.onError(res.status, res.headers, json, conn.now());
  if (json === null) {
    if (res.ok) throw new RetryableProviderError(`${opts.provider} answered ${res.status} with a body that is not JSON`, res.status);
    json = {};
  }
  return { status: res.status, json: json as Record<string, unknown> };
}

/** Calls `fetch` and maps network failures and timeouts to RetryableProviderError. */
export async function send(fetchFn: (input: string, init?: RequestInit) => Promise<Response>, url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetchFn(url, init);
  } catch (error) {
    throw new RetryableProviderError(`network: ${(error as Error).message}`);
  }
}

/** SHA-256 hex (lower case) of a string. */
export function sha256Hex(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** Normalised e-mail for hashing: trimmed, lower case (Google also drops dots and +suffix in gmail.com addresses). */
export function normalizeEmail(email: string, gmailRules = false): string {
  let e = email.trim().toLowerCase();
  if (gmailRules) {
    const [local, domain] = e.split('@');
    if (local && (domain === 'gmail.com' || domain === 'googlemail.com')) e = `${local.replace(/\./g, '').replace(/\+.*$/, '')}@${domain}`;
  }
  return e;
}

/** A JSON answer (sandboxes). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
