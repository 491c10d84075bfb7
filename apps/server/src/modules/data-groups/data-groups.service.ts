/**
 * Data groups (spec 002 "Data group: id, entities"; "Data groups: GET, POST /data-group; GET, PUT, DELETE
 * /data-group/{id}; POST /data-group/{id}/attach and /detach (entities)"; docs/workspace.md "Data groups"): a named set
 * of a company's numbers, contacts, users and tags, used to filter reports and to scope work to a team. Entities of
 * another company (or unknown, or a released number) are refused with 422 per entity; a group's entity that was
 * deleted since is dropped from the answer.
 *
 * Access: any active member reads; owners and administrators change. Another company's group answers 404.
 * Names are unique per company (case-insensitive).
 */
import { DATA_GROUP_CREATED, DATA_GROUP_DELETED, DATA_GROUP_UPDATED, type DataGroup, type DataGroupEntityType } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { NotFoundError, ValidationError, deniedAsNotFound, fieldError, type FieldErrors } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess, listActiveMembers } from '../companies/companies.service.js';
import { findContactIdsByName, getContactsByIds } from '../contacts/contacts.service.js';
import { getCompanyNumbers, listCompanyNumbers } from '../numbers/numbers.service.js';
import { companyTags } from '../tags/tags.service.js';
import { getUserNames } from '../users/users.service.js';
import { dataGroupsRepository as repo, type DataGroupRow } from './data-groups.repository.js';

type Ref = { type: DataGroupEntityType; id: number };
type Labelled = Ref & { label: string };

/** Labels of the company's entities among `refs`; refs that are not the company's (or gone) are absent. */
export async function labelEntities(ctx: AppContext, companyId: number, refs: readonly Ref[]): Promise<Map<string, string>> {
  const ids = (t: DataGroupEntityType) => [...new Set(refs.filter((r) => r.type === t).map((r) => r.id))];
  const out = new Map<string, string>();
  const [numbers, contacts, members, tags] = await Promise.all([
    ids('number').length ? getCompanyNumbers(ctx, companyId, ids('number')) : Promise.resolve([]),
    ids('contact').length ? getContactsByIds(ctx, companyId, ids('contact')) : Promise.resolve(new Map()),
    ids('user').length ? listActiveMembers(ctx, companyId) : Promise.resolve([]),
    ids('tag').length ? companyTags(ctx, companyId) : Promise.resolve([]),
  ]);
  for (const n of numbers) out.set(`number:${n.id}`, n.label ? `${n.label} (${n.number})` : n.number);
  for (const [id, c] of contacts) out.set(`contact:${id}`, c.name || c.number || `Contact ${id}`);
  const wantedUsers = new Set(ids('user'));
  const memberIds = members.map((m) => m.userId).filter((id) => wantedUsers.has(id));
  const names = memberIds.length ? await getUserNames(ctx, memberIds) : new Map<number, string>();
  for (const id of memberIds) out.set(`user:${id}`, names.get(id) || `User ${id}`);
  const wantedTags = new Set(ids('tag'));
  for (const t of tags) if (wantedTags.has(t.id)) out.set(`tag:${t.id}`, t.name);
  return out;
}

async function dtos(ctx: AppContext, rows: DataGroupRow[]): Promise<DataGroup[]> {
  if (rows.length === 0) return [];
  const ents = await repo.entitiesOf(
    ctx.db,
    rows.map((r) => Number(r.id)),
  );
  const companyId = Number(rows[0]!.company_id);
  const labels = await labelEntities(
    ctx,
    companyId,
    ents.map((e) => ({ type: e.entity_type as DataGroupEntityType, id: Number(e.entity_id) })),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    companyId: Number(r.company_id),
    name: r.name,
    description: r.description,
    entities: ents
      .filter((e) => Number(e.data_group_id) === Number(r.id) && labels.has(`${e.entity_type}:${e.entity_id}`))
      .map((e) => ({ type: e.entity_type as DataGroupEntityType, id: Number(e.entity_id), label: labels.get(`${e.entity_type}:${e.entity_id}`)! })),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}

async function one(ctx: AppContext, r: DataGroupRow): Promise<DataGroup> {
  return (await dtos(ctx, [r]))[0]!;
}

/** @throws ValidationError 422 naming each entity (`entities.N`) that is not the company's. */
async function assertEntities(ctx: AppContext, companyId: number, refs: readonly Ref[]): Promise<void> {
  const labels = await labelEntities(ctx, companyId, refs);
  const errors: FieldErrors = {};
  refs.forEach((r, i) => {
    if (!labels.has(`${r.type}:${r.id}`)) errors[`entities.${i}`] = [`The ${r.type} ${r.id} is not one of the company's.`];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

async function groupForUser(ctx: AppContext, userId: number, id: number, write: boolean): Promise<DataGroupRow> {
  const g = await repo.find(ctx.db, id);
  if (!g) throw new NotFoundError('Data group');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, Number(g.company_id)), 'Data group');
  if (write) await assertCompanyAccess(ctx, userId, Number(g.company_id), MANAGER_ROLES);
  return g;
}

const taken = () => new ValidationError({ name: ['The name has already been taken.'] });

/** `GET /data-group?companyId`. @throws 403, 422 without a company. */
export async function listDataGroups(ctx: AppContext, userId: number, companyId: number | undefined): Promise<{ data: DataGroup[] }> {
  if (!companyId) throw fieldError('companyId', 'The company id is required.');
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: await dtos(ctx, await repo.list(ctx.db, companyId)) };
}

/** `GET /data-group/{id}`. @throws 404. */
export async function getDataGroup(ctx: AppContext, userId: number, id: number): Promise<{ data: DataGroup }> {
  return { data: await one(ctx, await groupForUser(ctx, userId, id, false)) };
}

/** `POST /data-group` {companyId, name, description?, entities?}. @throws 403, 422 (taken name, foreign entity). */
export async function createDataGroup(
  ctx: AppContext,
  userId: number,
  input: { companyId: number; name: string; description?: string; entities?: Ref[] },
): Promise<{ message: string; data: DataGroup }> {
  await assertCompanyAccess(ctx, userId, input.companyId, MANAGER_ROLES);
  if (await repo.findByName(ctx.db, input.companyId, input.name)) throw taken();
  if (input.entities?.length) await assertEntities(ctx, input.companyId, input.entities);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const g = await repo.insert(tx, { company_id: input.companyId, name: input.name, description: input.description ?? '', created_by: userId });
    await repo.attach(tx, Number(g.id), input.entities ?? []);
    return g;
  });
  return { message: DATA_GROUP_CREATED, data: await one(ctx, row) };
}

