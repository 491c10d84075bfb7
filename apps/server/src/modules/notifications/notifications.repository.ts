/** SQL for `notification_blocks` (modules/notifications owns it). */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type NotificationBlockRow = Row<'notification_blocks'>;

/** SQL for `notification_blocks`. */
export const notificationsRepository = {
  /** The user's blocks in the company, by number then channel type. */
  async list(db: DbOrTx, companyId: number, userId: number): Promise<NotificationBlockRow[]> {
    return db
      .selectFrom('notification_blocks')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .orderBy('number_id')
      .orderBy('channel_type')
      .execute();
  },
  /** Adds blocks (existing ones are kept). */
  async add(db: DbOrTx, rows: Array<{ company_id: number; user_id: number; number_id: number; channel_type: string }>): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('notification_blocks')
      .values(rows)
      .onConflict((oc) => oc.columns(['user_id', 'number_id', 'channel_type']).doNothing())
      .execute();
  },
  async remove(db: DbOrTx, companyId: number, userId: number, numberIds: number[], channelTypes: string[]): Promise<void> {
    if (numberIds.length === 0 || channelTypes.length === 0) return;
    await db
      .deleteFrom('notification_blocks')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .where('number_id', 'in', numberIds)
      .where('channel_type', 'in', channelTypes)
      .execute();
  },
};
