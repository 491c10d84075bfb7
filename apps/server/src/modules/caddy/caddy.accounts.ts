/**
 * Consumer accounts (spec 002 "Consumer area", "Consumer account"; docs/consumer-area.md "Accounts and sessions").
 *
 * Sign-up and sign-in are two steps. The first call (no `code`) sends a 6-digit code — by e-mail through the mail
 * port (`ctx.mailer`), or by SMS through the carrier port (`ctx.carrier`) — and answers 202; the second call (with the
 * code) answers the session `{accountId, token, iapId, plan, subscriptionStatus}`.
 * - Codes: 6 random digits, stored as SHA-256 of `id:code` (never the code), valid CODE_TTL_MS (10 min), at most
 *   CODE_MAX_ATTEMPTS (5) wrong tries each (then the code is dead: ask for a new one), one code per RESEND_SPACING_MS
 *   (30 s) per target, SEND_LIMIT codes per target per hour (429 with Retry-After). A new code replaces the open one.
 * - Sign-up: 409 when an account of that e-mail or phone number exists (spec). E-mail sign-up needs a password (8+);
 *   phone sign-up may set one. The account gets a hidden company (owned by the consumer area's service user) that holds
 *   its numbers and inbox, so calls and texts use the business product's telephony unchanged.
 * - Sign-in: 401 for a provider other than e-mail or phone (no consumer account exists for them, spec), and for an
 *   unknown e-mail or phone (the spec's "no account"); e-mail sign-in checks the password in the first step when the
 *   account has one (401 on a wrong one, counted on the sign-in throttle).
 * - Sessions: a random 32-byte bearer token, stored as its SHA-256 in `caddy_sessions`, 90 days sliding. They are not
 *   business sessions: the business guard never finds them and the consumer guard never accepts a business one.
 */