/** `PUT /data-group/{id}` {name?, description?}. @throws 404, 422. */
export async function updateDataGroup(
  ctx: AppContext,
  userId: number,
  id: number,
  input: { name?: string; description?: string },
): Promise<{ message: string; data: DataGroup }> {
  const g = await groupForUser(ctx, userId, id, true);
  if (input.name === undefined && input.description === undefined) throw fieldError('name', 'Nothing to update.');
  if (input.name !== undefined) {
    const same = await repo.findByName(ctx.db, Number(g.company_id), input.name);
    if (same && Number(same.id) !== id) throw taken();
  }
  return { message: DATA_GROUP_UPDATED, data: await one(ctx, await repo.update(ctx.db, id, input)) };
}

/** `DELETE /data-group/{id}`. @throws 404. */
export async function deleteDataGroup(ctx: AppContext, userId: number, id: number): Promise<{ message: string }> {
  await groupForUser(ctx, userId, id, true);
  await repo.delete(ctx.db, id);
  return { message: DATA_GROUP_DELETED };
}

/** `POST /data-group/{id}/attach` {entities}: adds them (already there: unchanged). @throws 404, 422 (foreign entity: nothing added). */
export async function attachEntities(ctx: AppContext, userId: number, id: number, entities: Ref[]): Promise<{ message: string; data: DataGroup }> {
  const g = await groupForUser(ctx, userId, id, true);
  await assertEntities(ctx, Number(g.company_id), entities);
  await repo.attach(ctx.db, id, entities);
  await repo.touch(ctx.db, id);
  return { message: DATA_GROUP_UPDATED, data: await one(ctx, (await repo.find(ctx.db, id))!) };
}

/** `POST /data-group/{id}/detach` {entities}: removes them (absent ones are ignored). @throws 404. */
export async function detachEntities(ctx: AppContext, userId: number, id: number, entities: Ref[]): Promise<{ message: string; data: DataGroup }> {
  await groupForUser(ctx, userId, id, true);
  await repo.detach(ctx.db, id, entities);
  await repo.touch(ctx.db, id);
  return { message: DATA_GROUP_UPDATED, data: await one(ctx, (await repo.find(ctx.db, id))!) };
}

/**
 * `GET /data-group/candidates?companyId&type&search`: what may be put in the company's groups, of one type, whose
 * label contains `search` (at most 50). @throws 403.
 */
export async function dataGroupCandidates(
  ctx: AppContext,
  userId: number,
  q: { companyId: number; type: DataGroupEntityType; search?: string },
): Promise<{ data: Labelled[] }> {
  await assertCompanyAccess(ctx, userId, q.companyId);
  const s = q.search?.trim().toLowerCase() ?? '';
  const match = (label: string) => !s || label.toLowerCase().includes(s);
  let refs: Ref[];
  if (q.type === 'number') refs = (await listCompanyNumbers(ctx, userId, q.companyId)).map((n) => ({ type: 'number', id: Number(n.id) }));
  else if (q.type === 'contact') refs = (await findContactIdsByName(ctx, q.companyId, s, 200)).map((id) => ({ type: 'contact', id }));
  else if (q.type === 'user') refs = (await listActiveMembers(ctx, q.companyId)).map((m) => ({ type: 'user', id: m.userId }));
  else refs = (await companyTags(ctx, q.companyId)).map((t) => ({ type: 'tag', id: t.id }));
  const labels = await labelEntities(ctx, q.companyId, refs);
  return {
    data: refs
      .map((r) => ({ ...r, label: labels.get(`${r.type}:${r.id}`) ?? '' }))
      .filter((r) => r.label && match(r.label))
      .slice(0, 50),
  };
}

/** Which of `ids` are the company's contacts (the tags module's check, registered in setup). */
export async function companyContactIds(ctx: AppContext, companyId: number, ids: number[]): Promise<Set<number>> {
  return new Set([...(await getContactsByIds(ctx, companyId, ids)).keys()].map(Number));
}

/** Which of `ids` are the company's active numbers (the tags module's check, registered in setup). */
export async function companyNumberIds(ctx: AppContext, companyId: number, ids: number[]): Promise<Set<number>> {
  return new Set((await getCompanyNumbers(ctx, companyId, ids)).map((n) => Number(n.id)));
}
