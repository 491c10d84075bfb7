/**
 * Company tags (spec 002 "Other: tags CRUD"; spec 001 call tags; docs/workspace.md "Tags"): a tag has a name (unique
 * per company, case-insensitive) and a colour, and is used on calls (the calls module's `call_tags`, through
 * {@link ensureTagsByName} / {@link tagIdsByName} / {@link tagsByIds}), contacts and numbers (this module's `tag_links`).
 *
 * Access: any active member reads; owners, administrators and users create (agents tag calls as they work);
 * owners and administrators rename, recolour and delete. Another company's tag answers 404.
 *
 * Hooks (provided by higher modules in their setup, platform/hooks/registry.ts): `tagTargets` (keyed by entity type)
 * tells which contacts and numbers belong to a company (data-groups provides it over contacts and numbers);
 * `tagCallUsage` counts the calls per tag (calls).
 */
import { TAG_CREATED, TAG_DELETED, TAG_UPDATED, type Tag, type TaggableEntity } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { NotFoundError, ValidationError, deniedAsNotFound, fieldError } from '../../platform/http/errors.js';
import { AGENT_ROLES, MANAGER_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { tagsRepository as repo, type TagLite, type TagRow } from './tags.repository.js';

export type { TagLite };

/** Which of `ids` are the company's own entities of `type`. */
export type TagTargetCheck = HookFn<'tagTargets'>;
/** Calls per tag id in the company (the calls module owns `call_tags`). */
export type TagCallUsage = HookFn<'tagCallUsage'>;

/** Cleans tag names: trimmed, distinct case-insensitively, non-empty, order kept. */
export function cleanTagNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((n) => n.trim()).filter((n) => n && !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
}

function dto(r: TagRow, usage: Tag['usage']): Tag {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    name: r.name,
    color: r.color,
    usage,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

async function usageOf(ctx: AppContext, companyId: number): Promise<(id: number) => Tag['usage']> {
  const counter = ctx.hooks.get('tagCallUsage');
  const [links, calls] = await Promise.all([repo.linkCounts(ctx.db, companyId), counter ? counter(ctx, companyId) : Promise.resolve(null)]);
  const by = new Map<string, number>();
  for (const l of links) by.set(`${l.tag_id}:${l.entity_type}`, Number(l.n));
  return (id) => ({ calls: calls ? (calls.get(id) ?? 0) : null, contacts: by.get(`${id}:contact`) ?? 0, numbers: by.get(`${id}:number`) ?? 0 });
}

/** `GET /tags?companyId&search`: the company's tags by name with their usage. @throws 403 outside the company, 422 without it. */
export async function listTags(ctx: AppContext, userId: number, companyId: number | undefined, search?: string): Promise<{ data: Tag[] }> {
  if (!companyId) throw fieldError('companyId', 'The company id is required.');
  await assertCompanyAccess(ctx, userId, companyId);
  const [rows, usage] = await Promise.all([repo.list(ctx.db, companyId, search?.trim() || undefined), usageOf(ctx, companyId)]);
  return { data: rows.map((r) => dto(r, usage(Number(r.id)))) };
}

/** A tag of a company the user is a member of (404 otherwise); with `write`, 403 unless an owner or administrator. */
async function tagForUser(ctx: AppContext, userId: number, id: number, write = true): Promise<TagRow> {
  const t = await repo.find(ctx.db, id);
  if (!t) throw new NotFoundError('Tag');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, Number(t.company_id)), 'Tag');
  if (write) await assertCompanyAccess(ctx, userId, Number(t.company_id), MANAGER_ROLES);
  return t;
}

async function oneDto(ctx: AppContext, r: TagRow): Promise<Tag> {
  return dto(r, (await usageOf(ctx, Number(r.company_id)))(Number(r.id)));
}

/** `GET /tags/{id}`. @throws NotFoundError 404 (unknown or another company's). */
export async function getTag(ctx: AppContext, userId: number, id: number): Promise<{ data: Tag }> {
  return { data: await oneDto(ctx, await tagForUser(ctx, userId, id, false)) };
}

const taken = () => new ValidationError({ name: ['The name has already been taken.'] });

/** `POST /tags` {companyId, name, color?}. @throws 403 (reporting, billing, outsiders), 422 when the name is taken. */
export async function createTag(
  ctx: AppContext,
  userId: number,
  input: { companyId: number; name: string; color?: string },
): Promise<{ message: string; data: Tag }> {
  await assertCompanyAccess(ctx, userId, input.companyId, AGENT_ROLES);
  const row = await repo.insert(ctx.db, input.companyId, input.name, input.color?.toLowerCase());
  if (!row) throw taken();
  return { message: TAG_CREATED, data: await oneDto(ctx, row) };
}

/** `PUT /tags/{id}` {name?, color?} (owners, administrators). @throws 404, 422 (taken name, nothing to change). */
export async function updateTag(
  ctx: AppContext,
  userId: number,
  id: number,
  input: { name?: string; color?: string },
): Promise<{ message: string; data: Tag }> {
  const t = await tagForUser(ctx, userId, id);
  if (input.name === undefined && input.color === undefined) throw fieldError('name', 'Nothing to update.');
  if (input.name !== undefined) {
    const same = await repo.findByName(ctx.db, Number(t.company_id), input.name);
    if (same && Number(same.id) !== Number(t.id)) throw taken();
  }
  const row = await repo.update(ctx.db, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.color ? { color: input.color.toLowerCase() } : {}),
  });
  return { message: TAG_UPDATED, data: await oneDto(ctx, row) };
}

