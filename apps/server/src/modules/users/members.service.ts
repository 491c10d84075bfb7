/**
 * Users of an account (spec 000 §6, spec 002 §3 "User: first_name, last_name, role, numbers,
 * email, eavAttributeValues, in_app_calling_status", §4 "Users can be activated or deactivated per
 * account"; docs/accounts.md "Users of an account"): the roles list, members with their role and
 * assigned numbers, role changes, activation, removal, and the per-user routing read by in-app
 * calling. A person belongs to several companies with a role in each (`company_users`).
 *
 * Rules (docs/accounts.md): only an owner gives or takes the `owner` role or touches an owner
 * (`ownership.manage`); nobody changes, deactivates or removes themselves; an account keeps at
 * least one owner. Membership rows are the companies module's; numbers assigned to users are this
 * module's `user_numbers`.
 */
import { EAV_ENTITY_TYPES, roleCan, type Ability } from '@switchboard/domain';
import type { MemberOut, UpdateMemberInput } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { ForbiddenError, NotFoundError, fieldError } from '../../platform/http/errors.js';
import { requestMemo, requestRoleIn } from '../../platform/http/access.js';
import { MANAGER_ROLES, assertCompanyAccess, companyRoleOf, listActiveMembers, rolesFor, type Role } from '../companies/companies.service.js';

/** Roles that answer calls in the app (the matrix's `calls.work`). */
const CALL_WORKER_ROLES: readonly Role[] = rolesFor('calls.work');
import { companyMemberships, ownerCount, removeMembership, setMemberRole, storedMembership } from '../companies/accounts.service.js';
import { getEavValuesMany, setEavValues } from '../custom-fields/custom-fields.service.js';
import { usersRepository } from './users.repository.js';

/** 'Information updated successfully' (spec 000 §8 success messages). */
export const MSG_INFORMATION_UPDATED = 'Information updated successfully';
export const MSG_USER_ACTIVATED = 'The user was activated';
export const MSG_USER_DEACTIVATED = 'The user was deactivated';
export const MSG_USER_REMOVED = 'The user was removed from the account';
export const MSG_LAST_OWNER = 'The account must keep at least one owner.';

/** The roles list (foundation §6) with what each may do (docs/permissions.md matrix, in words). */
export const ROLE_LIST: Array<{ value: Role; label: string; description: string; assignable: boolean }> = [
  { value: 'owner', label: 'Owner', description: 'Everything, including billing, ownership and deleting the account.', assignable: true },
  { value: 'administrator', label: 'Administrator', description: 'Everything but ownership and billing.', assignable: true },
  { value: 'billing', label: 'Billing', description: 'Billing details and invoices.', assignable: true },
  { value: 'reporting', label: 'Reporting', description: 'Read-only reports, activity, call log and recordings.', assignable: true },
  { value: 'user', label: 'User', description: 'Their inbox, calls, contacts and the numbers assigned to them.', assignable: true },
  { value: 'deactivated', label: 'Deactivated', description: 'No access to the account.', assignable: false },
];

/** `GET /roles`. */
export function listRoles(): { data: typeof ROLE_LIST } {
  return { data: ROLE_LIST };
}

/**
 * Which of a company's number ids really belong to it, asked of the numbers module (a higher
 * level; it provides the `companyNumbers` hook in its setup). Without it, any existing number id is accepted: an
 * assignment only ever routes calls of the company's own numbers (`assigneesOf` is keyed by the
 * number's company), so a foreign id is inert.
 */
export type CompanyNumbersCheck = HookFn<'companyNumbers'>;

/** @throws ValidationError (422) on `numbers` when an id is not a number of the company. */
export async function assertCompanyNumbers(ctx: AppContext, companyId: number, numberIds: readonly number[], db: DbOrTx = ctx.db): Promise<number[]> {
  const ids = [...new Set(numberIds)];
  const check = ctx.hooks.get('companyNumbers');
  if (check && ids.length) {
    const ok = new Set(await check(ctx, companyId, ids, db));
    const bad = ids.find((id) => !ok.has(id));
    if (bad !== undefined) throw fieldError('numbers', 'The selected numbers are invalid.');
  }
  return ids;
}

