/**
 * People who sign in: creation (argon2id password hashes), lookup, the current-user view
 * (foundation §3 "Current user") and the user's own settings (What's New stamp, TOTP secret).
 */
import argon2 from 'argon2';
import { resolveTimeZone } from '@switchboard/domain';
import type { CurrentUser } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { UnauthenticatedError } from '../../platform/http/errors.js';
import { listUserCompanies, userHasBusinessUnits } from '../companies/companies.service.js';
import { usersRepository, type InAppCallingProfileRow, type UserRow } from './users.repository.js';

export type { UserRow };
/**
 * A user's in-app calling fields: `{ id, first_name, last_name, email, in_app_calling_status
 * ('active' | 'away' as stored), sip_address, sip_user, sip_password }` (null when not provisioned).
 */
export type InAppCallingProfile = InAppCallingProfileRow;

/** Zone answered when the stored one is not a known IANA zone (foundation §3). */
export const DEFAULT_USER_TIME_ZONE = 'America/New_York';

/** argon2id with the library's default cost (memory 64 MiB, 3 passes). */
export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

let dummyHash: Promise<string> | undefined;
/**
 * Checks a password against a stored hash. With no user, verifies against a dummy hash so an
 * unknown e-mail costs the same time as a wrong password (no account enumeration by timing).
 */
export async function verifyPassword(user: Pick<UserRow, 'password_hash'> | undefined, password: string): Promise<boolean> {
  if (!user) {
    dummyHash ??= hashPassword('dummy-password-for-timing');
    await argon2.verify(await dummyHash, password);
    return false;
  }
  try {
    return await argon2.verify(user.password_hash, password);
  } catch (e) {
    // A stored hash that is not a readable argon2 PHC string (TypeError) or has out-of-range
    // parameters (RangeError) matches no password; anything else is a real failure.
    if (e instanceof TypeError || e instanceof RangeError) return false;
    throw e;
  }
}

/** Normalized form of an e-mail address as stored (trimmed, lower case). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates a user with an argon2id hash of `password` (in `tx` when given).
 * Unknown time zones are stored as America/New_York.
 * @returns the new user's id.
 * @throws the database's unique violation (code 23505) when the e-mail is taken.
 */
export async function createUser(
  ctx: AppContext,
  input: { email: string; password: string; firstName: string; lastName: string; timezone?: string },
  tx?: DbOrTx,
): Promise<number> {
  const hash = await hashPassword(input.password);
  return usersRepository.insert(tx ?? ctx.db, {
    email: normalizeEmail(input.email),
    first_name: input.firstName.trim(),
    last_name: input.lastName.trim(),
    password_hash: hash,
    timezone: resolveTimeZone(input.timezone, DEFAULT_USER_TIME_ZONE),
  });
}

/** The user with this e-mail (case-insensitive), if any. */
export async function findUserByEmail(ctx: AppContext, email: string, db: DbOrTx = ctx.db): Promise<UserRow | undefined> {
  return usersRepository.findByEmail(db, email);
}

/** The user row by id, if any. */
export async function findUser(ctx: AppContext, userId: number, db: DbOrTx = ctx.db): Promise<UserRow | undefined> {
  return usersRepository.find(db, userId);
}

/**
 * The current-user view (`GET /api/user`): SIP keys only when set; `timezone` falls back to
 * America/New_York when the stored name is unknown; `companies` lists active memberships; `isAdmin` is the
 * Session's flag (spec 000 §3): pass `isAdmin: true` for an admin session (docs/auth.md "Admin mode").
 * @throws UnauthenticatedError (401) when the user no longer exists.
 */
