/** SQL for `port_requests`. Company-scoped reads carry the company id. */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type PortRow = Row<'port_requests'>;

/** SQL for `port_requests`. */
export const portsRepository = {
  async list(db: DbOrTx, companyId: number): Promise<PortRow[]> {
    return db.selectFrom('port_requests').selectAll().where('company_id', '=', companyId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  },
  async insert(db: DbOrTx, row: NewRow<'port_requests'>): Promise<PortRow> {
    return db.insertInto('port_requests').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async find(db: DbOrTx, id: number): Promise<PortRow | undefined> {
    return db.selectFrom('port_requests').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** Moves the request from one of `from` to the new state; undefined when it was not in `from`. */
  async transition(db: DbOrTx, id: number, from: string[], patch: RowUpdate<'port_requests'>): Promise<PortRow | undefined> {
    return db
      .updateTable('port_requests')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .where('state', 'in', from)
      .returningAll()
      .executeTakeFirst();
  },
  /** The company's completed requests listing any of `e164s`, newest completion first. */
  async completedWithAny(db: DbOrTx, companyId: number, e164s: string[]): Promise<PortRow[]> {
    if (!e164s.length) return [];
    return db
      .selectFrom('port_requests')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('state', '=', 'completed')
      .where(sql<boolean>`numbers ?| ${sql.val(e164s)}::text[]`)
      .orderBy('completed_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },
};
