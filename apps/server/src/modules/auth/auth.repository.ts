/** SQL for `password_resets` and `auth_throttle` (modules/auth owns them). */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';

export type ThrottleRow = { key: string; failures: number; window_started_at: Date; locked_until: Date | null };

export const authRepository = {
  async createReset(db: DbOrTx, row: { user_id: number; token_hash: string; expires_at: Date }): Promise<number> {
    return (await db.insertInto('password_resets').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  /** An unused, unexpired reset by token hash, locked for update when inside a transaction. */
  async findUsableReset(db: DbOrTx, tokenHash: string, now: Date): Promise<{ id: number; user_id: number } | undefined> {
    return db.selectFrom('password_resets').select(['id', 'user_id']).where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null).where('expires_at', '>', now).forUpdate().executeTakeFirst();
  },
  /** Marks every outstanding reset of the user used (the one just used and any older links). */
  async useResetsOfUser(db: DbOrTx, userId: number, now: Date): Promise<void> {
    await db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  },

  async findThrottle(db: DbOrTx, key: string): Promise<ThrottleRow | undefined> {
    return db.selectFrom('auth_throttle').selectAll().where('key', '=', key).executeTakeFirst();
  },
  /**
   * Counts one attempt on `key` in a fixed window of `windowMs` starting at the first attempt
   * (a window that has ended starts over at 1); locks the key until the window ends once
   * `max` attempts are counted. Atomic (one upsert).
   */
  async hitThrottle(db: DbOrTx, key: string, max: number, windowMs: number, now: Date): Promise<ThrottleRow> {
    const windowStart = new Date(now.getTime() - windowMs);
    const windowSeconds = windowMs / 1000;
    const r = await sql<ThrottleRow>`
      insert into auth_throttle (key, failures, window_started_at, locked_until)
      values (${key}, 1, ${now}, case when 1 >= ${max}::int then ${now}::timestamptz + make_interval(secs => ${windowSeconds}::double precision) else null end)
      on conflict (key) do update set
        failures = case when auth_throttle.window_started_at <= ${windowStart} then 1 else auth_throttle.failures + 1 end,
        window_started_at = case when auth_throttle.window_started_at <= ${windowStart} then ${now} else auth_throttle.window_started_at end,
        locked_until = case
          when (case when auth_throttle.window_started_at <= ${windowStart} then 1 else auth_throttle.failures + 1 end) >= ${max}::int
          then (case when auth_throttle.window_started_at <= ${windowStart} then ${now}::timestamptz else auth_throttle.window_started_at end) + make_interval(secs => ${windowSeconds}::double precision)
          else null end
      returning key, failures, window_started_at, locked_until`.execute(db);
    return r.rows[0]!;
  },
  async clearThrottle(db: DbOrTx, key: string): Promise<void> {
    await db.deleteFrom('auth_throttle').where('key', '=', key).execute();
  },
};
