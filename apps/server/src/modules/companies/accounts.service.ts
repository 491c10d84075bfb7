/**
 * Organizations (business units), account status and memberships as data (docs/accounts.md; spec
 * 002 §3 "Organization", "Account status", §4, §6): the companies module's functions for the
 * accounts screens. Who may call them is checked by the callers (the users module's
 * business-units, members and invitations services), which also add names, e-mails and custom
 * fields (modules of a higher level). Every function takes `db` so it can run in the caller's
 * transaction.
 */
import { resolveTimeZone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { companiesRepository, type CompanyRow, type OrganizationRow } from './companies.repository.js';

export type { CompanyRow, OrganizationRow };

/** Account status of a company (spec 002 §3): 0 active, 1 parked, 2 deactivated. */
export type AccountStatusValue = 0 | 1 | 2;
/** Service state of a company for the call and message flows (docs/accounts.md "Account status"). */
export type CompanyServiceState = 'active' | 'parked' | 'deactivated';

const STATE_OF: Record<number, CompanyServiceState> = { 0: 'active', 1: 'parked', 2: 'deactivated' };

/**
 * The company's service state: `active` serves calls and messages; `parked` keeps its numbers but
 * stops service (an inbound call hears a polite message and is ended, no message is sent);
 * `deactivated` also signs nobody in. Undefined for an unknown company. No access check.
 */
export async function companyServiceState(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<CompanyServiceState | undefined> {
  const c = await companiesRepository.find(db, companyId);
  return c ? (STATE_OF[c.account_status] ?? 'active') : undefined;
}

/** The company row (with `account_status`, `company_info`, `billing_info`), or undefined. No access check. */
export async function findCompany(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<CompanyRow | undefined> {
  return companiesRepository.find(db, companyId);
}

/** The organization row, or undefined. */
export async function findOrganization(ctx: AppContext, organizationId: number, db: DbOrTx = ctx.db): Promise<OrganizationRow | undefined> {
  return companiesRepository.findOrganization(db, organizationId);
}

/** Whether the user is an administrator (org-administrator) of the organization. */
export async function isOrganizationAdmin(ctx: AppContext, organizationId: number, userId: number, db: DbOrTx = ctx.db): Promise<boolean> {
  return companiesRepository.isOrganizationAdmin(db, organizationId, userId);
}

/** Organizations the user administers (by name, then id), one page. */
export async function organizationsOfAdmin(
  ctx: AppContext,
  userId: number,
  q: { search?: string; page: number; perPage: number },
): Promise<{ rows: OrganizationRow[]; total: number }> {
  return companiesRepository.organizationsOfAdmin(ctx.db, userId, { search: q.search, limit: q.perPage, offset: (q.page - 1) * q.perPage });
}

/** Number of companies and of administrators of each organization. */
export async function organizationCounts(ctx: AppContext, ids: readonly number[]): Promise<Map<number, { companies: number; admins: number }>> {
  return companiesRepository.organizationCounts(ctx.db, ids);
}

/** Renames the organization (name already trimmed). */
export async function renameOrganization(ctx: AppContext, organizationId: number, name: string, db: DbOrTx = ctx.db): Promise<void> {
  await companiesRepository.renameOrganization(db, organizationId, name);
}

/** Deletes the organization row (its companies keep existing outside any organization; administrators are removed). */
export async function deleteOrganizationRow(ctx: AppContext, organizationId: number, db: DbOrTx = ctx.db): Promise<void> {
  await companiesRepository.deleteOrganization(db, organizationId);
}

/** One page of the organization's companies with their number of members. */
export async function organizationCompanies(
  ctx: AppContext,
  organizationId: number,
  q: { search?: string; status?: number; page: number; perPage: number },
): Promise<{ rows: Array<CompanyRow & { users_count: number }>; total: number }> {
  const r = await companiesRepository.organizationCompanies(ctx.db, organizationId, {
    search: q.search,
    status: q.status,
    limit: q.perPage,
    offset: (q.page - 1) * q.perPage,
  });
  return { rows: r.rows.map((c) => ({ ...c, users_count: Number(c.users_count) })), total: r.total };
}

/** Ids of the organization's companies: all of them, or those of `ids` that belong to it. */
export async function organizationCompanyIds(ctx: AppContext, organizationId: number, ids?: readonly number[], db: DbOrTx = ctx.db): Promise<number[]> {
  return companiesRepository.organizationCompanyIds(db, organizationId, ids);
}

/**
 * Creates a company inside an organization with `company_info` and `billing_info` as given (spec
 * 002 §3 "Company creation"), the creator as `owner` and every administrator of the organization
 * as `administrator` (an org-administrator reaches every company of the business unit).
 * @param input.timezone IANA zone; unknown names are stored as America/New_York.
 * @returns the new company's id.
 */
export async function createOrganizationCompany(
  ctx: AppContext,
  input: { organizationId: number; name: string; timezone?: string; companyInfo: Record<string, unknown>; billingInfo: Record<string, unknown> },
  ownerUserId: number,
  db: DbOrTx,
): Promise<number> {
  const id = await companiesRepository.create(db, {
    name: input.name.trim(),
    organization_id: input.organizationId,
    timezone: resolveTimeZone(input.timezone, 'America/New_York'),
    company_info: input.companyInfo,
    billing_info: input.billingInfo,
  });
  await companiesRepository.addMember(db, id, ownerUserId, 'owner');
  for (const a of await companiesRepository.organizationAdmins(db, input.organizationId)) {
    if (a.user_id !== ownerUserId) await companiesRepository.addMember(db, id, a.user_id, 'administrator');
  }
  return id;
}

/** Sets the account status of these companies. @returns how many changed. */
export async function setAccountStatus(ctx: AppContext, companyIds: readonly number[], status: AccountStatusValue, db: DbOrTx = ctx.db): Promise<number> {
  return companiesRepository.setAccountStatus(db, companyIds, status);
}

/** Bulk update of settings columns of these companies. @returns how many rows were written. */
export async function bulkUpdateCompanySettings(
  ctx: AppContext,
  companyIds: readonly number[],
  patch: { timezone?: string; links_enabled?: boolean; quiet_hours_enabled?: boolean },
  db: DbOrTx = ctx.db,
): Promise<number> {
  return companiesRepository.bulkUpdateSettings(db, companyIds, patch);
}

/**
 * Whether the company has numbers or any activity on them, asked of the modules that own them
 * (numbers, calls, conversations; companies imports no module). Each provides the `companyUsageProbe` hook (keyed by its name) in its setup.
 */
export type CompanyUsageProbe = HookFn<'companyUsageProbe'>;

/**
 * True when a registered probe reports numbers or activity, or when no probe is registered at all
 * (the deletion cannot be proven safe, so it is refused; docs/accounts.md "Deleting an account").
 */
export async function companyHasUsage(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<boolean> {
  const probes = ctx.hooks.all('companyUsageProbe');
  if (probes.length === 0) return true;
  for (const p of probes) if (await p(ctx, companyId, db)) return true;
  return false;
}

/** Deletes the company row; its memberships and company-scoped rows go with it (foreign keys cascade). */
export async function deleteCompanyRow(ctx: AppContext, companyId: number, db: DbOrTx): Promise<void> {
  await companiesRepository.deleteCompany(db, companyId);
}

/** The organization's administrators (user id, since when), oldest first. */
export async function organizationAdmins(ctx: AppContext, organizationId: number, db: DbOrTx = ctx.db): Promise<Array<{ user_id: number; created_at: Date }>> {
  return companiesRepository.organizationAdmins(db, organizationId);
}

/** Makes the user an administrator of the organization and `administrator` of every company of it where they are not a member yet. */
export async function addOrganizationAdmin(ctx: AppContext, organizationId: number, userId: number, db: DbOrTx): Promise<void> {
  await companiesRepository.addOrganizationAdmin(db, organizationId, userId);
  await companiesRepository.attachToOrganizationCompanies(db, organizationId, userId, 'administrator');
}

/**
 * Removes the administrator and detaches them from every company of the organization (spec 000
 * §6 "removal also detaches them from accounts").
 * @returns the ids of the companies they were detached from, or null when they were not an administrator.
 */
export async function removeOrganizationAdmin(ctx: AppContext, organizationId: number, userId: number, db: DbOrTx): Promise<number[] | null> {
  if (!(await companiesRepository.removeOrganizationAdmin(db, organizationId, userId))) return null;
  return companiesRepository.detachFromOrganizationCompanies(db, organizationId, userId);
}

/** Every membership in the organization's companies (stored roles), by company name. */
export async function organizationMemberships(
  ctx: AppContext,
  organizationId: number,
): Promise<Array<{ company_id: number; company_name: string; user_id: number; role: string }>> {
  return companiesRepository.organizationMemberships(ctx.db, organizationId);
}

/** Every membership of the company with its stored role (deactivated ones too), oldest first. */
export async function companyMemberships(
  ctx: AppContext,
  companyId: number,
  db: DbOrTx = ctx.db,
): Promise<Array<{ user_id: number; role: string; created_at: Date }>> {
  return companiesRepository.members(db, companyId);
}

/** The stored membership, locked for update when `db` is a transaction; undefined when not a member. */
export async function storedMembership(
  ctx: AppContext,
  companyId: number,
  userId: number,
  db: DbOrTx,
): Promise<{ role: string; role_before_deactivation: string | null; created_at: Date } | undefined> {
  return companiesRepository.storedMembership(db, companyId, userId);
}

/** Writes a membership's role and the role to give back on activation. */
export async function setMemberRole(
  ctx: AppContext,
  companyId: number,
  userId: number,
  role: string,
  roleBeforeDeactivation: string | null,
  db: DbOrTx,
): Promise<void> {
  await companiesRepository.setMemberRole(db, companyId, userId, role, roleBeforeDeactivation);
}

/** Removes a membership. @returns true when there was one. */
export async function removeMembership(ctx: AppContext, companyId: number, userId: number, db: DbOrTx): Promise<boolean> {
  return companiesRepository.removeMember(db, companyId, userId);
}

/** Number of `owner` memberships of the company. */
export async function ownerCount(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<number> {
  return companiesRepository.ownerCount(db, companyId);
}

/** A page of the user's reachable companies (active role, account not deactivated), by name; `search` matches the company or organization name, or the id. */
export async function slimCompanies(
  ctx: AppContext,
  userId: number,
  q: { search?: string; page: number; perPage: number },
): Promise<{
  rows: Array<{ id: number; name: string; role: string; organization_id: number | null; organization_name: string | null; account_status: number }>;
  total: number;
}> {
  return companiesRepository.slim(ctx.db, userId, { search: q.search, limit: q.perPage, offset: (q.page - 1) * q.perPage });
}
