/**
 * Organizations (business units) and their accounts, users and administrators (spec 002 §3
 * "Organization: eav_attribute_values, owner_id, business_units", "Company creation", "Account
 * status", §4, §7 "Organizations and tenant", §8 "Failed to remove Organization Admin", "You cannot
 * delete an account that has numbers added or has any activity on those numbers", §9 perPage 1000;
 * spec 000 §6 org-administrator; docs/accounts.md).
 *
 * Everything here is for the organization's administrators (`organization_admins`): any signed-in
 * user may create an organization and becomes its owner and first administrator. An unknown
 * organization answers 404, one the caller does not administer 403. The organization's custom
 * fields (entity type Organization 4) are written through the custom-fields service, using one of
 * its companies for the attribute scope (the business unit's own attributes).
 */
import { EAV_ENTITY_TYPES, isValidTimeZone } from '@switchboard/domain';
import {
  MSG_ACCOUNT_NAME_MISMATCH,
  type AccountStatus,
  type BulkAccountUpdateInput,
  type DeleteAccountInput,
  type CreateOrganizationCompanyInput,
  type OrganizationCompanyOut,
  type OrganizationOut,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import { AppError, ForbiddenError, NotFoundError, fieldError } from '../../platform/http/errors.js';
import { createOrganization as createOrganizationRow, type Role } from '../companies/companies.service.js';
import {
  addOrganizationAdmin,
  bulkUpdateCompanySettings,
  companyMemberships,
  companyHasUsage,
  createOrganizationCompany,
  deleteCompanyRow,
  deleteOrganizationRow,
  findCompany,
  findOrganization,
  isOrganizationAdmin,
  organizationAdmins,
  organizationCompanies,
  organizationCompanyIds,
  organizationCounts,
  organizationMemberships,
  organizationsOfAdmin,
  removeOrganizationAdmin,
  renameOrganization,
  setAccountStatus,
  type CompanyRow,
  type OrganizationRow,
} from '../companies/accounts.service.js';
import { deleteEavValuesOf, getEavValues, getEavValuesMany, setEavValues } from '../custom-fields/custom-fields.service.js';
import { clearUserNumbers, MSG_INFORMATION_UPDATED } from './members.service.js';
import { usersRepository } from './users.repository.js';
import { findUserByEmail } from './users.service.js';

export const MSG_ORGANIZATION_CREATED = 'Organization was successfully created';
export const MSG_ORGANIZATION_DELETED = 'Organization was successfully deleted';
export const MSG_ORGANIZATION_HAS_COMPANIES = 'Delete or move the accounts of this organization first.';
export const MSG_ACCOUNT_CREATED = 'Account was successfully created';
export const MSG_ACCOUNT_DELETED = 'Account was successfully deleted';
/** Spec 002 §8. */
export const MSG_ACCOUNT_IN_USE = 'You cannot delete an account that has numbers added or has any activity on those numbers';
/** Spec 000 §8 "Remove organization admin fails". */
export const MSG_REMOVE_ADMIN_FAILED = 'Failed to remove Organization Admin';
export const MSG_ADMIN_ADDED = 'Organization Admin was successfully added';
export const MSG_ADMIN_REMOVED = 'Organization Admin was successfully removed';

/**
 * The organization, when the caller administers it.
 * @throws NotFoundError (404) unknown organization; ForbiddenError (403) not an administrator of it.
 */
export async function assertOrganizationAdmin(ctx: AppContext, userId: number, organizationId: number, db: DbOrTx = ctx.db): Promise<OrganizationRow> {
  const org = await findOrganization(ctx, organizationId, db);
  if (!org) throw new NotFoundError('Organization');
  if (!(await isOrganizationAdmin(ctx, organizationId, userId, db))) throw new ForbiddenError();
  return org;
}

async function organizationViews(ctx: AppContext, rows: OrganizationRow[]): Promise<OrganizationOut[]> {
  const ids = rows.map((r) => r.id);
  const [counts, eav] = await Promise.all([organizationCounts(ctx, ids), getEavValuesMany(ctx, EAV_ENTITY_TYPES.Organization, ids)]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    owner_id: r.owner_id,
    companies_count: counts.get(r.id)?.companies ?? 0,
    admins_count: counts.get(r.id)?.admins ?? 0,
    eav_attribute_values: eav.get(r.id) ?? [],
    created_at: r.created_at.toISOString(),
  }));
}

