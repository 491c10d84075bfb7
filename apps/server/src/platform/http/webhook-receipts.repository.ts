/** SQL for `webhook_receipts` (platform/http owns it). */
import { sql } from 'kysely';
import type { DbOrTx } from '../db/db.js';

export const webhookReceiptsRepository = {
  /** Serializes concurrent deliveries of one key until the transaction ends. */
  async lock(db: DbOrTx, key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db);
  },
  async find(db: DbOrTx, key: string) {
    return db.selectFrom('webhook_receipts').select(['status_code', 'content_type', 'body']).where('key', '=', key).executeTakeFirst();
  },
  async insert(db: DbOrTx, row: { key: string; status_code: number; content_type: string; body: string }): Promise<void> {
    await db.insertInto('webhook_receipts').values(row).onConflict((oc) => oc.column('key').doNothing()).execute();
  },
};
