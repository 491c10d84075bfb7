/**
 * Sign-in use cases (foundation §3 "Session", §4 "Session", §7 "Session and account calls"):
 * password sign-in with throttling and the deactivated-account rule, the TOTP second step and
 * enrolment, bearer tokens for mobile, password reset by e-mailed single-use link, and signup.
 * Sessions and cookies are set by the routes (platform/auth); this module decides who may sign in.
 */
import crypto from 'node:crypto';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import QRCode from 'qrcode';
import { isValidTimeZone } from '@switchboard/domain';
import type { MfaQr, SignupBody, TokenResponse } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { sessionsRepository } from '../../platform/auth/sessions.repository.js';
import { hashToken, randomToken, safeEqual } from '../../platform/auth/tokens.js';
import { ConflictError, fieldError, ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import { createCompany, isDeactivatedEverywhere } from '../companies/companies.service.js';
import { createUser, findUser, findUserByEmail, setPassword, setTotp, verifyPassword, type UserRow } from '../users/users.service.js';
import { authRepository } from './auth.repository.js';
import { smsCodeAccept, smsMfaEnabled } from './mfa-sms.service.js';
import { clearThrottle, consumeAttempt, LIMITS, refundAttempt, throttleKeys } from './throttle.js';

/** Field message for wrong credentials (Laravel's `auth.failed`). */
export const MSG_BAD_CREDENTIALS = 'These credentials do not match our records.';
export const MSG_DEACTIVATED = 'This account has been deactivated.';
export const MSG_BAD_CODE = 'The provided two factor authentication code was invalid.';
export const MSG_RESET_SENT = 'We have e-mailed your password reset link.';
/** Foundation §8 "Reset link expired". */
export const MSG_RESET_EXPIRED = 'Your reset link has expired. Please try to resend it again.';
/** Foundation §8 success message. */
export const MSG_PASSWORD_CHANGED = 'Password changed successfully. You can now login with new password.';
export const MSG_EMAIL_TAKEN = 'The email has already been taken.';

/** Reset links live this long (ms). */
export const RESET_TTL_MS = 60 * 60 * 1000;
/** Bearer tokens live this long (ms); answered as `expires_in` seconds. */
export const TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
/** The mobile MFA step's `mfa_token` lives this long (ms). */
export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;
/** TOTP tolerance: one 30-second step either side. */
const TOTP_TOLERANCE_S = 30;
const ISSUER = 'Switchboard';
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// ---------------------------------------------------------------- password sign-in

/** Outcome of the password step: fully signed in, or a TOTP code is still needed. */
export type PasswordOutcome = { userId: number; mfaRequired: boolean; user: UserRow };

/**
 * Checks e-mail and password under the throttle (5 attempts per account and 20 failures per
 * address per 15 minutes, counted before the password is checked: ./throttle.ts); success clears
 * the account counter and gives the address its attempt back.
 * @throws RateLimitedError (429 + Retry-After) once the limit is reached, whatever the password;
 *   ValidationError (422, `email`) on wrong credentials or when every membership is deactivated.
 */
export async function checkCredentials(ctx: AppContext, email: string, password: string, ip: string): Promise<PasswordOutcome> {
  const accountKey = throttleKeys.account(email);
  const ipKey = { key: throttleKeys.ip(ip), limit: LIMITS.ip };
  await consumeAttempt(ctx, [{ key: accountKey, limit: LIMITS.account }, ipKey]);
  const user = await findUserByEmail(ctx, email);
  const ok = await verifyPassword(user, password);
  if (!user || !ok) throw fieldError('email', MSG_BAD_CREDENTIALS);
  await clearThrottle(ctx, accountKey);
  await refundAttempt(ctx, ipKey);
  if (await isDeactivatedEverywhere(ctx, user.id)) throw fieldError('email', MSG_DEACTIVATED);
  // A second step with either factor: TOTP, or a texted code (docs/auth.md "MFA by SMS").
  const mfaRequired = (user.totp_enabled && Boolean(user.totp_secret)) || (await smsMfaEnabled(ctx, user.id));
  return { userId: user.id, mfaRequired, user };
}

// ---------------------------------------------------------------- TOTP

/**
 * Whether `code` is the TOTP code of `secret` (±1 step) that `userId` has not used yet: a match
 * claims its RFC 6238 time step atomically (`auth_totp_steps`), so the same code (or an earlier
 * one) is refused afterwards, also when sent twice at once (docs/auth.md "One use per TOTP code").
 */
async function totpAcceptOnce(ctx: AppContext, userId: number, secret: string, code: string): Promise<boolean> {
  // otplib throws on a token that is not 6 digits: such a code is simply wrong. The secret is ours
  // (generated at enrolment), so any error from the check itself is a real failure.
  if (!/^\d{6}$/.test(code)) return false;
  const r = await verifyTotp({ secret, token: code, epochTolerance: TOTP_TOLERANCE_S });
  if (!r.valid || !('timeStep' in r)) return false;
  return authRepository.claimTotpStep(ctx.db, userId, r.timeStep);
}

/** The MFA throttle keys of a code attempt: 5 per user and 20 failures per address per 15 minutes. */
function codeKeys(userId: number, ip: string) {
  return { mfa: { key: throttleKeys.mfa(userId), limit: LIMITS.mfa }, ip: { key: throttleKeys.ip(ip), limit: LIMITS.ip } };
}

/**
 * The second step: checks `code` against the user's active TOTP secret (±1 step, each code once) or the pending texted code (mfa-sms.service)
 * under the throttle (5 code attempts per user, 20 failures per address, per 15 minutes).
 * @throws RateLimitedError (429) once the limit is reached; ValidationError (422, `code`) when wrong or already used.
 */
export async function verifySignInCode(ctx: AppContext, userId: number, code: string, ip: string): Promise<void> {
  const keys = codeKeys(userId, ip);
  await consumeAttempt(ctx, [keys.mfa, keys.ip]);
  const user = await findUser(ctx, userId);
  const ok =
    Boolean(user?.totp_enabled && user.totp_secret && (await totpAcceptOnce(ctx, userId, user.totp_secret, code))) || (await smsCodeAccept(ctx, userId, code));
  if (!ok) throw fieldError('code', MSG_BAD_CODE);
  await clearThrottle(ctx, keys.mfa.key);
  await refundAttempt(ctx, keys.ip);
}

/** `GET /api/user/mfa`: whether TOTP is active for the user. */
export async function mfaStatus(ctx: AppContext, userId: number): Promise<{ enabled: boolean }> {
  const u = await findUser(ctx, userId);
  return { enabled: Boolean(u?.totp_enabled) };
}

/**
 * `GET /api/user/mfa/qr`: generates and stores a new pending secret (replacing any earlier
 * pending one) and answers it with its otpauth URL and a PNG QR code as a data URL.
 * @throws ConflictError (409) when TOTP is already enabled (disable it first).
 */
export async function startMfaEnrolment(ctx: AppContext, userId: number): Promise<MfaQr> {
  const u = await findUser(ctx, userId);
  if (!u) throw new ConflictError('Unknown user.');
  if (u.totp_enabled) throw new ConflictError('Two-factor authentication is already enabled.');
  const secret = generateSecret();
  await setTotp(ctx, userId, secret, false);
  const otpauth = generateURI({ issuer: ISSUER, label: u.email, secret });
  const qr = await QRCode.toDataURL(otpauth, { type: 'image/png', margin: 1, width: 240 });
  return { secret, otpauth_url: otpauth, qr };
}

/**
 * `POST /api/user/mfa/verify`: enables TOTP when `code` matches the pending secret.
 * @throws ValidationError (422, `code`) when there is no pending secret or the code is wrong; 429 when throttled.
 */
export async function confirmMfaEnrolment(ctx: AppContext, userId: number, code: string, ip: string): Promise<{ enabled: boolean }> {
  const keys = codeKeys(userId, ip);
  await consumeAttempt(ctx, [keys.mfa, keys.ip]);
  const u = await findUser(ctx, userId);
  if (u?.totp_enabled) return { enabled: true };
  if (!u?.totp_secret || !(await totpAcceptOnce(ctx, userId, u.totp_secret, code))) throw fieldError('code', MSG_BAD_CODE);
  await clearThrottle(ctx, keys.mfa.key);
  await refundAttempt(ctx, keys.ip);
  await setTotp(ctx, userId, u.totp_secret, true);
  return { enabled: true };
}

/**
 * `DELETE /api/user/mfa`: disables TOTP after proving presence with a current code or the password.
 * @throws ValidationError (422 on `code` or `password`); 429 when throttled.
 */
export async function disableMfa(ctx: AppContext, userId: number, proof: { code?: string; password?: string }, ip: string): Promise<{ enabled: boolean }> {
  const keys = codeKeys(userId, ip);
  await consumeAttempt(ctx, [keys.mfa, keys.ip]);
  const u = await findUser(ctx, userId);
  if (!u) throw fieldError('password', MSG_BAD_CREDENTIALS);
  if (!u.totp_enabled) {
    await setTotp(ctx, userId, null, false);
    return { enabled: false };
  }
  if (!proof.code && !proof.password) throw new ValidationError({ code: ['Enter a code from your authenticator app or your password.'] });
  const ok = proof.code ? await totpAcceptOnce(ctx, userId, u.totp_secret ?? '', proof.code) : await verifyPassword(u, proof.password ?? '');
  if (!ok) throw proof.code ? fieldError('code', MSG_BAD_CODE) : fieldError('password', 'The provided password is incorrect.');
  await clearThrottle(ctx, keys.mfa.key);
  await refundAttempt(ctx, keys.ip);
  await setTotp(ctx, userId, null, false);
  return { enabled: false };
}

// ---------------------------------------------------------------- bearer tokens (mobile)

/** Issues a bearer token (stored hashed, 30 days). */
export async function issueToken(ctx: AppContext, userId: number, deviceName: string | undefined): Promise<TokenResponse> {
  const token = randomToken(40);
  await sessionsRepository.createToken(ctx.db, {
    user_id: userId,
    name: (deviceName?.trim() || 'mobile').slice(0, 255),
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + TOKEN_TTL_MS),
  });
  return { access_token: token, token_type: 'Bearer', expires_in: Math.round(TOKEN_TTL_MS / 1000), refresh_token: null };
}

