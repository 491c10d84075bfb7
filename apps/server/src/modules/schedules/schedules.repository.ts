/** SQL for `company_schedules`, `user_schedules` and `number_overrides` (migration 0003). */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

/** SQL for the schedules module's tables. */
export const schedulesRepository = {
  async company(db: DbOrTx, companyId: number): Promise<Row<'company_schedules'> | undefined> {
    return db.selectFrom('company_schedules').selectAll().where('company_id', '=', companyId).executeTakeFirst();
  },
  async upsertCompany(db: DbOrTx, companyId: number, schedule: unknown, holidays: string[]): Promise<void> {
    await db
      .insertInto('company_schedules')
      .values({ company_id: companyId, schedule: JSON.stringify(schedule), holidays: JSON.stringify(holidays) })
      .onConflict((oc) =>
        oc.column('company_id').doUpdateSet({ schedule: JSON.stringify(schedule), holidays: JSON.stringify(holidays), updated_at: new Date() }),
      )
      .execute();
  },
  async user(db: DbOrTx, userId: number): Promise<Row<'user_schedules'> | undefined> {
    return db.selectFrom('user_schedules').selectAll().where('user_id', '=', userId).executeTakeFirst();
  },
  async upsertUser(db: DbOrTx, userId: number, schedule: unknown): Promise<void> {
    await db
      .insertInto('user_schedules')
      .values({ user_id: userId, schedule: JSON.stringify(schedule) })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ schedule: JSON.stringify(schedule), updated_at: new Date() }))
      .execute();
  },
  async override(db: DbOrTx, numberId: number): Promise<Row<'number_overrides'> | undefined> {
    return db.selectFrom('number_overrides').selectAll().where('number_id', '=', numberId).executeTakeFirst();
  },
  /** Overrides that are not `auto` (at most `limit` rows), for the call flow's cache. */
  async activeOverrides(db: DbOrTx, limit: number): Promise<Array<{ number_id: number; mode: string; until: Date | null }>> {
    return db.selectFrom('number_overrides').select(['number_id', 'mode', 'until']).where('mode', '!=', 'auto').limit(limit).execute();
  },
  async upsertOverride(db: DbOrTx, numberId: number, mode: string, until: Date | null): Promise<void> {
    await db
      .insertInto('number_overrides')
      .values({ number_id: numberId, mode, until })
      .onConflict((oc) => oc.column('number_id').doUpdateSet({ mode, until, updated_at: new Date() }))
      .execute();
  },
};