export async function getCurrentUser(ctx: AppContext, userId: number, opts: { isAdmin?: boolean } = {}): Promise<CurrentUser> {
  const u = await usersRepository.find(ctx.db, userId);
  if (!u) throw new UnauthenticatedError();
  const [companies, hasBusinessUnits] = await Promise.all([listUserCompanies(ctx, userId), userHasBusinessUnits(ctx, userId)]);
  const out: CurrentUser = {
    id: u.id,
    email: u.email,
    name: `${u.first_name} ${u.last_name}`.trim(),
    first_name: u.first_name,
    last_name: u.last_name,
    timezone: resolveTimeZone(u.timezone, DEFAULT_USER_TIME_ZONE),
    support_pins: u.support_pins,
    read_whats_new_at: u.read_whats_new_at ? u.read_whats_new_at.toISOString() : null,
    hasBusinessUnits,
    in_app_calling_status: u.in_app_calling_status === 'active' ? 'active' : 'away',
    companies: companies.map((c) => ({ id: c.id, name: c.name, role: c.role as CurrentUser['companies'][number]['role'] })),
    isAdmin: opts.isAdmin === true,
  };
  if (u.sip_address) out.sip_address = u.sip_address;
  if (u.sip_user) out.sip_user = u.sip_user;
  if (u.sip_password) out.sip_password = u.sip_password;
  return out;
}

/** Stamps What's New as read now (foundation §4) and returns the current user (`isAdmin` as the session's). */
export async function markWhatsNewRead(ctx: AppContext, userId: number, opts: { isAdmin?: boolean } = {}): Promise<CurrentUser> {
  await usersRepository.setWhatsNewRead(ctx.db, userId, new Date());
  return getCurrentUser(ctx, userId, opts);
}

/** Replaces the password hash (argon2id) of a user, in `tx` when given. */
export async function setPassword(ctx: AppContext, userId: number, password: string, tx?: DbOrTx): Promise<void> {
  await usersRepository.setPasswordHash(tx ?? ctx.db, userId, await hashPassword(password));
}

/** Stores the TOTP secret and whether it is active (pending enrolment: secret set, enabled false). */
export async function setTotp(ctx: AppContext, userId: number, secret: string | null, enabled: boolean): Promise<void> {
  await usersRepository.setTotp(ctx.db, userId, secret, enabled);
}

/*
 * In-app calling fields of `users` (spec 001 in-app calling). The in-app-calling module decides
 * who may change them and when; this module owns the columns. Every function takes `db` so the
 * caller can run it inside its transaction (docs/architecture.md "Transactions never wait on the pool").
 */

/** The user's in-app calling profile, or undefined when the user does not exist. */
export async function getInAppCallingProfile(ctx: AppContext, userId: number, db: DbOrTx = ctx.db): Promise<InAppCallingProfile | undefined> {
  return usersRepository.inAppCallingProfile(db, userId);
}

/** The in-app calling profiles of these users (unknown ids are skipped), by first name, last name, id. */
export async function getInAppCallingProfiles(ctx: AppContext, userIds: readonly number[], db: DbOrTx = ctx.db): Promise<InAppCallingProfile[]> {
  return usersRepository.inAppCallingProfiles(db, userIds);
}

/** Those of `userIds` whose in-app calling status is `active`, ascending. */
export async function filterInAppCallingActive(ctx: AppContext, userIds: readonly number[], db: DbOrTx = ctx.db): Promise<number[]> {
  return usersRepository.activeInAppCallingIds(db, userIds);
}

/** Display names (`first last`, trimmed) of these users by id; unknown ids are absent from the map. */
export async function getUserNames(ctx: AppContext, userIds: readonly number[], db: DbOrTx = ctx.db): Promise<Map<number, string>> {
  const rows = await usersRepository.names(db, [...new Set(userIds)]);
  return new Map(rows.map((r) => [r.id, `${r.first_name} ${r.last_name}`.trim()]));
}

/** Stores the user's in-app calling status (`active` or `away`). */
export async function setInAppCallingStatus(ctx: AppContext, userId: number, status: 'active' | 'away', db: DbOrTx = ctx.db): Promise<void> {
  await usersRepository.setInAppCallingStatus(db, userId, status);
}

/** Stores the user's softphone (SIP) address, user name and password. */
export async function setSipCredentials(
  ctx: AppContext,
  userId: number,
  sip: { sip_address: string; sip_user: string; sip_password: string },
  db: DbOrTx = ctx.db,
): Promise<void> {
  await usersRepository.setSip(db, userId, sip);
}
