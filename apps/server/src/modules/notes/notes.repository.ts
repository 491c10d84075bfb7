/** SQL for `notes` (migration 0003). */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type NoteRow = Row<'notes'>;

export const notesRepository = {
  async insert(db: DbOrTx, row: NewRow<'notes'>): Promise<NoteRow> {
    return db.insertInto('notes').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async find(db: DbOrTx, id: number): Promise<NoteRow | undefined> {
    return db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async update(db: DbOrTx, id: number, body: string): Promise<NoteRow> {
    return db.updateTable('notes').set({ body, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },
  async delete(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('notes').where('id', '=', id).execute();
  },
  async forModel(db: DbOrTx, companyId: number, modelType: string, modelId: number): Promise<NoteRow[]> {
    return db
      .selectFrom('notes')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('model_type', '=', modelType)
      .where('model_id', '=', modelId)
      .orderBy('id')
      .execute();
  },
  /** A company's newest `limit` notes created in [from, to) (either end optional), newest first, and how many there are (index 0038). */
  async newestOfCompany(db: DbOrTx, companyId: number, r: { from?: Date; to?: Date; limit: number }): Promise<{ rows: NoteRow[]; total: number }> {
    let q = db.selectFrom('notes').where('company_id', '=', companyId);
    if (r.from) q = q.where('created_at', '>=', r.from);
    if (r.to) q = q.where('created_at', '<', r.to);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(r.limit).execute(),
      q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
};
