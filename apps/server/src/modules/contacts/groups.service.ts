/**
 * Contact groups and contact labels of the contacts module (spec 001 §3 "Contact group", "Contact
 * label"; §5 bulk selections; §7 "Groups and labels"): the contact book owns contacts, groups,
 * labels and memberships. Groups are soft-deleted (`deleted_at`); their counters
 * (contact_count, active_count, invalid_count, unsubscriber_count) are computed on read.
 * `listGroupRecipients` / `countGroupRecipients` are the campaign engine's view of a send's audience.
 */
import type { BulkSelection, ContactFilters } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { NotFoundError, ValidationError, deniedAsNotFound } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { contactIdsQuery, resolveCompanyId } from './contacts.scope.js';
import { groupsRepository, type GroupCounters, type GroupRow, type LabelRow, type RecipientRow } from './groups.repository.js';

export type GroupRecipient = RecipientRow;

/**
 * The distinct contacts of the company that belong to any of `groupIds` (deleted groups and other
 * companies' groups are ignored), ordered by id, keyset-paged: pass the last id of a page as
 * `afterContactId` to get the next one. Unsubscribed and invalid contacts are included (flags set)
 * so the caller can skip and count them. No access check: the caller (campaign engine) owns it.
 */
export async function listGroupRecipients(
  ctx: AppContext,
  companyId: number,
  groupIds: number[],
  opts: { afterContactId?: number; limit: number },
): Promise<{
  contacts: Array<{
    id: number;
    name: string;
    first_name: string;
    last_name: string;
    number: string | null;
    email: string | null;
    is_unsubscribed: boolean;
    is_invalid: boolean;
  }>;
}> {
  const contacts = await groupsRepository.recipients(ctx.db, companyId, [...new Set(groupIds)], opts.afterContactId ?? 0, Math.max(1, opts.limit));
  return { contacts };
}

/** Counters over the distinct contacts of the groups: total, active (neither unsubscribed nor invalid), unsubscribed, invalid. */
export async function countGroupRecipients(
  ctx: AppContext,
  companyId: number,
  groupIds: number[],
): Promise<{ total: number; active: number; unsubscribed: number; invalid: number }> {
  return groupsRepository.countRecipients(ctx.db, companyId, [...new Set(groupIds)]);
}

export type GroupOut = Omit<GroupRow, 'created_at' | 'updated_at' | 'deleted_at'> &
  GroupCounters & { contacts_link: string; created_at: string; updated_at: string; deleted_at: string | null };

function toGroupOut(g: GroupRow & GroupCounters): GroupOut {
  return {
    ...g,
    created_at: g.created_at.toISOString(),
    updated_at: g.updated_at.toISOString(),
    deleted_at: g.deleted_at?.toISOString() ?? null,
    contacts_link: `/contacts?group_id=${g.id}`,
  };
}

/** The company's live groups with counters, by name (`search` filters by name). */
export async function listGroups(ctx: AppContext, userId: number, companyId: number | undefined, search?: string): Promise<{ data: GroupOut[] }> {
  const cid = await resolveCompanyId(ctx, userId, companyId);
  return { data: (await groupsRepository.listGroups(ctx.db, cid, search)).map(toGroupOut) };
}

/** Loads a group the user may see. @throws NotFoundError when missing, deleted or in a company the user is not in. */
async function loadGroup(ctx: AppContext, userId: number, groupId: number, write: boolean, companyId?: number): Promise<GroupRow & GroupCounters> {
  const ownerId = await groupsRepository.companyOfLiveGroup(ctx.db, groupId);
  if (ownerId === undefined || (companyId !== undefined && ownerId !== companyId)) throw new NotFoundError('Group');
  const access = assertCompanyAccess(ctx, userId, ownerId, write ? AGENT_ROLES : undefined);
  if (companyId !== undefined) await access;
  else await deniedAsNotFound(access, 'Group');
  const g = await groupsRepository.findGroup(ctx.db, ownerId, groupId);
  if (!g) throw new NotFoundError('Group');
  return g;
}

