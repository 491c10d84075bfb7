/**
 * MFA by SMS (spec 000 §7 MFA `sendCode`, `reactivate`; docs/auth.md "MFA by SMS"): an alternative second factor to
 * TOTP. A user enrols an E.164 phone (a code is texted through the carrier port, `ctx.carrier`, and confirmed);
 * at sign-in, a session waiting for its second step asks for a code (`sendCode`) and answers it on the usual
 * `POST /sanctum/mfa`. Codes: 6 random digits, stored as SHA-256, valid SMS_CODE_TTL_MS (10 min), single use;
 * sends at most one per SEND_SPACING_MS (30 s) and LIMITS.smsSend per 15 minutes per user (429 with Retry-After);
 * wrong codes count on the user's MFA throttle like TOTP codes. `reactivate` turns a disabled factor back on for
 * the phone on file (a new code to confirm).
 */
import crypto from 'node:crypto';
import { parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { ConflictError, fieldError, RateLimitedError } from '../../platform/http/errors.js';
import { findUser, verifyPassword } from '../users/users.service.js';
import { mfaSmsRepository } from './mfa-sms.repository.js';
import { consumeAttempt, LIMITS, throttleKeys } from './throttle.js';

/** How long a texted code is valid (ms). */
export const SMS_CODE_TTL_MS = 10 * 60 * 1000;
/** The least time between two texts to one user (ms). */
export const SEND_SPACING_MS = 30 * 1000;
/** Texts per user per 15 minutes. */
const SEND_LIMIT = { max: 5, windowMs: 15 * 60 * 1000 };

/** `GET /api/user/mfa/sms`: whether SMS codes are on, and the phone's last 4 digits (null without a phone). */
export type SmsMfaStatus = { enabled: boolean; phone_last4: string | null };

export async function smsMfaStatus(ctx: AppContext, userId: number): Promise<SmsMfaStatus> {
  const row = await mfaSmsRepository.find(ctx.db, userId);
  return { enabled: Boolean(row?.enabled), phone_last4: row ? row.phone.slice(-4) : null };
}

/** Whether the user signs in with SMS codes (checked after the password; docs/auth.md). */
export async function smsMfaEnabled(ctx: AppContext, userId: number): Promise<boolean> {
  return Boolean((await mfaSmsRepository.find(ctx.db, userId))?.enabled);
}

/**
 * Texts a fresh code to the user's phone on file.
 * @throws RateLimitedError (429) within 30 s of the last text or over 5 texts per 15 minutes.
 */
async function textCode(ctx: AppContext, userId: number, phone: string): Promise<void> {
  await consumeAttempt(ctx, [{ key: `mfa-sms:send:${userId}`, limit: SEND_LIMIT }]);
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  const stored = await mfaSmsRepository.storeCode(ctx.db, userId, hashToken(code), new Date(Date.now() + SMS_CODE_TTL_MS), SEND_SPACING_MS);
  if (!stored) throw new RateLimitedError(Math.ceil(SEND_SPACING_MS / 1000));
  await ctx.carrier.sendMessage({
    from: ctx.config.mfaSmsFrom, // MFA_SMS_FROM (platform/config.ts)
    to: phone,
    body: `Your Switchboard sign-in code is ${code}. It expires in 10 minutes. Never share it.`,
    mediaUrls: [],
    statusCallback: ctx.carrier.webhookUrl('messaging.status', { purpose: 'mfa' }),
  });
}

/**
 * `POST /api/user/mfa/sms {phone}`: enrols (or replaces) the phone and texts a code to confirm it.
 * @throws ValidationError (422, `phone`) for a number that does not parse (spec 000 §5 phone parsing).
 */
export async function startSmsEnrolment(ctx: AppContext, userId: number, input: string): Promise<SmsMfaStatus> {
  const phone = parsePhone(input);
  if (!phone) throw fieldError('phone', 'The phone must be a valid phone number.');
  await mfaSmsRepository.startEnrolment(ctx.db, userId, phone);
  await textCode(ctx, userId, phone);
  return smsMfaStatus(ctx, userId);
}

/**
 * `POST /api/user/mfa/reactivate`: turns a disabled SMS factor back on for the phone on file (a code to confirm).
 * @throws ConflictError (409) without a phone on file or when already on.
 */
export async function reactivateSms(ctx: AppContext, userId: number): Promise<SmsMfaStatus> {
  const row = await mfaSmsRepository.find(ctx.db, userId);
  if (!row) throw new ConflictError('There is no phone on file for SMS codes.');
  if (row.enabled) throw new ConflictError('SMS codes are already on.');
  await textCode(ctx, userId, row.phone);
  return smsMfaStatus(ctx, userId);
}

/**
 * `POST /api/user/mfa/sms/verify {code}`: confirms the texted code and turns SMS codes on.
 * @throws ValidationError (422, `code`) when wrong, used or expired.
 */
export async function confirmSmsEnrolment(ctx: AppContext, userId: number, code: string): Promise<SmsMfaStatus> {
  await consumeAttempt(ctx, [{ key: throttleKeys.mfa(userId), limit: LIMITS.mfa }]);
  if (!(await mfaSmsRepository.claimCode(ctx.db, userId, hashToken(code), true))) throw fieldError('code', 'The code is invalid or has expired.');
  return smsMfaStatus(ctx, userId);
}

/**
 * `POST /api/sanctum/mfa/sendCode`: texts a sign-in code to a user whose SMS factor is on.
 * @throws ConflictError (409) when SMS codes are off for the user; RateLimitedError (429).
 */
export async function sendSignInCode(ctx: AppContext, userId: number): Promise<void> {
  const row = await mfaSmsRepository.find(ctx.db, userId);
  if (!row?.enabled) throw new ConflictError('SMS codes are not set up for this account. Use your authenticator app.');
  await textCode(ctx, userId, row.phone);
}

/** Whether `code` is the user's pending texted code (SMS factor on, unexpired); claims it (single use). No throttle: callers count. */
export async function smsCodeAccept(ctx: AppContext, userId: number, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code) || !(await smsMfaEnabled(ctx, userId))) return false;
  return mfaSmsRepository.claimCode(ctx.db, userId, hashToken(code), false);
}

/**
 * `DELETE /api/user/mfa/sms {password}`: turns SMS codes off (the phone stays on file for `reactivate`).
 * @throws ValidationError (422, `password`) when wrong.
 */
export async function disableSms(ctx: AppContext, userId: number, password: string): Promise<SmsMfaStatus> {
  const user = await findUser(ctx, userId);
  if (!(await verifyPassword(user, password))) throw fieldError('password', 'The password is incorrect.');
  const row = await mfaSmsRepository.find(ctx.db, userId);
  if (row) await mfaSmsRepository.startEnrolment(ctx.db, userId, row.phone);
  return smsMfaStatus(ctx, userId);
}
