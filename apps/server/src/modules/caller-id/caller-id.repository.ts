/** SQL for `caller_id_lookups` and `caller_id_settings` (migration 0032). The caller-id module owns these tables. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type CallerIdLookupRow = Row<'caller_id_lookups'>;

export const callerIdRepository = {
  /** The cached answer for `e164`, fresh or expired, or undefined. */
  async find(db: DbOrTx, e164: string): Promise<CallerIdLookupRow | undefined> {
    return db.selectFrom('caller_id_lookups').selectAll().where('e164', '=', e164).executeTakeFirst();
  },
  /** The answers for `e164s` that have not expired at `now`, in one statement. */
  async findFresh(db: DbOrTx, e164s: readonly string[], now: Date): Promise<CallerIdLookupRow[]> {
    if (e164s.length === 0) return [];
    return db
      .selectFrom('caller_id_lookups')
      .selectAll()
      .where('e164', 'in', [...new Set(e164s)])
      .where('expires_at', '>', now)
      .execute();
  },
  /** Stores (or replaces) the provider's answer for a number. @returns the row as stored. */
  async upsert(db: DbOrTx, row: CallerIdLookupRow): Promise<CallerIdLookupRow> {
    const { e164, ...rest } = row;
    return db
      .insertInto('caller_id_lookups')
      .values(row)
      .onConflict((oc) => oc.column('e164').doUpdateSet(rest))
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** Whether the company looks inbound callers up automatically (no row: the default, true). */
  async autoLookup(db: DbOrTx, companyId: number): Promise<boolean> {
    const row = await db.selectFrom('caller_id_settings').select('auto_lookup').where('company_id', '=', companyId).executeTakeFirst();
    return row?.auto_lookup ?? true;
  },
  async setAutoLookup(db: DbOrTx, companyId: number, autoLookup: boolean): Promise<void> {
    await db
      .insertInto('caller_id_settings')
      .values({ company_id: companyId, auto_lookup: autoLookup })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ auto_lookup: autoLookup, updated_at: new Date() }))
      .execute();
  },
};
