/** SQL for `tags` (company tags, migration 0003 + 0023) and `tag_links` (tags on contacts and numbers). The tags module owns these tables. */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type TagRow = Row<'tags'>;
export type TagLite = { id: number; name: string; color: string };

const lower = sql<string>`lower(name)`;

export const tagsRepository = {
  /** The company's tags by name (case-insensitive), optionally those whose name contains `search`. */
  async list(db: DbOrTx, companyId: number, search?: string): Promise<TagRow[]> {
    let q = db.selectFrom('tags').selectAll().where('company_id', '=', companyId);
    if (search) q = q.where(lower, 'like', `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return q.orderBy(lower).orderBy('id').execute();
  },
  async find(db: DbOrTx, id: number): Promise<TagRow | undefined> {
    return db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async findByName(db: DbOrTx, companyId: number, name: string): Promise<TagRow | undefined> {
    return db.selectFrom('tags').selectAll().where('company_id', '=', companyId).where(lower, '=', name.toLowerCase()).executeTakeFirst();
  },
  /** Inserts a tag; undefined when the company has one of that name already (unique on lower(name)). */
  async insert(db: DbOrTx, companyId: number, name: string, color?: string): Promise<TagRow | undefined> {
    return db
      .insertInto('tags')
      .values({ company_id: companyId, name, ...(color ? { color } : {}) })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
  },
  async update(db: DbOrTx, id: number, patch: { name?: string; color?: string }): Promise<TagRow> {
    return db
      .updateTable('tags')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** Deletes the tag; its call tags and links go with it (foreign keys cascade). */
  async delete(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('tags').where('id', '=', id).execute();
  },
  /** Ids of the company's tags among `names` (case-insensitive). */
  async idsByName(db: DbOrTx, companyId: number, names: string[]): Promise<number[]> {
    if (names.length === 0) return [];
    const rows = await db
      .selectFrom('tags')
      .select('id')
      .where('company_id', '=', companyId)
      .where(
        lower,
        'in',
        names.map((n) => n.toLowerCase()),
      )
      .execute();
    return rows.map((r) => Number(r.id));
  },
  /** Tags by id, by name. */
  async byIds(db: DbOrTx, ids: readonly number[]): Promise<TagLite[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom('tags')
      .select(['id', 'name', 'color'])
      .where('id', 'in', [...ids])
      .orderBy(lower)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, color: r.color }));
  },
  /** id → name of every tag of `companyIds`. */
  async namesOfCompanies(db: DbOrTx, companyIds: readonly number[]): Promise<Array<{ id: number; name: string }>> {
    if (companyIds.length === 0) return [];
    return db
      .selectFrom('tags')
      .select(['id', 'name'])
      .where('company_id', 'in', [...companyIds])
      .execute();
  },
  /** Per tag of the company: how many contacts and numbers carry it. */
  async linkCounts(db: DbOrTx, companyId: number): Promise<Array<{ tag_id: number; entity_type: string; n: string }>> {
    return db
      .selectFrom('tag_links')
      .select(['tag_id', 'entity_type', (eb) => eb.fn.countAll<string>().as('n')])
      .where('company_id', '=', companyId)
      .groupBy(['tag_id', 'entity_type'])
      .execute();
  },
  async link(db: DbOrTx, companyId: number, entityType: string, entityId: number, tagIds: number[]): Promise<void> {
    if (tagIds.length === 0) return;
    await db
      .insertInto('tag_links')
      .values(tagIds.map((tag_id) => ({ tag_id, company_id: companyId, entity_type: entityType, entity_id: entityId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  },
  async unlink(db: DbOrTx, entityType: string, entityId: number, tagIds: number[]): Promise<void> {
    if (tagIds.length === 0) return;
    await db.deleteFrom('tag_links').where('entity_type', '=', entityType).where('entity_id', '=', entityId).where('tag_id', 'in', tagIds).execute();
  },
  /** The tags on one contact or number, by name. */
  async tagsOfEntity(db: DbOrTx, entityType: string, entityId: number): Promise<TagLite[]> {
    const rows = await db
      .selectFrom('tag_links')
      .innerJoin('tags', 'tags.id', 'tag_links.tag_id')
      .select(['tags.id', 'tags.name', 'tags.color'])
      .where('tag_links.entity_type', '=', entityType)
      .where('tag_links.entity_id', '=', entityId)
      .orderBy(sql`lower(tags.name)`)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, color: r.color }));
  },
};