/** `GET /api/groups/{id}`: one live group with counters. @throws NotFoundError (404) when missing or not the caller's. */
export async function getGroup(ctx: AppContext, userId: number, groupId: number): Promise<GroupOut> {
  return toGroupOut(await loadGroup(ctx, userId, groupId, false));
}

/**
 * `POST /api/groups` (agents): a new empty group in `company_id` (default: the caller's first company).
 * @throws ForbiddenError (403) when not an agent of the company.
 */
export async function createGroup(ctx: AppContext, userId: number, input: { company_id?: number; name: string; link?: string | null }): Promise<GroupOut> {
  const companyId = await resolveCompanyId(ctx, userId, input.company_id, AGENT_ROLES);
  const g = await groupsRepository.insertGroup(ctx.db, { company_id: companyId, name: input.name.trim(), user_id: userId, link: input.link ?? null });
  return toGroupOut({ ...g, contact_count: 0, active_count: 0, invalid_count: 0, unsubscriber_count: 0 });
}

/** `PATCH /api/groups/{id}` (agents): renames the group and/or changes its link. @throws 403, 404. */
export async function updateGroup(ctx: AppContext, userId: number, groupId: number, input: { name?: string; link?: string | null }): Promise<GroupOut> {
  const g = await loadGroup(ctx, userId, groupId, true);
  await groupsRepository.updateGroup(ctx.db, g.company_id, g.id, {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.link !== undefined ? { link: input.link } : {}),
  });
  return toGroupOut((await groupsRepository.findGroup(ctx.db, g.company_id, g.id))!);
}

/** Soft-deletes the group (its memberships go; contacts stay). */
export async function deleteGroup(ctx: AppContext, userId: number, groupId: number): Promise<{ message: string }> {
  const g = await loadGroup(ctx, userId, groupId, true);
  await ctx.db.transaction().execute((tx) => groupsRepository.softDeleteGroup(tx, g.company_id, g.id));
  return { message: 'Group deleted successfully' };
}

/** `POST /groups/{companyId}/{groupId}/all-contacts`: adds every company contact matching `filters`. */
export async function addAllContactsToGroup(
  ctx: AppContext,
  userId: number,
  companyId: number,
  groupId: number,
  filters: ContactFilters = {},
): Promise<{ message: string; count: number }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const g = await loadGroup(ctx, userId, groupId, true, companyId);
  const count = await groupsRepository.addMembersFromQuery(ctx.db, g.id, contactIdsQuery(ctx.db, companyId, { all: true, filters }));
  return { message: 'Contacts added to the group', count };
}

/** Adds (`add`) or removes the selected contacts (ids or all + filters) to/from one group. */
export async function changeGroupMembers(
  ctx: AppContext,
  userId: number,
  groupId: number,
  selection: BulkSelection,
  add: boolean,
): Promise<{ message: string; count: number }> {
  const g = await loadGroup(ctx, userId, groupId, true);
  const q = contactIdsQuery(ctx.db, g.company_id, selection);
  const count = add ? await groupsRepository.addMembersFromQuery(ctx.db, g.id, q) : await groupsRepository.removeMembersFromQuery(ctx.db, g.id, q);
  return { message: add ? 'Contacts added to the group' : 'Contacts removed from the group', count };
}

// ---------------------------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------------------------

/** `GET /api/companies/{id}/contactLabels`: the company's labels by text. @throws ForbiddenError (403). */
export async function listLabels(ctx: AppContext, userId: number, companyId: number): Promise<{ data: Array<{ id: number; label: string }> }> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: (await groupsRepository.listLabels(ctx.db, companyId)).map((l) => ({ id: l.id, label: l.label })) };
}