/** `GET /business-units`: the organizations the caller administers, by name (perPage default 1000). */
export async function listOrganizations(
  ctx: AppContext,
  userId: number,
  q: { page: number; perPage: number; search?: string },
): Promise<{ data: OrganizationOut[]; meta: PageMeta }> {
  const { rows, total } = await organizationsOfAdmin(ctx, userId, q);
  return { data: await organizationViews(ctx, rows), meta: pageMeta(q.page, q.perPage, total) };
}

/** `GET /business-units/{organizationId}`. */
export async function getOrganization(ctx: AppContext, userId: number, organizationId: number): Promise<{ data: OrganizationOut }> {
  const org = await assertOrganizationAdmin(ctx, userId, organizationId);
  return { data: (await organizationViews(ctx, [org]))[0]! };
}

/** `POST /business-units {name}`: the caller becomes its owner and first administrator. */
export async function createOrganization(ctx: AppContext, userId: number, name: string): Promise<{ message: string; data: OrganizationOut }> {
  const id = await ctx.db.transaction().execute((tx) => createOrganizationRow(ctx, name, userId, tx));
  const org = await findOrganization(ctx, id);
  return { message: MSG_ORGANIZATION_CREATED, data: (await organizationViews(ctx, [org!]))[0]! };
}

/**
 * `PUT /business-units/{organizationId} {name?, eav_attribute_values?}` (an administrator).
 * Custom-field values need one account in the organization (the attribute scope); without one, 422.
 */
export async function updateOrganization(
  ctx: AppContext,
  userId: number,
  organizationId: number,
  input: { name?: string; eav_attribute_values?: Array<{ attribute_id: number; value: unknown }> },
): Promise<{ message: string; data: OrganizationOut }> {
  await assertOrganizationAdmin(ctx, userId, organizationId);
  await ctx.db.transaction().execute(async (tx) => {
    if (input.name !== undefined) await renameOrganization(ctx, organizationId, input.name.trim(), tx);
    if (input.eav_attribute_values?.length) {
      const [anyCompany] = await organizationCompanyIds(ctx, organizationId, undefined, tx);
      if (anyCompany === undefined) throw fieldError('eav_attribute_values', 'Add an account to the organization before setting its custom fields.');
      await setEavValues(
        ctx,
        EAV_ENTITY_TYPES.Organization,
        organizationId,
        anyCompany,
        input.eav_attribute_values.map((v) => ({ attribute_id: v.attribute_id, value: v.value })),
        tx,
      );
    }
  });
  return { message: MSG_INFORMATION_UPDATED, data: (await getOrganization(ctx, userId, organizationId)).data };
}

/** `DELETE /business-units/{organizationId}` (its owner only; refused while it has accounts). */
export async function deleteOrganization(ctx: AppContext, userId: number, organizationId: number): Promise<{ message: string }> {
  const org = await assertOrganizationAdmin(ctx, userId, organizationId);
  if (org.owner_id !== userId) throw new ForbiddenError('Only the owner of the organization can delete it.');
  await ctx.db.transaction().execute(async (tx) => {
    if ((await organizationCompanyIds(ctx, organizationId, undefined, tx)).length) throw fieldError('organization', MSG_ORGANIZATION_HAS_COMPANIES);
    await deleteEavValuesOf(ctx, EAV_ENTITY_TYPES.Organization, [organizationId], tx);
    await deleteOrganizationRow(ctx, organizationId, tx);
  });
  return { message: MSG_ORGANIZATION_DELETED };
}

function companyView(c: CompanyRow & { users_count?: number }): OrganizationCompanyOut {
  return {
    id: c.id,
    name: c.name,
    organization_id: c.organization_id!,
    account_status: c.account_status as AccountStatus,
    timezone: c.timezone,
    users_count: c.users_count ?? 0,
    status_changed_at: c.status_changed_at ? c.status_changed_at.toISOString() : null,
    created_at: c.created_at.toISOString(),
  };
}

/**
 * `GET /business-unit-companies?businessUnitId` (spec 002 §7 "business-unit-companies (list)"): a page (default 100)
 * of the organization's accounts, by name; `search`, `status` filters.
 * @throws NotFoundError (404) unknown organization; ForbiddenError (403) not its administrator.
 */
export async function listOrganizationCompanies(
  ctx: AppContext,
  userId: number,
  organizationId: number,
  q: { page: number; perPage: number; search?: string; status?: number },
): Promise<{ data: OrganizationCompanyOut[]; meta: PageMeta }> {
  await assertOrganizationAdmin(ctx, userId, organizationId);
  const { rows, total } = await organizationCompanies(ctx, organizationId, q);
  return { data: rows.map(companyView), meta: pageMeta(q.page, q.perPage, total) };
}

