/**
 * Admin mode (spec 000 §1 "a privileged operator", §3 Session `isAdmin`, §4 "Admin login", §7
 * `GET /sanctum/remoteLogin/{x}`; docs/auth.md "Admin mode"). An operator (`users.is_operator`, set by the
 * `operator` command-line task, never by the API) opens an account: the session then acts as the account's
 * owner (else its first administrator, else its first active member), is limited to that one company, ends
 * ADMIN_SESSION_TTL_MS (1 h) after it starts without sliding, and carries the operator's id on
 * `request.auth.operatorUserId`, so the audit log records every action under the operator (docs/audit.md).
 */
import type { AdminSession } from '@switchboard/contracts';
import type { Role } from '@switchboard/domain';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { AuthContext } from '../../platform/auth/auth.plugin.js';
import { sessionsRepository } from '../../platform/auth/sessions.repository.js';
import { ForbiddenError, NotFoundError } from '../../platform/http/errors.js';
import { hasAuditEntry, recordAudit } from '../audit/audit.service.js';
import { getCompanyMessagingSettings, listActiveMembers } from '../companies/companies.service.js';
import { findUser } from '../users/users.service.js';
import { isOperator } from './operators.js';

/** Which member an operator acts as, by role preference (lower first). */
const ACT_AS_ORDER: Role[] = ['owner', 'administrator', 'billing', 'reporting', 'user'];

/**
 * Who the operator acts as in `companyId`: the owner, else an administrator, … (lowest user id within a role).
 * @throws ForbiddenError (403) when `operatorUserId` is not an operator; NotFoundError (404) for an unknown company
 * or one without an active member.
 */
export async function remoteLoginTarget(ctx: AppContext, operatorUserId: number, companyId: number): Promise<{ userId: number; companyName: string }> {
  if (!(await isOperator(ctx, operatorUserId))) throw new ForbiddenError();
  const company = await getCompanyMessagingSettings(ctx, companyId);
  const members = await listActiveMembers(ctx, companyId);
  const rank = (r: Role) => {
    const i = ACT_AS_ORDER.indexOf(r);
    return i < 0 ? ACT_AS_ORDER.length : i;
  };
  const target = [...members].sort((a, b) => rank(a.role) - rank(b.role) || a.userId - b.userId)[0];
  if (!target) throw new NotFoundError('Active member of this account');
  return { userId: target.userId, companyName: company.name };
}

/** The admin facts of the caller's session (`isAdmin` false outside admin mode). Times are UTC ISO 8601. */
export async function adminSessionOf(ctx: AppContext, auth: AuthContext): Promise<AdminSession> {
  const admin = auth.operatorUserId !== undefined && auth.sessionId ? await sessionsRepository.findAdmin(ctx.db, auth.sessionId) : undefined;
  if (!admin) {
    const canOpen = auth.operatorUserId === undefined && (await isOperator(ctx, auth.userId));
    return { isAdmin: false, operator: null, company: null, started_at: null, expires_at: null, can_open_accounts: canOpen };
  }
  const operator = await findUser(ctx, admin.operator_user_id);
  const company = await getCompanyMessagingSettings(ctx, admin.company_id);
  return {
    isAdmin: true,
    operator: operator
      ? { id: operator.id, name: `${operator.first_name} ${operator.last_name}`.trim() || operator.email, email: operator.email }
      : { id: admin.operator_user_id, name: 'Operator', email: '' },
    company: { id: admin.company_id, name: company.name },
    started_at: admin.started_at.toISOString(),
    expires_at: admin.expires_at.toISOString(),
    can_open_accounts: false,
  };
}

/**
 * The role an admin session carries in a company, for the access check (`roleOverride`): none of its own in the
 * company it was opened in (the acted-as member's role applies), `deactivated` (nothing allowed) in any other.
 */
export function adminRoleOverride(auth: AuthContext | null, companyId: number | null): Role | null | undefined {
  if (!auth || auth.adminCompanyId === undefined || companyId === null) return undefined;
  return companyId === auth.adminCompanyId ? null : 'deactivated';
}

// ---------------------------------------------------------------- the audit of admin sessions (docs/audit.md "Admin mode")

/** The queue job that records an admin session's end when its hour runs out (`startAfter` = its end). */
export const ADMIN_SESSION_END_JOB = 'auth.admin-session-end';
/** The audit entity of admin sessions; actions `remote-login` (the start) and `end`. */
export const ADMIN_SESSION_ENTITY = 'admin-session';
/** Why an admin session ended (`changes.reason` of its `end` entry). */
export type AdminSessionEndReason = 'left' | 'signed-out' | 'signed-in-again' | 'expired';

/**
 * A short reference to an admin session for the audit log (`entity_id`): the first 16 hex characters of the
 * session id, itself the SHA-256 of the cookie's random token, so it names the session without helping anyone
 * forge it. The start and the end of one session carry the same reference.
 */
