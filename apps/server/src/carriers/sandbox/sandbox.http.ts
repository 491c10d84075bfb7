/**
 * How the sandbox reaches the product: signed form POSTs in Twilio's dialect to
 * `config.publicUrl` + the path of the configured webhook URL.
 */
import crypto from 'node:crypto';
import type { Config } from '../../platform/config.js';
import { signWebhook } from '../twilio/signature.js';

/** A Twilio-style SID: two letters and 32 hex digits. */
export function newSid(prefix: 'CA' | 'SM' | 'MM' | 'PN' | 'RE'): string {
  return prefix + crypto.randomBytes(16).toString('hex');
}

/** `url` moved onto `config.publicUrl` (keeps path and query). */
export function rebase(config: Config, url: string): string {
  if (url.startsWith('/')) return config.publicUrl + url;
  const u = new URL(url);
  return config.publicUrl + u.pathname + u.search;
}

/** Posts `params` form-encoded with `X-Twilio-Signature`; returns status and body text. */
export async function postSigned(config: Config, url: string, params: Record<string, string>): Promise<{ status: number; body: string }> {
  const target = rebase(config, url);
  const res = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signWebhook(config.twilioAuthToken, target, params) },
    body: new URLSearchParams(params),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: await res.text() };
}