/** @throws ValidationError (422) on `label` when the company already has it (case-insensitive). */
export async function createLabel(ctx: AppContext, userId: number, companyId: number, label: string): Promise<{ id: number; label: string }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const l = await groupsRepository.insertLabel(ctx.db, companyId, label.trim());
  if (!l) throw new ValidationError({ label: ['The label has already been taken.'] });
  return { id: l.id, label: l.label };
}

async function loadLabel(ctx: AppContext, userId: number, companyId: number, labelId: number): Promise<LabelRow> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const l = await groupsRepository.findLabel(ctx.db, companyId, labelId);
  if (!l) throw new NotFoundError('Label');
  return l;
}

/** `DELETE /api/companies/{id}/contactLabels/{labelId}` (agents). @throws 403, NotFoundError (404). */
export async function deleteLabel(ctx: AppContext, userId: number, companyId: number, labelId: number): Promise<{ message: string }> {
  const l = await loadLabel(ctx, userId, companyId, labelId);
  await groupsRepository.deleteLabel(ctx.db, companyId, l.id);
  return { message: 'Label deleted successfully' };
}

/** bulkAddLabel / bulkRemoveLabel over a selection (ids or all + filters). */
export async function changeLabelMembers(
  ctx: AppContext,
  userId: number,
  companyId: number,
  labelId: number,
  selection: BulkSelection,
  add: boolean,
): Promise<{ message: string; count: number }> {
  const l = await loadLabel(ctx, userId, companyId, labelId);
  const q = contactIdsQuery(ctx.db, companyId, selection);
  const count = add ? await groupsRepository.addLabelFromQuery(ctx.db, l.id, q) : await groupsRepository.removeLabelFromQuery(ctx.db, l.id, q);
  return { message: add ? 'Label added' : 'Label removed', count };
}

// ---------------------------------------------------------------------------------------------
// For the contact use cases (contacts.service.ts, contacts.import.ts) and the campaign engine
// ---------------------------------------------------------------------------------------------

/** Groups and labels of each contact (contact id → lists). */
export async function membershipsOfContacts(
  ctx: AppContext,
  contactIds: number[],
  db: DbOrTx = ctx.db,
): Promise<{ groups: Map<number, Array<{ id: number; name: string }>>; labels: Map<number, Array<{ id: number; label: string }>> }> {
  const [groups, labels] = await Promise.all([groupsRepository.groupsOfContacts(db, contactIds), groupsRepository.labelsOfContacts(db, contactIds)]);
  return { groups, labels };
}

/** @throws ValidationError (422) on `field` when a group id is not a live group of the company. */
export async function assertGroupIds(ctx: AppContext, companyId: number, ids: number[], field = 'groups', db: DbOrTx = ctx.db): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = await groupsRepository.existingGroupIds(db, companyId, unique);
  if (found.length !== unique.length) throw new ValidationError({ [field]: ['The selected group is invalid.'] });
  return unique;
}

/** @throws ValidationError (422) on `labels` when a label id is not the company's. */
export async function assertLabelIds(ctx: AppContext, companyId: number, ids: number[], db: DbOrTx = ctx.db): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = await groupsRepository.existingLabelIds(db, companyId, unique);
  if (found.length !== unique.length) throw new ValidationError({ labels: ['The selected label is invalid.'] });
  return unique;
}

/** Adds the contacts (already the company's) to the groups (already validated), inside `tx`. */
export async function addContactsToGroups(ctx: AppContext, groupIds: number[], contactIds: number[], tx: DbOrTx = ctx.db): Promise<void> {
  await groupsRepository.addMembers(tx, groupIds, contactIds);
}

/** Replaces a contact's groups / labels (ids already validated). */
export async function setContactMemberships(
  ctx: AppContext,
  companyId: number,
  contactId: number,
  input: { groups?: number[]; labels?: number[] },
  tx: DbOrTx = ctx.db,
): Promise<void> {
  if (input.groups) await groupsRepository.setContactGroups(tx, companyId, contactId, input.groups);
  if (input.labels) await groupsRepository.setContactLabels(tx, companyId, contactId, input.labels);
}