function mfaTokenKey(u: UserRow): string {
  return `${u.password_hash}|${u.totp_secret ?? ''}`;
}

/**
 * A short-lived (5 minutes) signed ticket proving the password step for the mobile MFA step:
 * `base64url(JSON{u,e,d}).hmac`, keyed by the user's password hash and TOTP secret, so it dies
 * when either changes. Nothing is stored.
 */
function makeMfaToken(u: UserRow, deviceName: string | undefined): string {
  const payload = Buffer.from(JSON.stringify({ u: u.id, e: Date.now() + MFA_TOKEN_TTL_MS, d: deviceName ?? null })).toString('base64url');
  const mac = crypto.createHmac('sha256', mfaTokenKey(u)).update(payload).digest('base64url');
  return `${payload}.${mac}`;
}

async function readMfaToken(ctx: AppContext, token: string): Promise<{ user: UserRow; deviceName: string | undefined } | null> {
  const [payload, mac] = token.split('.');
  if (!payload || !mac) return null;
  let data: { u?: unknown; e?: unknown; d?: unknown };
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch (e) {
    if (e instanceof SyntaxError) return null; // not a ticket we issued
    throw e;
  }
  if (typeof data.u !== 'number' || typeof data.e !== 'number' || data.e < Date.now()) return null;
  const user = await findUser(ctx, data.u);
  if (!user) return null;
  const expected = crypto.createHmac('sha256', mfaTokenKey(user)).update(payload).digest('base64url');
  if (!safeEqual(expected, mac)) return null;
  return { user, deviceName: typeof data.d === 'string' ? data.d : undefined };
}

