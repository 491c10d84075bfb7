/**
 * Failed-attempt throttling for sign-in, MFA and password-reset mail (issue 2 "repeated failures
 * for one account or address answer 429 with Retry-After"). Fixed windows counted in
 * `auth_throttle`; limits documented in docs/auth.md.
 */
import type { AppContext } from '../../context.js';
import { RateLimitedError } from '../../platform/http/errors.js';
import { authRepository } from './auth.repository.js';

export type Limit = { max: number; windowMs: number };
const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Limits per key kind. */
export const LIMITS = {
  /** Wrong passwords per account (e-mail). */
  account: { max: 5, windowMs: FIFTEEN_MINUTES },
  /** Wrong passwords or codes per client address. */
  ip: { max: 20, windowMs: FIFTEEN_MINUTES },
  /** Wrong MFA codes per user. */
  mfa: { max: 5, windowMs: FIFTEEN_MINUTES },
  /** Reset e-mails requested per address (e-mail). */
  forgot: { max: 3, windowMs: FIFTEEN_MINUTES },
} satisfies Record<string, Limit>;

export const throttleKeys = {
  account: (email: string) => `login:account:${email.trim().toLowerCase()}`,
  ip: (ip: string) => `login:ip:${ip}`,
  mfa: (userId: number) => `mfa:user:${userId}`,
  forgot: (email: string) => `forgot:email:${email.trim().toLowerCase()}`,
};

/**
 * @throws RateLimitedError (429, Retry-After = seconds until the longest lock ends) when any key is locked.
 */
export async function assertNotThrottled(ctx: AppContext, keys: string[]): Promise<void> {
  const now = Date.now();
  let wait = 0;
  for (const key of keys) {
    const row = await authRepository.findThrottle(ctx.db, key);
    if (row?.locked_until && row.locked_until.getTime() > now) wait = Math.max(wait, (row.locked_until.getTime() - now) / 1000);
  }
  if (wait > 0) throw new RateLimitedError(wait);
}

/** Counts one attempt on `key` under `limit`. */
export async function recordAttempt(ctx: AppContext, key: string, limit: Limit): Promise<void> {
  await authRepository.hitThrottle(ctx.db, key, limit.max, limit.windowMs, new Date());
}

/** Forgets the counter of `key` (after a successful sign-in). */
export async function clearThrottle(ctx: AppContext, key: string): Promise<void> {
  await authRepository.clearThrottle(ctx.db, key);
}
