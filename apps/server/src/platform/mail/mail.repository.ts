/** SQL for `mail_outbox` (platform/mail owns it). */
import type { DbOrTx } from '../db/db.js';

export type OutboxRow = {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  transport: string;
  created_at: Date;
  delivered_at: Date | null;
};

export const mailRepository = {
  async insert(
    db: DbOrTx,
    row: { to_address: string; subject: string; text_body: string; html_body: string | null; transport: string; delivered_at: Date | null },
  ): Promise<number> {
    return (await db.insertInto('mail_outbox').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  async find(db: DbOrTx, id: number): Promise<OutboxRow | undefined> {
    return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async markDelivered(db: DbOrTx, id: number): Promise<void> {
    await db.updateTable('mail_outbox').set({ delivered_at: new Date() }).where('id', '=', id).execute();
  },
  /** Newest first; `limit` rows; only those addressed to `to` (case-insensitive) when given. */
  async list(db: DbOrTx, limit = 50, to?: string): Promise<OutboxRow[]> {
    let q = db.selectFrom('mail_outbox').selectAll();
    if (to !== undefined) q = q.where((eb) => eb(eb.fn('lower', ['to_address']), '=', to.trim().toLowerCase()));
    return q.orderBy('id', 'desc').limit(limit).execute();
  },
};
