/**
 * The sandbox's stand-in for a Voice access token: `base64url(JSON payload).base64url(HMAC-SHA256)`
 * keyed with TWILIO_AUTH_TOKEN. Payload: `{iss:'sandbox', sub: identity, grants: {incoming, outgoing?, params?}, iat, exp}` (s).
 * The sandbox softphone needs no media; the token only proves who the browser is.
 */
import crypto from 'node:crypto';
import type { Config } from '../../platform/config.js';
import type { ClientToken } from '../carrier.port.js';

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** Signs a sandbox client token for `identity` (default lifetime 1 hour). */
export function createSandboxClientToken(
  config: Config,
  identity: string,
  options: { outgoing?: boolean; ttlS?: number; params?: Record<string, string> } = {},
): ClientToken {
  const ttlS = options.ttlS ?? 3600;
  const iat = Math.floor(Date.now() / 1000);
  const payload = b64(
    JSON.stringify({
      iss: 'sandbox',
      sub: identity,
      grants: { incoming: true, outgoing: Boolean(options.outgoing), params: options.params ?? {} },
      iat,
      exp: iat + ttlS,
    }),
  );
  const sig = b64(crypto.createHmac('sha256', config.twilioAuthToken).update(payload).digest());
  return { token: `${payload}.${sig}`, identity, ttlS };
}

/** Checks a sandbox client token; returns its payload when the signature holds and it has not expired. */
export function verifySandboxClientToken(
  config: Config,
  token: string,
): { sub: string; grants: { incoming: boolean; outgoing: boolean; params: Record<string, string> }; exp: number } | null {
  const [payload, sig] = token.split('.');
  if (!payload || !sig) return null;
  const expected = b64(crypto.createHmac('sha256', config.twilioAuthToken).update(payload).digest());
  if (expected.length !== sig.length || !crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(sig))) return null;
  const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    sub: string;
    grants: { incoming: boolean; outgoing: boolean; params: Record<string, string> };
    exp: number;
  };
  return body.exp * 1000 > Date.now() ? body : null;
}
