/**
 * Companies and membership, and the tenant check every company-scoped route uses
 * (foundation §6): a user reaches a company only through an active membership.
 */
import type { EavAttributeValueOut, PutCompanySettingsInput } from '@switchboard/contracts';
import {
  ABILITY_MATRIX,
  isRole,
  isValidTimeZone,
  resolveTimeZone,
  roleCan,
  rolesWith,
  SETTINGS_UPDATED,
  type Ability,
  type Role as DomainRole,
} from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import { sessionsRepository } from '../../platform/auth/sessions.repository.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { CHANNEL_PATTERN } from '../../platform/realtime.js';
import { ForbiddenError, NotFoundError } from '../../platform/http/errors.js';
import { assertRequestReaches, declaredAccess } from '../../platform/http/access.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { companiesRepository, type CompanyMessagingSettingsRow, type MembershipRow } from './companies.repository.js';

/** A membership role (spec 000 §6); what each may do is the domain's `ABILITY_MATRIX` (docs/permissions.md). */
export type Role = DomainRole;
/** Roles that may change telephony and messaging setup (numbers, routing): the matrix's `numbers.manage`. */
export const MANAGER_ROLES: Role[] = rolesWith('numbers.manage');
/** Roles that may work the inbox and place/answer calls: the matrix's `inbox.work`. */
export const AGENT_ROLES: Role[] = rolesWith('inbox.work');
/** Roles that may see the company at all (every active role): the matrix's `company.read`. */
export const READER_ROLES: Role[] = rolesWith('company.read');
/** The roles that have `ability` in the one matrix (`@switchboard/domain` ABILITY_MATRIX), for a service's own check. */
export function rolesFor(ability: Ability): Role[] {
  return rolesWith(ability);
}

/**
 * The user's effective role in the company for route access (platform/http/access.ts `roleIn`):
 * the membership's role, null without one. `deactivated` is returned as is (it has no ability).
 */
export async function companyRoleOf(ctx: AppContext, userId: number, companyId: number): Promise<Role | null> {
  const m = await companiesRepository.membership(ctx.db, userId, companyId);
  return m && isRole(m.role) ? m.role : null;
}

/** The user's effective roles across companies (access.ts `rolesOf`, entity routes): active memberships' roles. */
export async function companyRolesOf(ctx: AppContext, userId: number): Promise<Role[]> {
  return [...new Set((await companiesRepository.rolesOf(ctx.db, userId)).filter(isRole))];
}

/**
 * Asserts the user may act in the company with one of `roles` (default: any active role).
 * @returns the user's role.
 * @throws ForbiddenError (403) when the user has no such membership, or (inside a request of an API key limited to a
 * business unit) the company is outside that unit; the company's data is never revealed.
 */
export async function assertCompanyAccess(
  ctx: AppContext,
  userId: number,
  companyId: number,
  roles: Role[] = READER_ROLES,
  db: DbOrTx = ctx.db,
): Promise<Role> {
  const m = await companiesRepository.membership(db, userId, companyId);
  if (!m || m.role === 'deactivated' || !roles.includes(m.role as Role)) throw new ForbiddenError();
  // An API key limited to a business unit reaches only that unit's companies (entity routes resolve the company here).
  await assertRequestReaches(userId, companyId);
  // Inside an HTTP request the caller is also held to the route's declared ability (platform/http/access.ts,
  // docs/permissions.md "Services"), except a plain membership check (default roles) on a route that
  // changes something: that one only decides whether the entity is visible (404) before the action's own check (403).
  const declared = declaredAccess();
  if (declared && declared.userId === userId && (ABILITY_MATRIX[declared.ability].read || roles !== READER_ROLES) && !roleCan(m.role, declared.ability)) {
    throw new ForbiddenError();
  }
  return m.role as Role;
}

/** The user's companies (active memberships only), by name. */
export async function listUserCompanies(ctx: AppContext, userId: number): Promise<MembershipRow[]> {
  return (await companiesRepository.listForUser(ctx.db, userId)).filter((c) => c.role !== 'deactivated');
}

/** One active membership: the user's id and role (never `deactivated`). */
export type CompanyMember = { userId: number; role: Role };

/**
 * The company's members whose role is not `deactivated`, in user-id order. No access check:
 * callers have already checked the tenant. Runs in `db` (a transaction's `tx`) when given.
 */