/**
 * `POST /api/sanctum/createTokenSession`: password step for a bearer token (same throttle as login).
 * @returns the token, or `{ mfa_required, mfa_token }` when TOTP is enabled.
 */
export async function createTokenSession(
  ctx: AppContext,
  body: { email: string; password: string; device_name?: string },
  ip: string,
): Promise<TokenResponse | { mfa_required: true; mfa_token: string }> {
  const outcome = await checkCredentials(ctx, body.email, body.password, ip);
  if (outcome.mfaRequired) return { mfa_required: true, mfa_token: makeMfaToken(outcome.user, body.device_name) };
  return issueToken(ctx, outcome.userId, body.device_name);
}

/**
 * The mobile sign-in's answer once `user` is known by another first step (OIDC's token call): a bearer token, or
 * `{ mfa_required, mfa_token }` for `POST /sanctum/mfaToken` when a second step is on (`mfaRequired`, the caller's rule).
 */
export async function tokenOrMfaStep(
  ctx: AppContext,
  user: UserRow,
  mfaRequired: boolean,
  deviceName: string | undefined,
): Promise<TokenResponse | { mfa_required: true; mfa_token: string }> {
  if (mfaRequired) return { mfa_required: true, mfa_token: makeMfaToken(user, deviceName) };
  return issueToken(ctx, user.id, deviceName);
}

