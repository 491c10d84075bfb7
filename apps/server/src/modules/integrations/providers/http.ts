/**
 * Small helpers adapters may use to turn a provider's HTTP answer into the port's typed errors (provider.ts):
 * 429 → RateLimitedError (Retry-After, else `fallbackRetryMs`), 401 → ReconnectNeededError, 403/400/404/409/422 →
 * PermanentProviderError, 5xx / network → RetryableProviderError. Also SHA-256 hex of normalised contact data.
 */
import crypto from 'node:crypto';
import { PermanentProviderError, RateLimitedError, ReconnectNeededError, RetryableProviderError, retryAfterMs } from './provider.js';

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
