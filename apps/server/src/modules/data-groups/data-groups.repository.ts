/** SQL for `data_groups` and `data_group_entities` (migration 0023). The data-groups module owns these tables. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type DataGroupRow = Row<'data_groups'>;
export type DataGroupEntityRow = Row<'data_group_entities'>;

export const dataGroupsRepository = {
  async list(db: DbOrTx, companyId: number): Promise<DataGroupRow[]> {
    return db.selectFrom('data_groups').selectAll().where('company_id', '=', companyId).orderBy('name').orderBy('id').execute();
  },
  async find(db: DbOrTx, id: number): Promise<DataGroupRow | undefined> {
    return db.selectFrom('data_groups').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async findByName(db: DbOrTx, companyId: number, name: string): Promise<DataGroupRow | undefined> {
    return db
      .selectFrom('data_groups')
      .selectAll()
      .where('company_id', '=', companyId)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
      .executeTakeFirst();
  },
  async insert(db: DbOrTx, row: { company_id: number; name: string; description: string; created_by: number }): Promise<DataGroupRow> {
    return db.insertInto('data_groups').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async update(db: DbOrTx, id: number, patch: { name?: string; description?: string }): Promise<DataGroupRow> {
    return db
      .updateTable('data_groups')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async touch(db: DbOrTx, id: number): Promise<void> {
    await db.updateTable('data_groups').set({ updated_at: new Date() }).where('id', '=', id).execute();
  },
  async delete(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('data_groups').where('id', '=', id).execute();
  },
  async entitiesOf(db: DbOrTx, groupIds: readonly number[]): Promise<DataGroupEntityRow[]> {
    if (groupIds.length === 0) return [];
    return db
      .selectFrom('data_group_entities')
      .selectAll()
      .where('data_group_id', 'in', [...groupIds])
      .orderBy('entity_type')
      .orderBy('created_at')
      .orderBy('entity_id')
      .execute();
  },
  async attach(db: DbOrTx, groupId: number, entities: Array<{ type: string; id: number }>): Promise<void> {
    if (entities.length === 0) return;
    await db
      .insertInto('data_group_entities')
      .values(entities.map((e) => ({ data_group_id: groupId, entity_type: e.type, entity_id: e.id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  },
  async detach(db: DbOrTx, groupId: number, entities: Array<{ type: string; id: number }>): Promise<void> {
    for (const type of new Set(entities.map((e) => e.type))) {
      const ids = entities.filter((e) => e.type === type).map((e) => e.id);
      await db.deleteFrom('data_group_entities').where('data_group_id', '=', groupId).where('entity_type', '=', type).where('entity_id', 'in', ids).execute();
    }
  },
};