import crypto from 'node:crypto';
import { CADDY_MESSAGES, CADDY_PLANS, CADDY_SUBSCRIPTION_STATUSES, type CaddyPlan, type CaddySubscriptionStatus } from '@switchboard/contracts';
import { parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { hashToken, randomToken, safeEqual } from '../../platform/auth/tokens.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { AppError, ConflictError, fieldError, RateLimitedError, UnauthenticatedError } from '../../platform/http/errors.js';
import { consumeAttempt, refundAttempt, type ThrottleKey } from '../auth/throttle.js';
import { createCompany } from '../companies/companies.service.js';
import { createUser, findUserByEmail, hashPassword, verifyPassword } from '../users/users.service.js';
import { caddyRepository, type CaddyAccountRow, type CaddyCodeRow } from './caddy.repository.js';

/** How long a code is valid (ms). */
export const CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong tries a code takes before it is dead. */
export const CODE_MAX_ATTEMPTS = 5;
/** The least time between two codes to one target (ms). */
export const RESEND_SPACING_MS = 30 * 1000;
/** Codes per target per hour. */
const SEND_LIMIT = { max: 6, windowMs: 60 * 60 * 1000 };
/** Wrong passwords per account (e-mail) per 15 minutes, and failures per client address. */
const LOGIN_LIMITS = { account: { max: 5, windowMs: 15 * 60 * 1000 }, ip: { max: 30, windowMs: 15 * 60 * 1000 } };
/** A consumer session's sliding lifetime (ms). */
export const SESSION_TTL_MS = 90 * 24 * 3600 * 1000;
/** The service user that owns the consumer accounts' hidden companies (it cannot sign in: its password is random). */
export const SERVICE_USER_EMAIL = 'consumer-area@switchboard.invalid';

/** 202: a code was sent (the first step). */
export class CodeSent {
  constructor(readonly channel: 'email' | 'phone') {}
  get message(): string {
    return this.channel === 'email' ? CADDY_MESSAGES.codeSentEmail : CADDY_MESSAGES.codeSentPhone;
  }
}

/** The session answered by the second step (spec 002 "Consumer account"). */
export type CaddySessionOut = { accountId: number; token: string; iapId: string; plan: CaddyPlan; subscriptionStatus: CaddySubscriptionStatus };

/** What the sign-up and sign-in calls take (contracts CaddyAuthInput). */
export type AuthInput = {
  provider: 'email' | 'phone' | 'apple' | 'google';
  email?: string;
  phoneNumber?: string;
  password?: string;
  name?: string;
  code?: string;
  invitationId?: number;
};

/** The plan of a stored value (unknown values read as `starter`). */
export function planOf(value: string): CaddyPlan {
  return (CADDY_PLANS as readonly string[]).includes(value) ? (value as CaddyPlan) : 'starter';
}
/** The subscription status of a stored value (unknown values read as `not_subscribed`). */
export function statusOf(value: string): CaddySubscriptionStatus {
  return (CADDY_SUBSCRIPTION_STATUSES as readonly string[]).includes(value) ? (value as CaddySubscriptionStatus) : 'not_subscribed';
}

/** The e-mail or E.164 target of a request, by provider. @throws ValidationError (422) when missing or invalid. */
function targetOf(input: AuthInput): { channel: 'email' | 'phone'; target: string } {
  if (input.provider === 'email') {
    if (!input.email) throw fieldError('email', 'The e-mail field is required.');
    return { channel: 'email', target: input.email.trim().toLowerCase() };
  }
  if (!input.phoneNumber) throw fieldError('phoneNumber', 'The phone number field is required.');
  const e164 = parsePhone(input.phoneNumber);
  if (!e164) throw fieldError('phoneNumber', 'The phone number is not a valid phone number.');
  return { channel: 'phone', target: e164 };
}

/** What is stored of a code: a random salt and SHA-256 of salt and code (`salt:hash`). */
function codeHash(code: string, salt = randomToken(12)): string {
  return `${salt}:${hashToken(`${salt}:${code}`)}`;
}
/** Whether `code` is the one `stored` was made of. */
function codeMatches(stored: string, code: string): boolean {
  const salt = stored.split(':')[0] ?? '';
  return safeEqual(stored, codeHash(code, salt));
}

/**
 * Creates and sends a code (`purpose`) to `target` by its channel. Spacing and hourly limit per target.
 * @throws RateLimitedError (429) within RESEND_SPACING_MS of the last code or over SEND_LIMIT per hour.
 */
export async function sendCode(
  ctx: AppContext,
  purpose: CaddyCodeRow['purpose'],
  channel: 'email' | 'phone',
  target: string,
  pending: Record<string, unknown> = {},
): Promise<void> {
  const last = await caddyRepository.lastCodeAt(ctx.db, purpose, target);
  if (last && Date.now() - last.getTime() < RESEND_SPACING_MS) throw new RateLimitedError((RESEND_SPACING_MS - (Date.now() - last.getTime())) / 1000);
  await consumeAttempt(ctx, [{ key: `caddy:code:${target}`, limit: SEND_LIMIT }]);
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  await ctx.db.transaction().execute(async (tx) => {
    await caddyRepository.insertCode(tx, {
      purpose,
      channel,
      target,
      code_hash: codeHash(code),
      pending: JSON.stringify(pending),
      expires_at: new Date(Date.now() + CODE_TTL_MS),
    });
    if (channel === 'email') {
      const what = purpose === 'register' ? 'finish signing up' : purpose === 'login' ? 'sign in' : 'reset your password';
      await ctx.mailer.send(
        {
          to: target,
          subject: `Your code: ${code}`,
          text: `Your Caddy code is ${code}. Enter it in the app to ${what}. It expires in 10 minutes.\n\nIf you did not ask for it, ignore this e-mail.`,
        },
        tx,
      );
    }
  });
  if (channel === 'phone') {
    await ctx.carrier.sendMessage({
      from: ctx.config.mfaSmsFrom,
      to: target,
      body: `Your Caddy code is ${code}. It expires in 10 minutes. Never share it.`,
      mediaUrls: [],
      statusCallback: ctx.carrier.webhookUrl('messaging.status', { purpose: 'caddy' }),
    });
  }
}

/**
 * Checks `code` against the open code of `purpose` and `target` and consumes it on success. A wrong code counts one
 * attempt; the CODE_MAX_ATTEMPTS-th wrong one kills the code.
 * @returns the code's pending data.
 * @throws ValidationError (422 `code`): wrong code (CADDY_MESSAGES.codeInvalid), or none open, expired, dead
 *   (CADDY_MESSAGES.codeExpired).
 */
export async function checkCode(ctx: AppContext, purpose: CaddyCodeRow['purpose'], target: string, code: string): Promise<Record<string, unknown>> {
  const outcome = await ctx.db.transaction().execute(async (tx) => {
    const row = await caddyRepository.lockOpenCode(tx, purpose, target);
    if (!row || row.expires_at.getTime() <= Date.now() || row.attempts >= CODE_MAX_ATTEMPTS) return { ok: false as const, expired: true };
    if (!codeMatches(row.code_hash, code)) {
      await caddyRepository.countAttempt(tx, row.id);
      if (row.attempts + 1 >= CODE_MAX_ATTEMPTS) await caddyRepository.consumeCode(tx, row.id);
      return { ok: false as const, expired: false };
    }
    await caddyRepository.consumeCode(tx, row.id);
    return { ok: true as const, pending: row.pending };
  });
  if (!outcome.ok) throw fieldError('code', outcome.expired ? CADDY_MESSAGES.codeExpired : CADDY_MESSAGES.codeInvalid);
  return outcome.pending;
}

/** The consumer area's service user id (created once; it owns the hidden companies). */
export async function serviceUserId(ctx: AppContext, db: DbOrTx = ctx.db): Promise<number> {
  const found = await findUserByEmail(ctx, SERVICE_USER_EMAIL, db);
  if (found) return found.id;
  try {
    return await createUser(ctx, { email: SERVICE_USER_EMAIL, password: randomToken(32), firstName: 'Consumer', lastName: 'area' }, db);
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
    return (await findUserByEmail(ctx, SERVICE_USER_EMAIL, db))!.id;
  }
}

/** Starts a consumer session for the account. */
async function startSession(ctx: AppContext, account: CaddyAccountRow, db: DbOrTx = ctx.db): Promise<CaddySessionOut> {
  const token = randomToken(32);
  await caddyRepository.insertSession(db, { id: hashToken(token), account_id: account.id, expires_at: new Date(Date.now() + SESSION_TTL_MS) });
  return { accountId: account.id, token, iapId: account.iap_id, plan: planOf(account.plan), subscriptionStatus: statusOf(account.subscription_status) };
}

async function existing(ctx: AppContext, channel: 'email' | 'phone', target: string, db: DbOrTx = ctx.db): Promise<CaddyAccountRow | undefined> {
  return channel === 'email' ? caddyRepository.findByEmail(db, target) : caddyRepository.findByPhone(db, target);
}

/**
 * `POST /caddy/auth/register`: first step (no code) checks and sends a code (202 CodeSent); second step (code) creates
 * the account and its hidden company and answers the session. Marks open invitations of the phone number joined.
 * @throws ConflictError (409) when the account exists; ValidationError (422) on missing fields, a short password, a
 *   wrong or expired code; 401 for a provider other than e-mail or phone; RateLimitedError (429).
 */
export async function register(ctx: AppContext, input: AuthInput): Promise<CodeSent | CaddySessionOut> {
  if (input.provider !== 'email' && input.provider !== 'phone') throw new UnauthenticatedError(CADDY_MESSAGES.noAccount);
  const { channel, target } = targetOf(input);
  if (await existing(ctx, channel, target)) throw new ConflictError(CADDY_MESSAGES.accountExists);
  if (!input.code) {
    const password = input.password ?? '';
    if (channel === 'email' && !password) throw fieldError('password', 'The password field is required.');
    if (password && password.length < 8) throw fieldError('password', 'The password must be at least 8 characters.');
    const pending = { name: input.name?.trim() ?? '', passwordHash: password ? await hashPassword(password) : null };
    await sendCode(ctx, 'register', channel, target, pending);
    return new CodeSent(channel);
  }
  const pending = await checkCode(ctx, 'register', target, input.code);
  const ownerId = await serviceUserId(ctx);
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const companyId = await createCompany(ctx, { name: `Consumer ${target}`.slice(0, 100) }, ownerId, tx);
      const account = await caddyRepository.insertAccount(tx, {
        email: channel === 'email' ? target : null,
        phone: channel === 'phone' ? target : null,
        name: typeof pending.name === 'string' ? pending.name : '',
        password_hash: typeof pending.passwordHash === 'string' ? pending.passwordHash : null,
        company_id: companyId,
      });
      if (channel === 'phone') await caddyRepository.markJoined(tx, target, account.id);
      return startSession(ctx, account, tx);
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new ConflictError(CADDY_MESSAGES.accountExists);
    throw error;
  }
}