/** Replaces the user's numbers; a number id that does not exist is a 422 on `numbers` (foreign key). */
export async function replaceUserNumbers(ctx: AppContext, companyId: number, userId: number, numberIds: readonly number[], db: DbOrTx): Promise<void> {
  try {
    await usersRepository.replaceNumbers(db, companyId, userId, numberIds);
  } catch (e) {
    if ((e as { code?: string }).code === '23503') throw fieldError('numbers', 'The selected numbers are invalid.');
    throw e;
  }
}

/** Removes the user's number assignments in these companies (on removal or detachment). */
export async function clearUserNumbers(ctx: AppContext, companyIds: readonly number[], userId: number, db: DbOrTx): Promise<void> {
  await usersRepository.clearNumbers(db, companyIds, userId);
}

/**
 * Per-user routing for in-app calling (docs/accounts.md "Per-user routing"): the users the number is
 * assigned to in its company, ascending, or an empty list when it is assigned to nobody (then
 * every active member rings). The caller filters by membership and in-app status.
 */
export async function numberAssignees(ctx: AppContext, companyId: number, numberId: number, db: DbOrTx = ctx.db): Promise<number[]> {
  return usersRepository.assigneesOf(db, companyId, numberId);
}

/**
 * The numbers a person may see and work in a company (docs/permissions.md "Numbers a user sees"):
 * `all` for every role but `user`; for a `user`, the ids of the numbers assigned to them (the
 * spec's user `numbers`), possibly none ("nothing until assigned").
 */
export type NumberScope = { readonly all: true } | { readonly all: false; readonly ids: ReadonlySet<number> };

const ALL_NUMBERS: NumberScope = { all: true };

/**
 * The numbers `userId` may see in `companyId` — the ONE place the numbers, conversations, calls,
 * messaging and in-app calling services ask. Computed once per request (the request's memo); the
 * role is the one the request's access check resolved (admin mode's role included), else the
 * membership's. Outside a request (jobs) it is computed each time. No access check: the caller
 * has checked the tenant; a non-member gets the scope of their (absent) role, `all`, and is refused
 * by that check.
 */
export async function numberScope(ctx: AppContext, userId: number, companyId: number, db: DbOrTx = ctx.db): Promise<NumberScope> {
  const memo = requestMemo();
  const key = `users:numberScope:${userId}:${companyId}`;
  const known = memo?.get(key) as Promise<NumberScope> | undefined;
  if (known) return known;
  const computed = (async (): Promise<NumberScope> => {
    const fromRequest = requestRoleIn(userId, companyId);
    const role = fromRequest !== undefined ? fromRequest : await companyRoleOf(ctx, userId, companyId);
    if (role !== 'user') return ALL_NUMBERS;
    const ids = (await usersRepository.numbersOf(db, companyId, [userId])).get(userId) ?? [];
    return { all: false, ids: new Set(ids) };
  })();
  memo?.set(key, computed);
  return computed;
}

/** The ability a live channel's kind needs (packages/contracts `LIVE_EVENTS`; `user.{id}` is checked by id). */
const CHANNEL_ABILITY: Record<string, Ability> = {
  conversations: 'inbox.read',
  company: 'company.read',
  campaigns: 'campaigns.read',
  'bulk-purchase': 'numbers.purchase',
};

/**
 * Who may join a live channel (platform/realtime.ts `CanJoin`): `user.{id}` only that user; a company's channel a
 * member whose role has the channel's ability ({@link CHANNEL_ABILITY}); on `conversations.{companyId}` a `user`
 * joins with the numbers assigned to them as scope, so the inbox's live events of other numbers never reach them
 * (docs/permissions.md "Numbers a user sees"). Assignments and roles are read at join time: a change disconnects the
 * person's sockets ({@link updateMember}) and the app joins again.
 * @returns false, true (every event) or the scope ids.
 */