export function adminSessionRef(sessionId: string): string {
  return sessionId.slice(0, 16);
}

/** Data of {@link ADMIN_SESSION_END_JOB}. `expiresAt` is UTC ISO 8601. */
export type AdminSessionEndJob = { sessionId: string; companyId: number; operatorUserId: number; actingAsUserId: number; expiresAt: string };

/**
 * Records `GET /sanctum/remoteLogin/{x}` in the audit log (the hook records only state-changing requests): actor
 * kind `operator` (`operator_user_id` the operator, `actor_user_id` the person acted as), entity `admin-session`
 * (`entity_id` {@link adminSessionRef}), action `remote-login`, the account as `company_id`, `changes`
 * `{acting_as_user_id, expires_at}`, the caller's address and user agent; and queues the job that records the
 * session's end when its hour is over, if nothing ended it before. Throws when the entry cannot be written (the
 * caller then refuses the admin session: opening an account unrecorded is not allowed).
 */
export async function auditRemoteLogin(
  ctx: AppContext,
  request: FastifyRequest,
  s: { sessionId: string; companyId: number; operatorUserId: number; actingAsUserId: number; expiresAt: Date },
): Promise<void> {
  await recordAudit(ctx, {
    company_id: s.companyId,
    actor_kind: 'operator',
    actor_user_id: s.actingAsUserId,
    actor_name: null,
    api_key_id: null,
    operator_user_id: s.operatorUserId,
    action: 'remote-login',
    entity_type: ADMIN_SESSION_ENTITY,
    entity_id: adminSessionRef(s.sessionId),
    method: request.method,
    path: request.url.split('?')[0] ?? request.url,
    status_code: 200,
    outcome: 'success',
    changes: { acting_as_user_id: s.actingAsUserId, expires_at: s.expiresAt.toISOString() },
    ip: request.ip,
    user_agent: request.headers['user-agent'] ?? null,
  });
  const job: AdminSessionEndJob = { ...s, expiresAt: s.expiresAt.toISOString() };
  await ctx.queue.enqueue(ADMIN_SESSION_END_JOB, job, { startAfter: s.expiresAt, retryLimit: 5, retryDelay: 60 });
}

/**
 * Records the end of the caller's admin session (leave, sign-out, a new sign-in in the same browser) when the
 * request's session is one; nothing otherwise. Call it before the session is deleted. Never throws: a failed
 * write is logged (the person's sign-out must not fail for it).
 */
export async function auditAdminSessionEnd(ctx: AppContext, request: FastifyRequest, reason: Exclude<AdminSessionEndReason, 'expired'>): Promise<void> {
  const auth = request.auth;
  if (!auth?.sessionId || auth.operatorUserId === undefined || auth.adminCompanyId === undefined) return;
  try {
    await recordAudit(ctx, {
      company_id: auth.adminCompanyId,
      actor_kind: 'operator',
      actor_user_id: auth.userId,
      actor_name: null,
      api_key_id: null,
      operator_user_id: auth.operatorUserId,
      action: 'end',
      entity_type: ADMIN_SESSION_ENTITY,
      entity_id: adminSessionRef(auth.sessionId),
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
      status_code: null,
      outcome: 'success',
      changes: { reason },
      ip: request.ip,
      user_agent: request.headers['user-agent'] ?? null,
    });
  } catch (error) {
    request.log.error({ err: error }, 'audit entry of an admin session end not written');
  }
}

/**
 * {@link ADMIN_SESSION_END_JOB}: at the session's end, records `end` with reason `expired` (actor kind `system`,
 * the operator as `operator_user_id`) unless an `end` entry of that session exists (it was left or signed out
 * before), and deletes the expired session row. Idempotent (a retry finds the entry).
 */
export async function recordAdminSessionExpiry(ctx: AppContext, job: AdminSessionEndJob): Promise<void> {
  const ref = adminSessionRef(job.sessionId);
  if (!(await hasAuditEntry(ctx, job.companyId, ADMIN_SESSION_ENTITY, ref, 'end'))) {
    await recordAudit(ctx, {
      company_id: job.companyId,
      actor_kind: 'system',
      actor_user_id: job.actingAsUserId,
      actor_name: 'Admin session timer',
      api_key_id: null,
      operator_user_id: job.operatorUserId,
      action: 'end',
      entity_type: ADMIN_SESSION_ENTITY,
      entity_id: ref,
      method: null,
      path: null,
      status_code: null,
      outcome: 'success',
      changes: { reason: 'expired' satisfies AdminSessionEndReason, expires_at: job.expiresAt },
      ip: null,
      user_agent: null,
    });
  }
  if (Date.parse(job.expiresAt) <= Date.now()) await sessionsRepository.delete(ctx.db, job.sessionId);
}