/**
 * `POST /caddy/auth/login`: first step (no code) sends a code to an existing account's e-mail or phone (e-mail: after
 * the password, when the account has one); second step answers the session.
 * @throws UnauthenticatedError (401) for another provider or no such account (spec) or a wrong password;
 *   ValidationError (422) on a wrong or expired code; RateLimitedError (429).
 */
export async function login(ctx: AppContext, input: AuthInput, ip: string): Promise<CodeSent | CaddySessionOut> {
  if (input.provider !== 'email' && input.provider !== 'phone') throw new UnauthenticatedError(CADDY_MESSAGES.noAccount);
  const { channel, target } = targetOf(input);
  const account = await existing(ctx, channel, target);
  if (!account) throw new UnauthenticatedError(CADDY_MESSAGES.noAccount);
  if (!input.code) {
    if (channel === 'email' && account.password_hash) {
      const keys: ThrottleKey[] = [
        { key: `caddy:login:${target}`, limit: LOGIN_LIMITS.account },
        { key: `caddy:login-ip:${ip}`, limit: LOGIN_LIMITS.ip },
      ];
      await consumeAttempt(ctx, keys);
      if (!input.password) throw fieldError('password', 'The password field is required.');
      if (!(await verifyPassword({ password_hash: account.password_hash }, input.password))) throw new UnauthenticatedError(CADDY_MESSAGES.wrongPassword);
      await refundAttempt(ctx, keys[1]!);
    }
    await sendCode(ctx, 'login', channel, target);
    return new CodeSent(channel);
  }
  await checkCode(ctx, 'login', target, input.code);
  return startSession(ctx, account);
}