export async function liveChannelAccess(ctx: AppContext, userId: number, channel: string): Promise<boolean | number[]> {
  const m = /^([a-z-]+)\.(\d+)$/.exec(channel);
  if (!m) return false;
  const [, kind, idText] = m as unknown as [string, string, string];
  const id = Number(idText);
  if (kind === 'user') return id === userId;
  const ability = CHANNEL_ABILITY[kind];
  if (!ability || !roleCan(await companyRoleOf(ctx, userId, id), ability)) return false;
  if (kind !== 'conversations') return true;
  const scope = await numberScope(ctx, userId, id);
  return scope.all ? true : [...scope.ids];
}

/** 403 message when a `user` sends or calls from a number not assigned to them. */
export const NOT_YOUR_NUMBER = 'You can only send messages and place calls from the numbers assigned to you.';

/**
 * Refuses work from a number outside the caller's scope (sending a message, placing a call).
 * @throws ForbiddenError 403 {@link NOT_YOUR_NUMBER}.
 */
export async function assertNumberInScope(ctx: AppContext, userId: number, companyId: number, numberId: number): Promise<void> {
  if (!scopeIncludes(await numberScope(ctx, userId, companyId), numberId)) throw new ForbiddenError(NOT_YOUR_NUMBER);
}

/** Whether the scope includes the number (`all`, or the number is assigned). */
export function scopeIncludes(scope: NumberScope, numberId: number | null | undefined): boolean {
  if (scope.all) return true;
  return numberId !== null && numberId !== undefined && scope.ids.has(numberId);
}

/**
 * The number ids a list query keeps for this scope: undefined (no restriction) for `all`;
 * otherwise `requested` (when given) narrowed to the scope, or the scope's ids. An empty array
 * means "nothing": callers answer an empty list without querying.
 */
export function scopeNumberIds(scope: NumberScope, requested?: readonly number[]): number[] | undefined {
  if (scope.all) return requested ? [...requested] : undefined;
  return requested ? requested.filter((id) => scope.ids.has(id)) : [...scope.ids].sort((a, b) => a - b);
}

/**
 * Who may take an in-app call to `numberId` (docs/accounts.md "Per-user routing",
 * docs/permissions.md "Numbers a user sees"), before the in-app status filter: the active members
 * whose role works calls (`calls.work`: owner, administrator, user). When the number is assigned
 * to users, only those of its assignees; when it is assigned to nobody, every such member except
 * `user`s (a `user` works only the numbers assigned to them). Ascending ids. `db`: the call
 * flow's transaction.
 */
export async function numberRingCandidates(ctx: AppContext, companyId: number, numberId: number, db: DbOrTx = ctx.db): Promise<number[]> {
  // One after another: `db` may be the call flow's transaction (one connection).
  const members = await listActiveMembers(ctx, companyId, db);
  const assignees = await numberAssignees(ctx, companyId, numberId, db);
  const workers = members.filter((m) => CALL_WORKER_ROLES.includes(m.role));
  if (assignees.length === 0) return workers.filter((m) => m.role !== 'user').map((m) => m.userId);
  const assigned = new Set(assignees);
  return workers.filter((m) => assigned.has(m.userId)).map((m) => m.userId);
}

