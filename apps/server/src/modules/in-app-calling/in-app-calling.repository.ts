/**
 * SQL for `in_app_calls` (migration 0007), the in-app calling module's table. The users' in-app
 * calling fields belong to the users module and memberships to companies: read through their services.
 */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type InAppCallRow = Row<'in_app_calls'>;

/** bigint[] columns come back from pg as strings; ids are numbers everywhere else. */
function norm<T extends InAppCallRow | undefined>(row: T): T {
  if (!row) return row;
  return { ...row, rung_user_ids: row.rung_user_ids.map(Number), rejected_by: row.rejected_by.map(Number) };
}

export const inAppCallingRepository = {
  /** Stores the ringing call; a repeated ring of the same call keeps its join token and adds the users. */
  /** `replaceRung`: the new ring's users replace the rung ones (a transfer rings only its target) instead of joining them. */
  async upsertCall(db: DbOrTx, row: NewRow<'in_app_calls'> & { rung_user_ids: number[] }, replaceRung = false): Promise<InAppCallRow> {
    return db
      .insertInto('in_app_calls')
      .values(row)
      .onConflict((oc) =>
        oc.column('call_id').doUpdateSet({
          rung_user_ids: replaceRung
            ? sql<number[]>`excluded.rung_user_ids`
            : sql<number[]>`(select array(select distinct unnest(in_app_calls.rung_user_ids || excluded.rung_user_ids)))`,
          ended_at: null,
          end_reason: null,
          // A new ring (a transfer) is answered afresh: the first answer of this ring wins.
          answered_by: null,
          answered_at: null,
          rejected_by: sql<number[]>`'{}'::bigint[]`,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow()
      .then(norm);
  },
  async find(db: DbOrTx, callId: number): Promise<InAppCallRow | undefined> {
    return db.selectFrom('in_app_calls').selectAll().where('call_id', '=', callId).executeTakeFirst().then(norm);
  },
  async findBySid(db: DbOrTx, sid: string): Promise<InAppCallRow | undefined> {
    return db.selectFrom('in_app_calls').selectAll().where('carrier_sid', '=', sid).orderBy('created_at', 'desc').executeTakeFirst().then(norm);
  },
  /** The first answer wins: sets answered_by only while nobody answered and the call still rings. */
  async claimAnswer(db: DbOrTx, callId: number, userId: number): Promise<InAppCallRow | undefined> {
    return db
      .updateTable('in_app_calls')
      .set({ answered_by: userId, answered_at: new Date() })
      .where('call_id', '=', callId)
      .where('answered_by', 'is', null)
      .where('ended_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
      .then(norm);
  },
  async addRejection(db: DbOrTx, callId: number, userId: number): Promise<InAppCallRow | undefined> {
    return db
      .updateTable('in_app_calls')
      .set({ rejected_by: sql<number[]>`array(select distinct unnest(rejected_by || array[${userId}::bigint]))` })
      .where('call_id', '=', callId)
      .returningAll()
      .executeTakeFirst()
      .then(norm);
  },
  /** Marks the ring (or the browser leg) over; returns the row only the first time. */
  async end(db: DbOrTx, callId: number, reason: string): Promise<InAppCallRow | undefined> {
    return db
      .updateTable('in_app_calls')
      .set({ ended_at: new Date(), end_reason: reason })
      .where('call_id', '=', callId)
      .where('ended_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
      .then(norm);
  },
  async insertOutbound(db: DbOrTx, row: NewRow<'in_app_calls'>): Promise<void> {
    await db.insertInto('in_app_calls').values(row).execute();
  },
  /** The caller ID (number id) `userId` last chose in `companyId`, if any (docs/calling.md "Caller ID"). */
  async callerIdPreference(db: DbOrTx, userId: number, companyId: number): Promise<number | undefined> {
    const r = await db
      .selectFrom('caller_id_preferences')
      .select('number_id')
      .where('user_id', '=', userId)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    return r ? Number(r.number_id) : undefined;
  },
  /** Remembers `numberId` as `userId`'s caller ID in `companyId`. */
  async saveCallerIdPreference(db: DbOrTx, userId: number, companyId: number, numberId: number): Promise<void> {
    await db
      .insertInto('caller_id_preferences')
      .values({ user_id: userId, company_id: companyId, number_id: numberId })
      .onConflict((oc) => oc.columns(['user_id', 'company_id']).doUpdateSet({ number_id: numberId, updated_at: new Date() }))
      .execute();
  },
};