/**
 * `PUT /caddy/auth/password`: sets a new password; the current one is required when one is set. Other sessions end.
 * @throws ValidationError (422 `currentPassword`) when it is missing or wrong.
 */
export async function changePassword(ctx: AppContext, account: CaddyAccountRow, sessionId: string, input: { currentPassword?: string; password: string }) {
  if (account.password_hash) {
    if (!input.currentPassword) throw fieldError('currentPassword', 'The current password field is required.');
    if (!(await verifyPassword({ password_hash: account.password_hash }, input.currentPassword)))
      throw fieldError('currentPassword', 'The current password is incorrect.');
  }
  const hash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (tx) => {
    await caddyRepository.updateAccount(tx, account.id, { password_hash: hash });
    await caddyRepository.deleteSessions(tx, account.id, sessionId);
  });
  return { message: CADDY_MESSAGES.passwordChanged };
}

/** `POST /caddy/auth/logout`: ends the caller's session on the server (the token stops working at once). */
export async function logout(ctx: AppContext, sessionId: string) {
  await caddyRepository.deleteSession(ctx.db, sessionId);
  return { message: CADDY_MESSAGES.signedOut };
}

/**
 * `POST /caddy/auth/password/reset/code` {email}: e-mails a reset code when an account has that e-mail; the answer is
 * the same either way (no account discovery through reset). Limits as every code (429).
 */
export async function sendResetCode(ctx: AppContext, email: string) {
  const target = email.trim().toLowerCase();
  const account = await caddyRepository.findByEmail(ctx.db, target);
  if (account) await sendCode(ctx, 'reset', 'email', target);
  return { message: CADDY_MESSAGES.resetCodeSent };
}

/**
 * `POST /caddy/auth/password/reset` {email, code, password}: sets the password and ends every session.
 * @throws ValidationError (422 `code`) on a wrong, expired or missing code.
 */
export async function resetPassword(ctx: AppContext, input: { email: string; code: string; password: string }) {
  const target = input.email.trim().toLowerCase();
  await checkCode(ctx, 'reset', target, input.code);
  const account = await caddyRepository.findByEmail(ctx.db, target);
  if (!account) throw fieldError('code', CADDY_MESSAGES.codeExpired);
  const hash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (tx) => {
    await caddyRepository.updateAccount(tx, account.id, { password_hash: hash });
    await caddyRepository.deleteSessions(tx, account.id);
  });
  return { message: CADDY_MESSAGES.passwordReset };
}

/**
 * The account of a consumer bearer token (sliding its expiry at most once a minute), or null.
 * Business sessions and API tokens are never found here.
 */
export async function accountOfToken(ctx: AppContext, token: string): Promise<{ account: CaddyAccountRow; sessionId: string } | null> {
  if (!token || token.length > 200) return null;
  const id = hashToken(token);
  const session = await caddyRepository.findSession(ctx.db, id);
  if (!session) return null;
  const account = await caddyRepository.findAccount(ctx.db, session.account_id);
  if (!account) return null;
  if (Date.now() - session.last_used_at.getTime() > 60_000) {
    void caddyRepository
      .touchSession(ctx.db, id, new Date(Date.now() + SESSION_TTL_MS))
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'caddy session touch'));
  }
  return { account, sessionId: id };
}

/** The profile answer of an account. */
export function profileOf(account: CaddyAccountRow, planLabel: string) {
  return {
    accountId: account.id,
    name: account.name,
    email: account.email,
    phoneNumber: account.phone,
    iapId: account.iap_id,
    plan: planOf(account.plan),
    planLabel,
    subscriptionStatus: statusOf(account.subscription_status),
    subscriptionStore: account.subscription_store,
    subscriptionExpiresAt: account.subscription_expires_at?.toISOString() ?? null,
    hasPassword: account.password_hash !== null,
    createdAt: account.created_at.toISOString(),
  };
}

/** 202 answer body of a CodeSent. */
export function codeSentBody(sent: CodeSent) {
  return { message: sent.message, codeSent: true as const, channel: sent.channel };
}

/** Re-exported for the routes: 401 of the consumer guard. */
export class ConsumerUnauthenticatedError extends AppError {
  constructor() {
    super(401, 'Unauthenticated.');
  }
}
