/** SQL for `number_templates`. Every read and write carries the company id. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type TemplateRow = Row<'number_templates'>;

/** SQL for `number_templates`. */
export const numberTemplatesRepository = {
  async list(db: DbOrTx, companyId: number): Promise<TemplateRow[]> {
    return db.selectFrom('number_templates').selectAll().where('company_id', '=', companyId).orderBy('name').orderBy('id').execute();
  },
  async find(db: DbOrTx, companyId: number, id: number): Promise<TemplateRow | undefined> {
    return db.selectFrom('number_templates').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async insert(db: DbOrTx, row: NewRow<'number_templates'>): Promise<TemplateRow> {
    return db.insertInto('number_templates').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async update(db: DbOrTx, companyId: number, id: number, patch: RowUpdate<'number_templates'>): Promise<TemplateRow | undefined> {
    return db
      .updateTable('number_templates')
      .set({ ...patch, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  async delete(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
    const r = await db.deleteFrom('number_templates').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  /** Deletes the company's templates among `ids`; returns the ids deleted. */
  async deleteMany(db: DbOrTx, companyId: number, ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await db.deleteFrom('number_templates').where('company_id', '=', companyId).where('id', 'in', ids).returning('id').execute();
    return rows.map((r) => r.id);
  },
};