/** The account, when it belongs to the organization. @throws NotFoundError (404). */
async function companyOf(ctx: AppContext, organizationId: number, companyId: number, db: DbOrTx = ctx.db): Promise<CompanyRow> {
  const c = await findCompany(ctx, companyId, db);
  if (!c || c.organization_id !== organizationId) throw new NotFoundError('Account');
  return c;
}

/**
 * `POST /business-units/{organizationId}/companies {company_info, billing_info}` (spec 002 §3): a new
 * account in the organization; `company_info.business_unit_id` must be this organization. The
 * creator is its owner and every administrator of the organization an administrator. The chosen
 * number is kept in `company_info` (buying it is the numbers screen's work: docs/accounts.md).
 */
export async function createCompanyInOrganization(
  ctx: AppContext,
  userId: number,
  organizationId: number,
  input: CreateOrganizationCompanyInput,
): Promise<{ message: string; data: OrganizationCompanyOut }> {
  await assertOrganizationAdmin(ctx, userId, organizationId);
  const info = input.company_info;
  if (info.business_unit_id !== organizationId) throw fieldError('company_info.business_unit_id', 'The selected business unit is invalid.');
  if (info.timezone !== undefined && !isValidTimeZone(info.timezone)) throw fieldError('company_info.timezone', 'The timezone must be a valid zone.');
  const id = await ctx.db.transaction().execute((tx) =>
    createOrganizationCompany(
      ctx,
      {
        organizationId,
        name: info.name,
        timezone: info.timezone,
        companyInfo: info as Record<string, unknown>,
        billingInfo: input.billing_info as Record<string, unknown>,
      },
      userId,
      tx,
    ),
  );
  return { message: MSG_ACCOUNT_CREATED, data: companyView({ ...(await findCompany(ctx, id))!, users_count: 1 }) };
}

/**
 * The organization of an account the caller administers through it (the spec's `/business-unit-companies/{accountId}`
 * calls name only the account).
 * @throws NotFoundError (404) for an unknown account, one outside every organization, or one of an organization the
 * caller does not administer (an account id of someone else's organization is not revealed).
 */
async function administeredOrganizationOf(ctx: AppContext, userId: number, companyId: number): Promise<number> {
  const c = await findCompany(ctx, companyId);
  if (!c || c.organization_id === null || !(await isOrganizationAdmin(ctx, c.organization_id, userId))) throw new NotFoundError('Account');
  return c.organization_id;
}

/**
 * `PUT /business-unit-companies/{accountId}/status {status}` (spec 002 §4 "status call", §7
 * "business-unit-companies (status)"): 0 active, 1 parked (keeps numbers, stops service), 2 deactivated (signs
 * nobody in). The account's organization must be one the caller administers (404 otherwise).
 */
export async function setBusinessUnitCompanyStatus(
  ctx: AppContext,
  userId: number,
  companyId: number,
  status: AccountStatus,
): Promise<{ message: string; data: OrganizationCompanyOut }> {
  return setCompanyStatus(ctx, userId, await administeredOrganizationOf(ctx, userId, companyId), companyId, status);
}

/**
 * `DELETE /business-unit-companies/{accountId}` (spec 002 §7 "business-unit-companies (delete)"): as
 * {@link deleteCompanyOfOrganization}, the organization found from the account (404 when not the caller's).
 */
export async function deleteBusinessUnitCompany(ctx: AppContext, userId: number, companyId: number): Promise<{ message: string }> {
  return deleteCompanyOfOrganization(ctx, userId, await administeredOrganizationOf(ctx, userId, companyId), companyId);
}

/** An account's status change in the organization (0 active, 1 parked, 2 deactivated). */
async function setCompanyStatus(
  ctx: AppContext,
  userId: number,
  organizationId: number,
  companyId: number,
  status: AccountStatus,
): Promise<{ message: string; data: OrganizationCompanyOut }> {
  await assertOrganizationAdmin(ctx, userId, organizationId);
  await companyOf(ctx, organizationId, companyId);
  await setAccountStatus(ctx, [companyId], status);
  if (status === 2) await disconnectMembers(ctx, [companyId]);
  return { message: MSG_INFORMATION_UPDATED, data: companyView((await findCompany(ctx, companyId))!) };
}

/**
 * The one rule of every account deletion (an org administrator's and the owner's): refused with the spec's message
 * (422 on `account`) when the account has numbers or any activity on them, or when that cannot be known (no usage
 * probe registered: docs/accounts.md "Deleting an account"); otherwise its custom-field values and its row go (its
 * rows cascade). Runs in the caller's transaction.
 * @returns the ids of the people who were members (their live connections are to be cut after the commit).
 */