/** Builds the member views of these memberships (names, e-mails, numbers, custom-field values). */
export async function memberViews(
  ctx: AppContext,
  companyId: number,
  memberships: Array<{ user_id: number; role: string; created_at: Date }>,
  db: DbOrTx = ctx.db,
): Promise<MemberOut[]> {
  const ids = memberships.map((m) => m.user_id);
  const [people, numbers, eav] = await Promise.all([
    usersRepository.people(db, ids),
    usersRepository.numbersOf(db, companyId, ids),
    getEavValuesMany(ctx, EAV_ENTITY_TYPES.User, ids, db),
  ]);
  const byId = new Map(people.map((p) => [p.id, p]));
  const out: MemberOut[] = [];
  for (const m of memberships) {
    const p = byId.get(m.user_id);
    if (!p) continue;
    out.push({
      id: p.id,
      first_name: p.first_name,
      last_name: p.last_name,
      email: p.email,
      role: m.role as MemberOut['role'],
      active: m.role !== 'deactivated',
      numbers: numbers.get(p.id) ?? [],
      in_app_calling_status: p.in_app_calling_status === 'active' ? 'active' : 'away',
      eavAttributeValues: eav.get(p.id) ?? [],
      joined_at: m.created_at.toISOString(),
    });
  }
  return out;
}

/**
 * `GET /companies/{companyId}/users`: every member (deactivated ones too unless
 * `include_deactivated` is false), by first name, last name, id; `search` matches name or e-mail.
 * @throws ForbiddenError (403) unless the caller is an owner or administrator.
 */
export async function listMembers(
  ctx: AppContext,
  callerId: number,
  companyId: number,
  q: { search?: string; include_deactivated?: boolean },
): Promise<{ data: MemberOut[] }> {
  await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  let members = await memberViews(ctx, companyId, await companyMemberships(ctx, companyId));
  if (q.include_deactivated === false) members = members.filter((m) => m.active);
  if (q.search) {
    const needle = q.search.toLowerCase();
    members = members.filter((m) => `${m.first_name} ${m.last_name} ${m.email}`.toLowerCase().includes(needle));
  }
  members.sort((a, b) => a.first_name.localeCompare(b.first_name) || a.last_name.localeCompare(b.last_name) || a.id - b.id);
  return { data: members };
}

/** One member's view. @throws NotFoundError (404) when the user is not a member. */
async function memberView(ctx: AppContext, companyId: number, userId: number, db: DbOrTx = ctx.db): Promise<MemberOut> {
  const m = await storedMembership(ctx, companyId, userId, db);
  if (!m) throw new NotFoundError('User');
  const [view] = await memberViews(ctx, companyId, [{ user_id: userId, role: m.role, created_at: m.created_at }], db);
  if (!view) throw new NotFoundError('User');
  return view;
}

/**
 * Loads the target membership in `tx` (locked) and checks the caller may act on it.
 * @throws NotFoundError (404) not a member; ValidationError (422) acting on oneself; ForbiddenError
 * (403) when a non-owner acts on an owner.
 */
async function loadTarget(ctx: AppContext, tx: DbOrTx, callerRole: Role, callerId: number, companyId: number, userId: number, what: string) {
  const m = await storedMembership(ctx, companyId, userId, tx);
  if (!m) throw new NotFoundError('User');
  if (userId === callerId) throw fieldError('user_id', `You cannot ${what} yourself.`);
  const isOwner = m.role === 'owner' || (m.role === 'deactivated' && m.role_before_deactivation === 'owner');
  if (isOwner && callerRole !== 'owner') throw new ForbiddenError('Only an owner can change another owner.');
  return m;
}

/**
 * `PUT /companies/{companyId}/users/{userId}`: role, numbers and custom-field values.
 * @returns `{ message: 'Information updated successfully', data }`.
 * @throws 403 (not a manager; `owner` given or taken by a non-owner), 404, 422 (own role, last owner, numbers, custom fields).
 */
