/**
 * Attempt throttling for sign-in, MFA and password-reset mail (foundation §7 "Session and account
 * calls"; limits in docs/auth.md "Throttling"). Fixed windows counted in `auth_throttle`.
 *
 * An attempt is counted BEFORE the credential is checked, with one atomic upsert per key, and
 * refused (429) when that count is over the limit: N concurrent attempts on one account can never
 * have more than the limit's worth of passwords evaluated, and an attempt that arrives once the
 * limit is reached is refused even with the right password. A success then clears the per-account
 * (or per-user) counter and gives the per-address attempt back, so the address counter stays a
 * count of failures.
 */
import type { AppContext } from '../../context.js';
import { RateLimitedError } from '../../platform/http/errors.js';
import { authRepository } from './auth.repository.js';

export type Limit = { max: number; windowMs: number };
const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Limits per key kind. */
export const LIMITS = {
  /** Password attempts per account (e-mail). */
  account: { max: 5, windowMs: FIFTEEN_MINUTES },
  /** Failed password or code attempts per client address. */
  ip: { max: 20, windowMs: FIFTEEN_MINUTES },
  /** MFA code attempts per user. */
  mfa: { max: 5, windowMs: FIFTEEN_MINUTES },
  /** Reset e-mails requested per address (e-mail). */
  forgot: { max: 3, windowMs: FIFTEEN_MINUTES },
} satisfies Record<string, Limit>;

/** Throttle keys: one per account e-mail, per user's MFA codes and per client address. */
export const throttleKeys = {
  account: (email: string) => `login:account:${email.trim().toLowerCase()}`,
  ip: (ip: string) => `login:ip:${ip}`,
  mfa: (userId: number) => `mfa:user:${userId}`,
  forgot: (email: string) => `forgot:email:${email.trim().toLowerCase()}`,
};

/** One counter an attempt is counted on. */
export type ThrottleKey = { key: string; limit: Limit };

/**
 * Counts one attempt on every key (atomically per key) before the caller checks anything.
 * @throws RateLimitedError (429, Retry-After = seconds until the longest lock ends) when this
 *   attempt is over the limit of any key; the caller must then not evaluate the credential.
 */
export async function consumeAttempt(ctx: AppContext, keys: ThrottleKey[]): Promise<void> {
  const now = new Date();
  let wait = 0;
  for (const { key, limit } of keys) {
    const row = await authRepository.hitThrottle(ctx.db, key, limit.max, limit.windowMs, now);
    if (row.failures > limit.max && row.locked_until) wait = Math.max(wait, (row.locked_until.getTime() - now.getTime()) / 1000);
  }
  if (wait > 0) throw new RateLimitedError(wait);
}

/** Gives back one attempt counted on `key` (a success on a per-address counter). */
export async function refundAttempt(ctx: AppContext, { key, limit }: ThrottleKey): Promise<void> {
  await authRepository.refundThrottle(ctx.db, key, limit.max);
}

/** Forgets the counter of `key` (after a successful sign-in or code). */
export async function clearThrottle(ctx: AppContext, key: string): Promise<void> {
  await authRepository.clearThrottle(ctx.db, key);
}
