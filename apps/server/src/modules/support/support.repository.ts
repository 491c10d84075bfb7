/** SQL for `support_tickets` (migration 0023). The support module owns this table. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type SupportTicketRow = Row<'support_tickets'>;

export const supportRepository = {
  async insert(db: DbOrTx, row: NewRow<'support_tickets'>): Promise<SupportTicketRow> {
    return db.insertInto('support_tickets').values(row).returningAll().executeTakeFirstOrThrow();
  },
  /** A person's tickets in a company, newest first, at most `limit`. */
  async listMine(db: DbOrTx, companyId: number, userId: number, limit: number): Promise<SupportTicketRow[]> {
    return db
      .selectFrom('support_tickets')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },
};