/** `DELETE /tags/{id}` (owners, administrators): removed from every call, contact and number too. @throws 404. */
export async function deleteTag(ctx: AppContext, userId: number, id: number): Promise<{ message: string }> {
  await tagForUser(ctx, userId, id);
  await repo.delete(ctx.db, id);
  return { message: TAG_DELETED };
}

async function assertTarget(ctx: AppContext, companyId: number, type: TaggableEntity, id: number): Promise<void> {
  const check = ctx.hooks.of('tagTargets', type);
  if (!check) throw new Error(`Nothing provides the 'tagTargets' hook for ${type}`);
  if (!(await check(ctx, companyId, [id])).has(id)) throw new NotFoundError(type === 'contact' ? 'Contact' : 'Number');
}

/** `GET /tags/links?companyId&entityType&entityId`: the tags on a contact or number. @throws 403, 404 (not the company's). */
export async function entityTags(
  ctx: AppContext,
  userId: number,
  q: { companyId: number; entityType: TaggableEntity; entityId: number },
): Promise<{ data: TagLite[] }> {
  await assertCompanyAccess(ctx, userId, q.companyId);
  await assertTarget(ctx, q.companyId, q.entityType, q.entityId);
  return { data: await repo.tagsOfEntity(ctx.db, q.entityType, q.entityId) };
}

/** `POST /tags/links`: puts the named tags (created when new) on a contact or number; answers its tags. @throws 403, 404. */
export async function addEntityTags(
  ctx: AppContext,
  userId: number,
  input: { companyId: number; entityType: TaggableEntity; entityId: number; tags: string[] },
): Promise<{ data: TagLite[] }> {
  await assertCompanyAccess(ctx, userId, input.companyId, AGENT_ROLES);
  await assertTarget(ctx, input.companyId, input.entityType, input.entityId);
  await ctx.db.transaction().execute(async (tx) => {
    const tags = await ensureTagsByName(ctx, input.companyId, input.tags, tx);
    await repo.link(
      tx,
      input.companyId,
      input.entityType,
      input.entityId,
      tags.map((t) => t.id),
    );
  });
  return { data: await repo.tagsOfEntity(ctx.db, input.entityType, input.entityId) };
}

/** `DELETE /tags/links`: takes the named tags off a contact or number (the tags stay). @throws 403, 404. */
export async function removeEntityTags(
  ctx: AppContext,
  userId: number,
  input: { companyId: number; entityType: TaggableEntity; entityId: number; tags: string[] },
): Promise<{ data: TagLite[] }> {
  await assertCompanyAccess(ctx, userId, input.companyId, AGENT_ROLES);
  await assertTarget(ctx, input.companyId, input.entityType, input.entityId);
  await repo.unlink(ctx.db, input.entityType, input.entityId, await repo.idsByName(ctx.db, input.companyId, cleanTagNames(input.tags)));
  return { data: await repo.tagsOfEntity(ctx.db, input.entityType, input.entityId) };
}

// --- for other modules (no access check: callers checked the company) ---

/**
 * Finds or creates the company's tags by name (case-insensitive match; a new tag keeps the name as given), in `db`
 * (the caller's transaction). Names are cleaned first ({@link cleanTagNames}).
 */
export async function ensureTagsByName(ctx: AppContext, companyId: number, names: readonly string[], db: DbOrTx = ctx.db): Promise<TagLite[]> {
  const out: TagLite[] = [];
  for (const name of cleanTagNames(names)) {
    const row = (await repo.findByName(db, companyId, name)) ?? (await repo.insert(db, companyId, name)) ?? (await repo.findByName(db, companyId, name));
    if (!row) throw new Error(`Tag ${name} vanished while being created`);
    out.push({ id: Number(row.id), name: row.name, color: row.color });
  }
  return out;
}

/** Ids of the company's tags among `names` (cleaned, case-insensitive); unknown names are absent. */
export async function tagIdsByName(ctx: AppContext, companyId: number, names: readonly string[], db: DbOrTx = ctx.db): Promise<number[]> {
  return repo.idsByName(db, companyId, cleanTagNames(names));
}

/** The tags of `ids` (id, name, colour), by name. */
export async function tagsByIds(ctx: AppContext, ids: readonly number[], db: DbOrTx = ctx.db): Promise<TagLite[]> {
  return repo.byIds(db, [...new Set(ids)]);
}

/** id → name of every tag of `companyIds` (reports and exports). */
export async function tagNamesOfCompanies(ctx: AppContext, companyIds: readonly number[]): Promise<Map<number, string>> {
  return new Map((await repo.namesOfCompanies(ctx.db, companyIds)).map((r) => [Number(r.id), r.name]));
}

/** The company's tags (id, name, colour) by name (pickers of other modules). */
export async function companyTags(ctx: AppContext, companyId: number): Promise<TagLite[]> {
  return (await repo.list(ctx.db, companyId)).map((r) => ({ id: Number(r.id), name: r.name, color: r.color }));
}