/**
 * `POST /api/sanctum/mfaToken`: the mobile second step.
 * @throws ValidationError (422, `mfa_token`) when the ticket is invalid or expired; 422 on `code` when wrong; 429 when throttled.
 */
export async function completeTokenMfa(ctx: AppContext, body: { mfa_token: string; code: string }, ip: string): Promise<TokenResponse> {
  const t = await readMfaToken(ctx, body.mfa_token);
  if (!t) throw fieldError('mfa_token', 'The sign-in has expired. Please sign in again.');
  await verifySignInCode(ctx, t.user.id, body.code, ip);
  return issueToken(ctx, t.user.id, t.deviceName);
}

/**
 * Ends one browser session by id (rotation at sign-in, MFA and signup: the request's current
 * session ends before a new one starts) and disconnects its live connections.
 */
export async function endSessionById(ctx: AppContext, sessionId: string): Promise<void> {
  await sessionsRepository.delete(ctx.db, sessionId);
  ctx.realtime.revoke({ sessionId });
}

/** `POST /api/sanctum/clearTokenSessions`: deletes every bearer token of the user and disconnects the live connections signed in with them. */
export async function clearTokenSessions(ctx: AppContext, userId: number): Promise<void> {
  await sessionsRepository.deleteTokensForUser(ctx.db, userId);
  ctx.realtime.revoke({ tokensOfUser: userId });
}

// ---------------------------------------------------------------- password reset

/**
 * `POST /api/password/forgot`: when the account exists, stores a single-use token (hashed,
 * 60 minutes) and e-mails the link `${publicUrl}/reset-password?token=…&email=…`. Answers the
 * same whether or not the account exists.
 * @throws RateLimitedError (429) after 3 requests per e-mail per 15 minutes.
 */
