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
import type { AppContext } from '../../context.js';
import type { AuthContext } from '../../platform/auth/auth.plugin.js';
import { sessionsRepository } from '../../platform/auth/sessions.repository.js';
import { ForbiddenError, NotFoundError } from '../../platform/http/errors.js';
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
