/**
 * Outbound signed POSTs shared by the product's outgoing webhooks (webhooks module: endpoint deliveries; numbers
 * module: number triggers): a JSON body signed with the Standard Webhooks scheme (the `standardwebhooks` package:
 * `webhook-id` = the message id, the same on every retry; `webhook-timestamp` in Unix seconds; `webhook-signature`
 * `v1,<base64 HMAC-SHA256>` with a `whsec_…` secret), sent through the server-side request guard
 * (platform/http/safe-fetch.ts: public unicast addresses only, checked at connect time; redirects are not followed,
 * a 3xx is a failure). At most 1,000 characters of the answer are kept; an answer over 64 KiB is cut off.
 */
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { assertFetchableUrl, guardedLookup, type AddressPolicy } from './safe-fetch.js';

/** What one POST gave: the HTTP status (null: no answer), time to the answer (ms), the error, the answer's start. */
export type SendResult = { statusCode: number | null; durationMs: number; error: string | null; body: string | null };

/** Per call: the answer deadline (ms) and which addresses may be reached. */
export type PostOptions = { timeoutMs: number; addressPolicy: AddressPolicy; userAgent: string };

const KEEP_BODY = 1000;

/** Whether a result is a 2xx answer. */
export function succeeded(r: SendResult): boolean {
  return r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
}

/** POSTs `body` (JSON) with `headers` to `url` under `options.addressPolicy`; never throws (errors are the result). */
export async function postSigned(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  let u: URL;
  try {
    u = assertFetchableUrl(url, options.addressPolicy);
  } catch (error) {
    return done({ statusCode: null, error: (error as Error).message, body: null });
  }
  return new Promise<SendResult>((resolve) => {
    const mod = u.protocol === 'https:' ? https : http;
    const req = mod.request(
      u,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': options.userAgent, 'content-length': String(Buffer.byteLength(body)), ...headers },
        lookup: guardedLookup(options.addressPolicy),
        agent: false,
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < KEEP_BODY) chunks.push(c);
          size += c.length;
          if (size > 64 * 1024) res.destroy();
        });
        const finish = () =>
          resolve(done({ statusCode: res.statusCode ?? null, error: null, body: Buffer.concat(chunks).toString('utf8').slice(0, KEEP_BODY) || null }));
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', (e) => resolve(done({ statusCode: null, error: e.message, body: null })));
    req.end(body);
  });
}

/** The Standard Webhooks headers for one message signed with `secret` (`whsec_…`). */
export function signatureHeaders(secret: string, messageId: string, body: string, at = new Date()): Record<string, string> {
  const signature = new Webhook(secret).sign(messageId, at, body);
  return { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

/** A new Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