export async function forgotPassword(ctx: AppContext, email: string): Promise<{ message: string }> {
  await consumeAttempt(ctx, [{ key: throttleKeys.forgot(email), limit: LIMITS.forgot }]);
  const user = await findUserByEmail(ctx, email);
  if (user) {
    const token = randomToken(32);
    const link = `${ctx.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
    await ctx.db.transaction().execute(async (tx) => {
      await authRepository.createReset(tx, { user_id: user.id, token_hash: hashToken(token), expires_at: new Date(Date.now() + RESET_TTL_MS) });
      await ctx.mailer.send(
        {
          to: user.email,
          subject: 'Reset your password',
          text: `Hello ${user.first_name || user.email},\n\nWe received a request to reset the password of your account.\nOpen this link to choose a new password (it expires in 60 minutes and works once):\n\n${link}\n\nIf you did not ask for this, you can ignore this e-mail.`,
          html: `<p>Hello ${escapeHtml(user.first_name || user.email)},</p><p>We received a request to reset the password of your account.</p><p><a href="${escapeHtml(link)}">Choose a new password</a> (the link expires in 60 minutes and works once).</p><p>If you did not ask for this, you can ignore this e-mail.</p>`,
        },
        tx,
      );
    });
  }
  return { message: MSG_RESET_SENT };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Field errors of a new password (min 8 characters; confirmation must match when given). */
export function passwordErrors(password: string | undefined, confirmation?: string | null, checkConfirmation = false): string[] {
  const out: string[] = [];
  if (!password) out.push('The password field is required.');
  else if (password.length < 8) out.push('The password must be at least 8 characters.');
  if (password && checkConfirmation && confirmation !== password) out.push('The password confirmation does not match.');
  return out;
}

/**
 * `POST /api/password/reset`: sets the new password (argon2id) with a valid link, marks the link
 * (and any other outstanding link of the user) used, and ends every session and token of the user
 * (their live connections too).
 * @throws ValidationError (422): password rules on `password`; an unknown, used or expired link on `token`.
 */
export async function resetPassword(
  ctx: AppContext,
  body: { token: string; email: string; password: string; password_confirmation?: string },
): Promise<{ message: string }> {
  const errors = passwordErrors(body.password, body.password_confirmation, true);
  if (errors.length) throw new ValidationError({ password: errors });
  const now = new Date();
  const userId = await ctx.db.transaction().execute(async (tx) => {
    const reset = await authRepository.findUsableReset(tx, hashToken(body.token), now);
    const user = reset ? await findUser(ctx, reset.user_id, tx) : undefined;
    if (!reset || !user || user.email.toLowerCase() !== body.email.trim().toLowerCase()) {
      throw new ValidationError({ token: [MSG_RESET_EXPIRED] }, MSG_RESET_EXPIRED);
    }
    await authRepository.useResetsOfUser(tx, user.id, now);
    await setPassword(ctx, user.id, body.password, tx);
    await sessionsRepository.deleteForUser(tx, user.id);
    await sessionsRepository.deleteTokensForUser(tx, user.id);
    return user.id;
  });
  ctx.realtime.revoke({ user: userId });
  const user = await findUser(ctx, userId);
  if (user) await clearThrottle(ctx, throttleKeys.account(user.email));
  return { message: MSG_PASSWORD_CHANGED };
}

// ---------------------------------------------------------------- signup

type ValidSignup = { first_name: string; last_name: string; email: string; password: string; company_name: string; timezone?: string };

/**
 * Validates signup fields; all problems at once.
 * @throws ValidationError (422) with per-field messages (e-mail taken: "The email has already been taken.").
 */
export async function validateSignup(ctx: AppContext, body: SignupBody): Promise<ValidSignup> {
  const errors: FieldErrors = {};
  const add = (f: string, m: string) => {
    (errors[f] ??= []).push(m);
  };
  const str = (v: string | undefined) => (v ?? '').trim();
  const first = str(body.first_name),
    last = str(body.last_name),
    email = str(body.email).toLowerCase(),
    company = str(body.company_name);
  if (!first) add('first_name', 'The first name field is required.');
  else if (first.length > 255) add('first_name', 'The first name may not be greater than 255 characters.');
  if (!last) add('last_name', 'The last name field is required.');
  else if (last.length > 255) add('last_name', 'The last name may not be greater than 255 characters.');
  if (!email) add('email', 'The email field is required.');
  else if (!EMAIL_RE.test(email) || email.length > 255) add('email', 'The email must be a valid email address.');
  else if (await findUserByEmail(ctx, email)) add('email', MSG_EMAIL_TAKEN);
  for (const m of passwordErrors(body.password)) add('password', m);
  if (!company) add('company_name', 'The company name field is required.');
  else if (company.length > 255) add('company_name', 'The company name may not be greater than 255 characters.');
  const tz = str(body.timezone);
  if (tz && !isValidTimeZone(tz)) add('timezone', 'The timezone must be a valid zone.');
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { first_name: first, last_name: last, email, password: body.password!, company_name: company, timezone: tz || undefined };
}

/**
 * `POST /api/client/signup/create`: creates the user and the company in one transaction; the
 * creator becomes the company's `owner` (foundation §6). The route then signs the user in.
 * @throws ValidationError (422) as validateSignup, including a concurrent duplicate e-mail.
 */
export async function signup(ctx: AppContext, body: SignupBody): Promise<{ userId: number; company: { id: number; name: string } }> {
  const v = await validateSignup(ctx, body);
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const userId = await createUser(ctx, { email: v.email, password: v.password, firstName: v.first_name, lastName: v.last_name, timezone: v.timezone }, tx);
      const companyId = await createCompany(ctx, { name: v.company_name, timezone: v.timezone }, userId, tx);
      return { userId, company: { id: companyId, name: v.company_name } };
    });
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw fieldError('email', MSG_EMAIL_TAKEN);
    throw e;
  }
}
