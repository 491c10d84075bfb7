/**
 * SQL for `in_app_calls` (migration 0007) and the in-app calling columns of `users`
 * (`in_app_calling_status`, `sip_address`, `sip_user`, `sip_password`): this module is the only
 * writer of those columns; membership is read from `company_users`.
 */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type InAppCallRow = Row<'in_app_calls'>;
export type InAppUserRow = {
  id: number; first_name: string; last_name: string; email: string; role: string;
  in_app_calling_status: string; sip_address: string | null; sip_user: string | null; sip_password: string | null;
};

/** bigint[] columns come back from pg as strings; ids are numbers everywhere else. */
function norm<T extends InAppCallRow | undefined>(row: T): T {
  if (!row) return row;
  return { ...row, rung_user_ids: row.rung_user_ids.map(Number), rejected_by: row.rejected_by.map(Number) };
}

export const inAppCallingRepository = {
  /** Members (not deactivated) of the company whose status is active, by id. */
  async activeUserIds(db: DbOrTx, companyId: number): Promise<number[]> {
    const rows = await db.selectFrom('company_users').innerJoin('users', 'users.id', 'company_users.user_id').select('users.id')
      .where('company_users.company_id', '=', companyId).where('company_users.role', '!=', 'deactivated').where('users.in_app_calling_status', '=', 'active')
      .orderBy('users.id').execute();
    return rows.map((r) => r.id);
  },
  /** The company's members (not deactivated) with their in-app calling fields, by name. */
  async companyUsers(db: DbOrTx, companyId: number): Promise<InAppUserRow[]> {
    return db.selectFrom('company_users').innerJoin('users', 'users.id', 'company_users.user_id')
      .select(['users.id', 'users.first_name', 'users.last_name', 'users.email', 'company_users.role', 'users.in_app_calling_status', 'users.sip_address', 'users.sip_user', 'users.sip_password'])
      .where('company_users.company_id', '=', companyId).where('company_users.role', '!=', 'deactivated')
      .orderBy('users.first_name').orderBy('users.last_name').orderBy('users.id').execute();
  },
  async user(db: DbOrTx, userId: number): Promise<Omit<InAppUserRow, 'role'> | undefined> {
    return db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'in_app_calling_status', 'sip_address', 'sip_user', 'sip_password'])
      .where('id', '=', userId).executeTakeFirst();
  },
  async setStatus(db: DbOrTx, userId: number, status: string): Promise<void> {
    await db.updateTable('users').set({ in_app_calling_status: status, updated_at: new Date() }).where('id', '=', userId).execute();
  },
  async setSip(db: DbOrTx, userId: number, sip: { sip_address: string; sip_user: string; sip_password: string }): Promise<void> {
    await db.updateTable('users').set({ ...sip, updated_at: new Date() }).where('id', '=', userId).execute();
  },
  /** Stores the ringing call; a repeated ring of the same call keeps its join token and adds the users. */
  async upsertCall(db: DbOrTx, row: NewRow<'in_app_calls'> & { rung_user_ids: number[] }): Promise<InAppCallRow> {
    return db.insertInto('in_app_calls').values(row)
      .onConflict((oc) => oc.column('call_id').doUpdateSet({ rung_user_ids: sql<number[]>`(select array(select distinct unnest(in_app_calls.rung_user_ids || excluded.rung_user_ids)))`, ended_at: null, end_reason: null }))
      .returningAll().executeTakeFirstOrThrow().then(norm);
  },
  async find(db: DbOrTx, callId: number): Promise<InAppCallRow | undefined> {
    return db.selectFrom('in_app_calls').selectAll().where('call_id', '=', callId).executeTakeFirst().then(norm);
  },
  async findBySid(db: DbOrTx, sid: string): Promise<InAppCallRow | undefined> {
    return db.selectFrom('in_app_calls').selectAll().where('carrier_sid', '=', sid).orderBy('created_at', 'desc').executeTakeFirst().then(norm);
  },
  /** The first answer wins: sets answered_by only while nobody answered and the call still rings. */
  async claimAnswer(db: DbOrTx, callId: number, userId: number): Promise<InAppCallRow | undefined> {
    return db.updateTable('in_app_calls').set({ answered_by: userId, answered_at: new Date() })
      .where('call_id', '=', callId).where('answered_by', 'is', null).where('ended_at', 'is', null)
      .returningAll().executeTakeFirst().then(norm);
  },
  async addRejection(db: DbOrTx, callId: number, userId: number): Promise<InAppCallRow | undefined> {
    return db.updateTable('in_app_calls').set({ rejected_by: sql<number[]>`array(select distinct unnest(rejected_by || array[${userId}::bigint]))` })
      .where('call_id', '=', callId).returningAll().executeTakeFirst().then(norm);
  },
  /** Marks the ring (or the browser leg) over; returns the row only the first time. */
  async end(db: DbOrTx, callId: number, reason: string): Promise<InAppCallRow | undefined> {
    return db.updateTable('in_app_calls').set({ ended_at: new Date(), end_reason: reason })
      .where('call_id', '=', callId).where('ended_at', 'is', null).returningAll().executeTakeFirst().then(norm);
  },
  async insertOutbound(db: DbOrTx, row: NewRow<'in_app_calls'>): Promise<void> {
    await db.insertInto('in_app_calls').values(row).execute();
  },
};
