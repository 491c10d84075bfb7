/** SQL for `eav_attributes` and `eav_values` (modules/custom-fields owns them). */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type AttributeRow = Row<'eav_attributes'>;
export type ValueRow = Row<'eav_values'>;

/** SQL for custom-field attributes and values. */
export const customFieldsRepository = {
  async findAttribute(db: DbOrTx, id: number): Promise<AttributeRow | undefined> {
    return db.selectFrom('eav_attributes').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async findAttributes(db: DbOrTx, ids: number[]): Promise<AttributeRow[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('eav_attributes').selectAll().where('id', 'in', ids).execute();
  },
  /** Base attributes (not overrides) of a company and/or a business unit, optionally of one entity type. */
  async listScoped(db: DbOrTx, scope: { companyId?: number | null; businessUnitId?: number | null }, entityType?: number): Promise<AttributeRow[]> {
    let q = db.selectFrom('eav_attributes').selectAll().where('parent_id', 'is', null);
    q = q.where((eb) =>
      eb.or([
        ...(scope.companyId ? [eb('company_id', '=', scope.companyId)] : []),
        ...(scope.businessUnitId ? [eb('business_unit_id', '=', scope.businessUnitId)] : []),
        eb.lit(false),
      ]),
    );
    if (entityType !== undefined) q = q.where('entity_type', '=', entityType);
    return q.orderBy('name').orderBy('id').execute();
  },
  /** Company overrides of the given base attributes. */
  async overridesFor(db: DbOrTx, parentIds: number[], companyId?: number): Promise<AttributeRow[]> {
    if (parentIds.length === 0) return [];
    let q = db.selectFrom('eav_attributes').selectAll().where('parent_id', 'in', parentIds);
    if (companyId !== undefined) q = q.where('company_id', '=', companyId);
    return q.orderBy('id').execute();
  },
  async insertAttribute(db: DbOrTx, row: NewRow<'eav_attributes'>): Promise<AttributeRow> {
    return db.insertInto('eav_attributes').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updateAttribute(db: DbOrTx, id: number, patch: RowUpdate<'eav_attributes'>): Promise<AttributeRow> {
    return db
      .updateTable('eav_attributes')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async deleteAttribute(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('eav_attributes').where('id', '=', id).execute();
  },
  async countStats(
    db: DbOrTx,
    attributeId: number,
  ): Promise<{ total: number; entities: number; companies: number; perValue: Array<{ value: unknown; count: number }> }> {
    const t = await db
      .selectFrom('eav_values')
      .select([
        sql<number>`count(*)::int`.as('total'),
        sql<number>`count(distinct entity_id)::int`.as('entities'),
        sql<number>`count(distinct company_id)::int`.as('companies'),
      ])
      .where('attribute_id', '=', attributeId)
      .executeTakeFirstOrThrow();
    const per = await db
      .selectFrom('eav_values')
      .select(['value', sql<number>`count(*)::int`.as('count')])
      .where('attribute_id', '=', attributeId)
      .groupBy('value')
      .orderBy(sql`count(*)`, 'desc')
      .limit(100)
      .execute();
    return { ...t, perValue: per.map((p) => ({ value: p.value, count: p.count })) };
  },
  async valuesOf(db: DbOrTx, entityType: number, entityIds: number[]): Promise<Array<ValueRow & { name: string; type: string }>> {
    if (entityIds.length === 0) return [];
    return db
      .selectFrom('eav_values as v')
      .innerJoin('eav_attributes as a', 'a.id', 'v.attribute_id')
      .selectAll('v')
      .select(['a.name', 'a.type'])
      .where('v.entity_type', '=', entityType)
      .where('v.entity_id', 'in', entityIds)
      .orderBy('a.name')
      .execute();
  },
  async upsertValue(
    db: DbOrTx,
    row: { attribute_id: number; entity_type: number; entity_id: number; company_id: number | null; value: unknown },
  ): Promise<void> {
    await db
      .insertInto('eav_values')
      .values({ ...row, value: JSON.stringify(row.value) })
      .onConflict((oc) =>
        oc.columns(['attribute_id', 'entity_id']).doUpdateSet({ value: JSON.stringify(row.value), updated_at: new Date(), company_id: row.company_id }),
      )
      .execute();
  },
  async deleteValuesOf(db: DbOrTx, entityType: number, entityIds: number[]): Promise<void> {
    await db.deleteFrom('eav_values').where('entity_type', '=', entityType).where('entity_id', 'in', entityIds).execute();
  },
  /**
   * Base attributes (not overrides) among `ids` usable by a company: its own and those of its
   * business unit `organizationId` (null: none).
   */
  async visibleToCompany(db: DbOrTx, companyId: number, organizationId: number | null, ids: number[]): Promise<AttributeRow[]> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('eav_attributes')
      .selectAll()
      .where('id', 'in', ids)
      .where('parent_id', 'is', null)
      .where((eb) => eb.or([eb('company_id', '=', companyId), ...(organizationId !== null ? [eb('business_unit_id', '=', organizationId)] : [])]))
      .execute();
  },
  async deleteValue(db: DbOrTx, attributeId: number, entityId: number): Promise<void> {
    await db.deleteFrom('eav_values').where('attribute_id', '=', attributeId).where('entity_id', '=', entityId).execute();
  },
};