export async function listActiveMembers(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<CompanyMember[]> {
  return (await companiesRepository.activeMembers(db, companyId)).map((m) => ({ userId: m.user_id, role: m.role as Role }));
}

/** Ids of the company's members whose role is not `deactivated`, ascending (see `listActiveMembers`). */
export async function activeMemberIds(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<number[]> {
  return (await companiesRepository.activeMembers(db, companyId)).map((m) => m.user_id);
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

/**
 * Creates a company (optionally inside an organization) and makes `ownerUserId` its `owner`
 * (foundation §6 "The company creator becomes owner"). Runs in `tx` when given (the signup and
 * the demo seed create the user and the company in one transaction).
 * @param input.timezone IANA zone; unknown names are stored as America/New_York.
 * @returns the new company's id.
 */
export async function createCompany(
  ctx: AppContext,
  input: { name: string; timezone?: string; organizationId?: number | null },
  ownerUserId: number,
  tx?: DbOrTx,
): Promise<number> {
  const db = tx ?? ctx.db;
  const id = await companiesRepository.create(db, {
    name: input.name.trim(),
    organization_id: input.organizationId ?? null,
    timezone: resolveTimeZone(input.timezone, 'America/New_York'),
  });
  await companiesRepository.addMember(db, id, ownerUserId, 'owner');
  return id;
}

/** Adds (or changes) a membership with `role`. */
export async function addCompanyMember(ctx: AppContext, companyId: number, userId: number, role: Role, tx?: DbOrTx): Promise<void> {
  await companiesRepository.addMember(tx ?? ctx.db, companyId, userId, role);
}

/** Creates an organization (business unit) with `ownerUserId` as owner and org-administrator. */
export async function createOrganization(ctx: AppContext, name: string, ownerUserId: number, tx?: DbOrTx): Promise<number> {
  const db = tx ?? ctx.db;
  const id = await companiesRepository.createOrganization(db, name.trim(), ownerUserId);
  await companiesRepository.addOrganizationAdmin(db, id, ownerUserId);
  return id;
}

/** Whether the user sees business units (member of a company in an organization, or org admin). */
export async function userHasBusinessUnits(ctx: AppContext, userId: number, db: DbOrTx = ctx.db): Promise<boolean> {
  return companiesRepository.hasBusinessUnits(db, userId);
}

/**
 * True when the user has at least one membership and every one is `deactivated`
 * (such a user cannot sign in). A user without memberships is not "deactivated".
 */
export async function isDeactivatedEverywhere(ctx: AppContext, userId: number, db: DbOrTx = ctx.db): Promise<boolean> {
  const roles = await companiesRepository.rolesOf(db, userId);
  return roles.length > 0 && roles.every((r) => r === 'deactivated');
}

/** One company for the switcher: `{ id, name, role, timezone, organization_id }`. */
export type CompanySummaryOut = { id: number; name: string; role: Role; timezone: string; organization_id: number | null };

/** The caller's active companies, by name (`GET /api/companies`). */
export async function listCompanySummaries(ctx: AppContext, userId: number): Promise<CompanySummaryOut[]> {
  return (await listUserCompanies(ctx, userId)).map((c) => ({
    id: c.id,
    name: c.name,
    role: c.role as Role,
    timezone: c.timezone,
    organization_id: c.organization_id,
  }));
}

/**
 * One company of the caller (`GET /api/companies/{companyId}`).
 * @throws ForbiddenError (403) when the caller is not an active member.
 */
export async function getCompanySummary(ctx: AppContext, userId: number, companyId: number): Promise<CompanySummaryOut> {
  const role = await assertCompanyAccess(ctx, userId, companyId);
  const c = await companiesRepository.find(ctx.db, companyId);
  if (!c) throw new ForbiddenError();
  return { id: c.id, name: c.name, role, timezone: c.timezone, organization_id: c.organization_id };
}

/**
 * The organization (business unit, spec 001 §6) a company sits in, or null (also when the company
 * does not exist). No access check. Runs in `db` (a transaction's `tx`) when given.
 */
export async function getCompanyOrganizationId(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<number | null> {
  return (await companiesRepository.organizationOf(db, companyId)) ?? null;
}

/**
 * Reads a company's custom-field values (entity Company) for its view. The custom-fields module
 * registers it in its setup (companies imports no module; spec 001 "Company records also carry
 * eav_attribute_values").
 */
export type CompanyCustomFieldsReader = HookFn<'companyCustomFields'>;

/**
 * `GET /api/companies/{companyId}`: the summary plus `eav_attribute_values` (empty when no reader
 * is registered).
 * @throws ForbiddenError (403) when the caller is not an active member.
 */
export async function getCompanyWithEav(
  ctx: AppContext,
  userId: number,
  companyId: number,
): Promise<CompanySummaryOut & { eav_attribute_values: EavAttributeValueOut[] }> {
  const summary = await getCompanySummary(ctx, userId, companyId);
  return { ...summary, eav_attribute_values: await ctx.hooks.ask('companyCustomFields', ctx, companyId) };
}

/**
 * A company's preferred zone from another module's data (the schedules module: the zone of the
 * saved company schedule), or undefined when it has none. Registered in that module's setup
 * (companies imports no module).
 */
export type CompanyZoneSource = HookFn<'companyZone'>;

/**
 * The company's IANA time zone for new numbers and templates (docs/numbers.md "Time zone of a new
 * number"): the zone of its saved company schedule (the registered source), else the zone of the
 * company's settings (chosen at sign-up), else "UTC" (also for an unknown company). No access
 * check: callers have checked the tenant.
 */
export async function companyTimeZone(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<string> {
  const saved = await ctx.hooks.ask('companyZone', ctx, companyId, db);
  if (saved && isValidTimeZone(saved)) return saved;
  const settings = await companiesRepository.messagingSettings(db, companyId);
  return settings && isValidTimeZone(settings.timezone) ? settings.timezone : 'UTC';
}

/** Name, HELP text, links switch, quiet hours (on/off, local "HH:mm" start and end) and IANA zone of a company. */
export type CompanyMessagingSettings = CompanyMessagingSettingsRow;

/**
 * A company's messaging settings, for other modules (campaigns: links, quiet hours, zone;
 * messaging: name and HELP text). No access check: callers have already checked the tenant.
 * Quiet-hours times are local "HH:mm"; `quiet_hours_enabled` false means campaigns send at any hour.
 * @throws NotFoundError (404) when the company does not exist.
 */
export async function getCompanyMessagingSettings(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<CompanyMessagingSettings> {
  const s = await companiesRepository.messagingSettings(db, companyId);
  if (!s) throw new NotFoundError();
  return s;
}

/** The settings screen's view: `{ help_text, quiet_hours_enabled, quiet_hours_start, quiet_hours_end, links_enabled, timezone }`. */
export type CompanySettingsOut = Omit<CompanyMessagingSettings, 'name'>;

function settingsOut(s: CompanyMessagingSettings): CompanySettingsOut {
  return {
    help_text: s.help_text,
    quiet_hours_enabled: s.quiet_hours_enabled,
    quiet_hours_start: s.quiet_hours_start,
    quiet_hours_end: s.quiet_hours_end,
    links_enabled: s.links_enabled,
    timezone: s.timezone,
  };
}

/**
 * `GET /api/companies/{companyId}/settings` (any active member).
 * @throws ForbiddenError (403) when the caller is not an active member.
 */
export async function getCompanySettings(ctx: AppContext, userId: number, companyId: number): Promise<{ data: CompanySettingsOut }> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: settingsOut(await getCompanyMessagingSettings(ctx, companyId)) };
}

/**
 * `PUT /api/companies/{companyId}/settings` (owner or administrator). The body is validated by the
 * route's zod schema (422: help text ≤ 300, "HH:mm" times with start ≠ end, an IANA zone).
 * @returns `{ message: 'Settings were successfully updated', data }`.
 * @throws ForbiddenError (403) when the caller is not an owner or administrator of the company.
 */
export async function updateCompanySettings(
  ctx: AppContext,
  userId: number,
  companyId: number,
  input: PutCompanySettingsInput,
): Promise<{ message: string; data: CompanySettingsOut }> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const saved = await companiesRepository.updateSettings(ctx.db, companyId, {
    help_text: input.help_text.trim(),
    quiet_hours_enabled: input.quiet_hours_enabled,
    quiet_hours_start: input.quiet_hours_start,
    quiet_hours_end: input.quiet_hours_end,
    links_enabled: input.links_enabled,
    timezone: input.timezone,
  });
  if (!saved) throw new NotFoundError();
  return { message: SETTINGS_UPDATED, data: settingsOut(saved) };
}