async function deleteUnusedAccount(ctx: AppContext, companyId: number, tx: DbOrTx): Promise<number[]> {
  if (await companyHasUsage(ctx, companyId, tx)) throw new AppError(422, MSG_ACCOUNT_IN_USE, { account: [MSG_ACCOUNT_IN_USE] });
  const members = (await companyMemberships(ctx, companyId, tx)).map((m) => m.user_id);
  await deleteEavValuesOf(ctx, EAV_ENTITY_TYPES.Company, [companyId], tx);
  await deleteCompanyRow(ctx, companyId, tx);
  return members;
}

/** Cuts the live connections of the people of a deleted account (they reconnect to what they still reach). */
function disconnectPeople(ctx: AppContext, userIds: readonly number[]): void {
  for (const user of userIds) ctx.realtime.revoke({ user });
}

/** An org administrator deletes an account of the organization (see {@link deleteUnusedAccount}). */
async function deleteCompanyOfOrganization(ctx: AppContext, userId: number, organizationId: number, companyId: number): Promise<{ message: string }> {
  await assertOrganizationAdmin(ctx, userId, organizationId);
  const members = await ctx.db.transaction().execute(async (tx) => {
    await companyOf(ctx, organizationId, companyId, tx);
    return deleteUnusedAccount(ctx, companyId, tx);
  });
  disconnectPeople(ctx, members);
  return { message: MSG_ACCOUNT_DELETED };
}

/**
 * `DELETE /companies/{companyId} {name}`: the owner deletes their own account (ability `account.delete`, declared
 * on the route; docs/accounts.md "Deleting an account"). `name` must be the account's name (trimmed, letter case
 * included): 422 on `name` otherwise. Then the same rule as an org administrator's delete: refused with the spec's
 * message when the account has numbers or any activity on them.
 * @returns `{message: 'Account was successfully deleted'}`.
 * @throws NotFoundError (404) unknown account; ValidationError (422) `name` or `account`.
 */
export async function deleteOwnAccount(ctx: AppContext, companyId: number, input: DeleteAccountInput): Promise<{ message: string }> {
  const members = await ctx.db.transaction().execute(async (tx) => {
    const c = await findCompany(ctx, companyId, tx);
    if (!c) throw new NotFoundError('Account');
    if (c.name.trim() !== input.name.trim()) throw fieldError('name', MSG_ACCOUNT_NAME_MISMATCH);
    return deleteUnusedAccount(ctx, companyId, tx);
  });
  disconnectPeople(ctx, members);
  return { message: MSG_ACCOUNT_DELETED };
}

/**
 * `POST /business-units/{organizationId}/companies/bulk-update`: account status and settings
 * (time zone, links, quiet hours) on the chosen accounts of the organization, or all of them.
 * Ids outside the organization are a 422 on `company_ids`.
 * @returns `{ message: 'Information updated successfully', updated }` (accounts touched).
 */
export async function bulkUpdateAccounts(
  ctx: AppContext,
  userId: number,
  organizationId: number,
  input: BulkAccountUpdateInput,
): Promise<{ message: string; updated: number }> {
  await assertOrganizationAdmin(ctx, userId, organizationId);
  if (input.timezone !== undefined && !isValidTimeZone(input.timezone)) throw fieldError('timezone', 'The timezone must be a valid zone.');
  const updated = await ctx.db.transaction().execute(async (tx) => {
    const ids = input.all
      ? await organizationCompanyIds(ctx, organizationId, undefined, tx)
      : await organizationCompanyIds(ctx, organizationId, input.company_ids ?? [], tx);
    if (!input.all && ids.length !== new Set(input.company_ids).size) throw fieldError('company_ids', 'The selected accounts are invalid.');
    if (input.account_status !== undefined) await setAccountStatus(ctx, ids, input.account_status, tx);
    const patch: { timezone?: string; links_enabled?: boolean; quiet_hours_enabled?: boolean } = {};
    if (input.timezone !== undefined) patch.timezone = input.timezone;
    if (input.links_enabled !== undefined) patch.links_enabled = input.links_enabled;
    if (input.quiet_hours_enabled !== undefined) patch.quiet_hours_enabled = input.quiet_hours_enabled;
    await bulkUpdateCompanySettings(ctx, ids, patch, tx);
    return ids;
  });
  if (input.account_status === 2) await disconnectMembers(ctx, updated);
  return { message: MSG_INFORMATION_UPDATED, updated: updated.length };
}