export async function updateMember(
  ctx: AppContext,
  callerId: number,
  companyId: number,
  userId: number,
  input: UpdateMemberInput,
): Promise<{ message: string; data: MemberOut }> {
  const callerRole = await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  const numbers = input.numbers ? await assertCompanyNumbers(ctx, companyId, input.numbers) : undefined;
  await ctx.db.transaction().execute(async (tx) => {
    const m = await storedMembership(ctx, companyId, userId, tx);
    if (!m) throw new NotFoundError('User');
    if (input.role !== undefined && input.role !== m.role) {
      if (userId === callerId) throw fieldError('role', 'You cannot change your own role.');
      if ((input.role === 'owner' || m.role === 'owner') && callerRole !== 'owner') throw new ForbiddenError('Only an owner can give or take the owner role.');
      if (m.role === 'deactivated') throw fieldError('role', 'Activate the user before changing their role.');
      if (m.role === 'owner' && (await ownerCount(ctx, companyId, tx)) <= 1) throw fieldError('role', MSG_LAST_OWNER);
      await setMemberRole(ctx, companyId, userId, input.role, null, tx);
    }
    if (numbers) await replaceUserNumbers(ctx, companyId, userId, numbers, tx);
    if (input.eavAttributeValues?.length) await setEavValues(ctx, EAV_ENTITY_TYPES.User, userId, companyId, input.eavAttributeValues, tx);
  });
  // Live connections reconnect and join with the new role's channels and number scope (liveChannelAccess).
  if (numbers || input.role !== undefined) ctx.realtime.revoke({ user: userId });
  return { message: MSG_INFORMATION_UPDATED, data: await memberView(ctx, companyId, userId) };
}

/**
 * `POST /companies/{companyId}/users/{userId}/deactivate`: the member keeps their place but
 * reaches nothing in this account (role `deactivated`; the previous role is kept for activation).
 * Their other accounts are untouched.
 */
export async function deactivateMember(ctx: AppContext, callerId: number, companyId: number, userId: number): Promise<{ message: string; data: MemberOut }> {
  const callerRole = await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  await ctx.db.transaction().execute(async (tx) => {
    const m = await loadTarget(ctx, tx, callerRole, callerId, companyId, userId, 'deactivate');
    if (m.role === 'deactivated') return;
    if (m.role === 'owner' && (await ownerCount(ctx, companyId, tx)) <= 1) throw fieldError('user_id', MSG_LAST_OWNER);
    await setMemberRole(ctx, companyId, userId, 'deactivated', m.role, tx);
  });
  // Live connections reconnect and join only the channels still allowed (canJoinChannel).
  ctx.realtime.revoke({ user: userId });
  return { message: MSG_USER_DEACTIVATED, data: await memberView(ctx, companyId, userId) };
}

/** `POST /companies/{companyId}/users/{userId}/activate`: gives back the role held before deactivation (`user` when unknown). */
export async function activateMember(ctx: AppContext, callerId: number, companyId: number, userId: number): Promise<{ message: string; data: MemberOut }> {
  const callerRole = await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  await ctx.db.transaction().execute(async (tx) => {
    const m = await loadTarget(ctx, tx, callerRole, callerId, companyId, userId, 'activate');
    if (m.role !== 'deactivated') return;
    await setMemberRole(ctx, companyId, userId, m.role_before_deactivation ?? 'user', null, tx);
  });
  return { message: MSG_USER_ACTIVATED, data: await memberView(ctx, companyId, userId) };
}

/** `DELETE /companies/{companyId}/users/{userId}`: removes the membership and the user's number assignments in this account. */
export async function removeMember(ctx: AppContext, callerId: number, companyId: number, userId: number): Promise<{ message: string }> {
  const callerRole = await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  await ctx.db.transaction().execute(async (tx) => {
    const m = await loadTarget(ctx, tx, callerRole, callerId, companyId, userId, 'remove');
    if (m.role === 'owner' && (await ownerCount(ctx, companyId, tx)) <= 1) throw fieldError('user_id', MSG_LAST_OWNER);
    await removeMembership(ctx, companyId, userId, tx);
    await clearUserNumbers(ctx, [companyId], userId, tx);
  });
  ctx.realtime.revoke({ user: userId });
  return { message: MSG_USER_REMOVED };
}
