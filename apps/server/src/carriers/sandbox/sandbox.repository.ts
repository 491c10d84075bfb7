/** SQL for the sandbox carrier's tables: sandbox_numbers, sandbox_messages, sandbox_calls, sandbox_call_redirects. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type SandboxMessageRow = Row<'sandbox_messages'>;

export const sandboxRepository = {
  async activeNumbers(db: DbOrTx): Promise<Set<string>> {
    const rows = await db.selectFrom('sandbox_numbers').select('number').where('released_at', 'is', null).execute();
    return new Set(rows.map((r) => r.number));
  },
  async findActiveNumber(db: DbOrTx, number: string): Promise<Row<'sandbox_numbers'> | undefined> {
    return db.selectFrom('sandbox_numbers').selectAll().where('number', '=', number).where('released_at', 'is', null).executeTakeFirst();
  },
  /** Inserts a sold number; false when it is already sold (unique active index). */
  async insertNumber(db: DbOrTx, row: { sid: string; number: string; voice_url: string; sms_url: string }): Promise<boolean> {
    const r = await db
      .insertInto('sandbox_numbers')
      .values(row)
      .onConflict((oc) => oc.column('number').where('released_at', 'is', null).doNothing())
      .returning('sid')
      .executeTakeFirst();
    return Boolean(r);
  },
  async releaseNumber(db: DbOrTx, sid: string): Promise<void> {
    await db.updateTable('sandbox_numbers').set({ released_at: new Date() }).where('sid', '=', sid).where('released_at', 'is', null).execute();
  },
  async insertMessage(
    db: DbOrTx,
    row: {
      sid: string;
      direction: string;
      from_number: string;
      to_number: string;
      body: string;
      media: string[];
      status: string;
      error_code?: number | null;
      status_callback?: string | null;
    },
  ): Promise<void> {
    await db
      .insertInto('sandbox_messages')
      .values({ ...row, media: JSON.stringify(row.media) })
      .onConflict((oc) => oc.column('sid').doNothing())
      .execute();
  },
  /** Inserts many outbound messages in one statement (campaign batches). */
  async insertMessages(
    db: DbOrTx,
    rows: Array<{
      sid: string;
      direction: string;
      from_number: string;
      to_number: string;
      body: string;
      media: string[];
      status: string;
      status_callback: string | null;
    }>,
  ): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('sandbox_messages')
      .values(rows.map((r) => ({ ...r, media: JSON.stringify(r.media) })))
      .onConflict((oc) => oc.column('sid').doNothing())
      .execute();
  },
  async findMessages(db: DbOrTx, sids: string[]): Promise<SandboxMessageRow[]> {
    if (sids.length === 0) return [];
    return db.selectFrom('sandbox_messages').selectAll().where('sid', 'in', sids).execute();
  },
  async findMessageByStatusCallback(db: DbOrTx, statusCallback: string): Promise<SandboxMessageRow | undefined> {
    // Match path + query whatever the origin (the product may have restarted on another address).
    const u = new URL(statusCallback, 'http://x');
    const suffix = (u.pathname + u.search).replace(/[\\%_]/g, (c) => `\\${c}`);
    return db.selectFrom('sandbox_messages').selectAll().where('status_callback', 'like', `%${suffix}`).orderBy('created_at').limit(1).executeTakeFirst();
  },
  async setMessagesStatus(db: DbOrTx, sids: string[], status: string, errorCode: number | null): Promise<void> {
    if (sids.length === 0) return;
    await db.updateTable('sandbox_messages').set({ status, error_code: errorCode }).where('sid', 'in', sids).execute();
  },
  async findMessage(db: DbOrTx, sid: string): Promise<SandboxMessageRow | undefined> {
    return db.selectFrom('sandbox_messages').selectAll().where('sid', '=', sid).executeTakeFirst();
  },
  async setMessageStatus(db: DbOrTx, sid: string, status: string, errorCode: number | null): Promise<void> {
    await db.updateTable('sandbox_messages').set({ status, error_code: errorCode }).where('sid', '=', sid).execute();
  },
  /** Messages of an outside number's simulated handset, oldest first. */
  async handsetMessages(db: DbOrTx, number: string): Promise<SandboxMessageRow[]> {
    return db
      .selectFrom('sandbox_messages')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('direction', '=', 'inbound'), eb('from_number', '=', number)]),
          eb.and([eb('direction', '=', 'outbound'), eb('to_number', '=', number)]),
        ]),
      )
      .orderBy('created_at')
      .orderBy('sid')
      .execute();
  },
  /** Records (or replaces) the redirect of simulated call `sid`'s own leg to `twiml`. */
  async setRedirect(db: DbOrTx, sid: string, twiml: string): Promise<void> {
    await db
      .insertInto('sandbox_call_redirects')
      .values({ sid, twiml })
      .onConflict((oc) => oc.column('sid').doUpdateSet({ twiml, created_at: new Date() }))
      .execute();
  },
  /** Takes the pending redirect of call `sid` (once): its TwiML, or undefined. */
  async takeRedirect(db: DbOrTx, sid: string): Promise<string | undefined> {
    return (await db.deleteFrom('sandbox_call_redirects').where('sid', '=', sid).returning('twiml').executeTakeFirst())?.twiml;
  },
  async insertCall(db: DbOrTx, row: { sid: string; from_number: string; to_number: string; status: string; log: unknown[] }): Promise<void> {
    await db
      .insertInto('sandbox_calls')
      .values({ ...row, log: JSON.stringify(row.log) })
      .execute();
  },
};
