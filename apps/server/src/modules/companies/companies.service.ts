/**
 * Companies and membership, and the tenant check every company-scoped route uses
 * (foundation §6): a user reaches a company only through an active membership.
 */
import type { AppContext } from '../../context.js';
import { sessionsRepository } from '../../platform/auth/sessions.repository.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { CHANNEL_PATTERN } from '../../platform/realtime.js';
import { ForbiddenError } from '../../platform/http/errors.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { companiesRepository, type MembershipRow } from './companies.repository.js';

export type Role = 'owner' | 'administrator' | 'billing' | 'reporting' | 'user' | 'deactivated';
/** Roles that may change telephony and messaging setup (numbers, routing). */
export const MANAGER_ROLES: Role[] = ['owner', 'administrator'];
/** Roles that may work the inbox and place/answer calls. */
export const AGENT_ROLES: Role[] = ['owner', 'administrator', 'user'];
/** Roles that may read the company's data. */
export const READER_ROLES: Role[] = ['owner', 'administrator', 'billing', 'reporting', 'user'];

/**
 * Asserts the user may act in the company with one of `roles` (default: any active role).
 * @returns the user's role.
 * @throws ForbiddenError (403) when the user has no such membership; the company's data is never revealed.
 */
export async function assertCompanyAccess(ctx: AppContext, userId: number, companyId: number, roles: Role[] = READER_ROLES, db: DbOrTx = ctx.db): Promise<Role> {
  const m = await companiesRepository.membership(db, userId, companyId);
  if (!m || m.role === 'deactivated' || !roles.includes(m.role as Role)) throw new ForbiddenError();
  return m.role as Role;
}

/** The user's companies (active memberships only), by name. */
export async function listUserCompanies(ctx: AppContext, userId: number): Promise<MembershipRow[]> {
  return (await companiesRepository.listForUser(ctx.db, userId)).filter((c) => c.role !== 'deactivated');
}

/** Resolves the user of a Socket.IO handshake from the session cookie or a bearer token. */
export async function resolveSocketUser(ctx: AppContext, sessionToken: string | undefined, bearer: string | undefined): Promise<number | null> {
  if (bearer) {
    const t = await sessionsRepository.findToken(ctx.db, hashToken(bearer));
    if (t) return t.user_id;
  }
  if (sessionToken) {
    const s = await sessionsRepository.find(ctx.db, hashToken(sessionToken));
    if (s && !s.mfa_pending) return s.user_id;
  }
  return null;
}

/** Channel authorization: `user.{id}` only for that user; company channels only for members. */
export async function canJoinChannel(ctx: AppContext, userId: number, channel: string): Promise<boolean> {
  const m = CHANNEL_PATTERN.exec(channel);
  if (!m) return false;
  const id = Number(m[2]);
  if (m[1] === 'user') return id === userId;
  const membership = await companiesRepository.membership(ctx.db, userId, id);
  return Boolean(membership && membership.role !== 'deactivated');
}