/** Disconnects the live connections of the members of deactivated accounts (they reconnect to what they still reach). */
async function disconnectMembers(ctx: AppContext, companyIds: readonly number[]): Promise<void> {
  for (const companyId of companyIds) {
    for (const m of await companyMemberships(ctx, companyId)) ctx.realtime.revoke({ user: m.user_id });
  }
}

/**
 * `GET /business-unit-users?businessUnitId` (spec 002 §7 "business-unit-users"): everyone in the organization's
 * accounts, with their role in each, and its administrators.
 * @throws NotFoundError (404) unknown organization; ForbiddenError (403) not its administrator.
 */
export async function listOrganizationUsers(ctx: AppContext, userId: number, organizationId: number) {
  await assertOrganizationAdmin(ctx, userId, organizationId);
  const [memberships, admins] = await Promise.all([organizationMemberships(ctx, organizationId), organizationAdmins(ctx, organizationId)]);
  const adminIds = new Set(admins.map((a) => a.user_id));
  const ids = [...new Set([...memberships.map((m) => m.user_id), ...adminIds])];
  const people = await usersRepository.people(ctx.db, ids);
  const data = people
    .map((p) => ({
      id: p.id,
      first_name: p.first_name,
      last_name: p.last_name,
      email: p.email,
      is_org_admin: adminIds.has(p.id),
      companies: memberships.filter((m) => m.user_id === p.id).map((m) => ({ id: m.company_id, name: m.company_name, role: m.role as Role })),
    }))
    .sort((a, b) => a.first_name.localeCompare(b.first_name) || a.last_name.localeCompare(b.last_name) || a.id - b.id);
  return { data };
}

async function adminViews(ctx: AppContext, org: OrganizationRow, db: DbOrTx = ctx.db) {
  const admins = await organizationAdmins(ctx, org.id, db);
  const people = new Map(
    (
      await usersRepository.people(
        db,
        admins.map((a) => a.user_id),
      )
    ).map((p) => [p.id, p]),
  );
  return admins
    .filter((a) => people.has(a.user_id))
    .map((a) => {
      const p = people.get(a.user_id)!;
      return {
        id: p.id,
        first_name: p.first_name,
        last_name: p.last_name,
        email: p.email,
        is_owner: org.owner_id === p.id,
        created_at: a.created_at.toISOString(),
      };
    });
}

/** `GET /business-units/{organizationId}/admins`: the administrators, oldest first. */
export async function listOrganizationAdmins(ctx: AppContext, userId: number, organizationId: number) {
  const org = await assertOrganizationAdmin(ctx, userId, organizationId);
  return { data: await adminViews(ctx, org) };
}

/**
 * `POST /business-units/{organizationId}/admins {email}`: makes an existing user an administrator,
 * which gives them the `administrator` role in every account of the organization they are not in yet.
 * @throws 422 on `email` when no user has it.
 */
export async function addOrganizationAdministrator(ctx: AppContext, userId: number, organizationId: number, email: string) {
  const org = await assertOrganizationAdmin(ctx, userId, organizationId);
  const user = await findUserByEmail(ctx, email);
  if (!user) throw fieldError('email', 'No user has this e-mail address: invite them to an account first.');
  await ctx.db.transaction().execute((tx) => addOrganizationAdmin(ctx, organizationId, user.id, tx));
  const data = (await adminViews(ctx, org)).find((a) => a.id === user.id)!;
  return { message: MSG_ADMIN_ADDED, data };
}

/**
 * `DELETE /business-units/{organizationId}/admins/{userId}`: removes the administrator and detaches
 * them from every account of the organization (their numbers there too).
 * @throws AppError 422 'Failed to remove Organization Admin' when the user is not an administrator,
 * is the organization's owner, or is the last administrator.
 */
export async function removeOrganizationAdministrator(ctx: AppContext, userId: number, organizationId: number, adminId: number): Promise<{ message: string }> {
  const org = await assertOrganizationAdmin(ctx, userId, organizationId);
  const failed = () => new AppError(422, MSG_REMOVE_ADMIN_FAILED, { user_id: [MSG_REMOVE_ADMIN_FAILED] });
  if (org.owner_id === adminId) throw failed();
  await ctx.db.transaction().execute(async (tx) => {
    const admins = await organizationAdmins(ctx, organizationId, tx);
    if (!admins.some((a) => a.user_id === adminId) || admins.length <= 1) throw failed();
    const detached = await removeOrganizationAdmin(ctx, organizationId, adminId, tx);
    if (detached === null) throw failed();
    await clearUserNumbers(ctx, detached, adminId, tx);
  });
  // Live connections reconnect and join only the channels still allowed.
  ctx.realtime.revoke({ user: adminId });
  return { message: MSG_ADMIN_REMOVED };
}
