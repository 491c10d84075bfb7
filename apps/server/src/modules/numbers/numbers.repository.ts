/** SQL for the `numbers` table. Company-scoped reads take the company id in the WHERE clause. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type NumberRow = Row<'numbers'>;

export const numbersRepository = {
  async insert(db: DbOrTx, row: NewRow<'numbers'>): Promise<NumberRow> {
    return db.insertInto('numbers').values(row).returningAll().executeTakeFirstOrThrow();
  },
  /** Active numbers of a company, oldest first. */
  async listForCompany(db: DbOrTx, companyId: number): Promise<NumberRow[]> {
    return db.selectFrom('numbers').selectAll().where('company_id', '=', companyId).where('released_at', 'is', null).orderBy('id').execute();
  },
  async find(db: DbOrTx, id: number): Promise<NumberRow | undefined> {
    return db.selectFrom('numbers').selectAll().where('id', '=', id).where('released_at', 'is', null).executeTakeFirst();
  },
  async findForCompany(db: DbOrTx, companyId: number, id: number): Promise<NumberRow | undefined> {
    return db.selectFrom('numbers').selectAll().where('id', '=', id).where('company_id', '=', companyId).where('released_at', 'is', null).executeTakeFirst();
  },
  async findActiveByNumber(db: DbOrTx, e164: string): Promise<NumberRow | undefined> {
    return db.selectFrom('numbers').selectAll().where('number', '=', e164).where('released_at', 'is', null).executeTakeFirst();
  },
  async update(db: DbOrTx, id: number, patch: RowUpdate<'numbers'>): Promise<NumberRow> {
    return db.updateTable('numbers').set({ ...patch, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },
};
