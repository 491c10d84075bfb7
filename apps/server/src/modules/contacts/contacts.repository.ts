/** SQL for `contacts` (modules/contacts owns it). */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type ContactRow = Row<'contacts'>;

export const contactsRepository = {
  /** The company's oldest contact with exactly this E.164 number (index contacts_company_number). */
  async findByNumber(db: DbOrTx, companyId: number, e164: string): Promise<ContactRow | undefined> {
    return db.selectFrom('contacts').selectAll().where('company_id', '=', companyId).where('number', '=', e164)
      .orderBy('id').limit(1).executeTakeFirst();
  },
  async findByIds(db: DbOrTx, companyId: number, ids: number[]): Promise<ContactRow[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('contacts').selectAll().where('company_id', '=', companyId).where('id', 'in', ids).execute();
  },
  /** Ids of the company's contacts whose name contains `text` (case-insensitive), at most `limit`. */
  async idsByName(db: DbOrTx, companyId: number, text: string, limit: number): Promise<number[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await db.selectFrom('contacts').select('id').where('company_id', '=', companyId).where('name', 'ilike', pattern).limit(limit).execute();
    return rows.map((r) => r.id);
  },
  async insert(db: DbOrTx, row: NewRow<'contacts'>): Promise<ContactRow> {
    return db.insertInto('contacts').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async setUnsubscribed(db: DbOrTx, companyId: number, id: number, unsubscribed: boolean): Promise<void> {
    await db.updateTable('contacts').set({ is_unsubscribed: unsubscribed, updated_at: new Date() }).where('company_id', '=', companyId).where('id', '=', id).execute();
  },
};
