/** SQL for `password_resets`, `auth_throttle` and `auth_totp_steps` (modules/auth owns them). */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';

export type ThrottleRow = { key: string; failures: number; window_started_at: Date; locked_until: Date | null };

/** SQL for the auth module's tables: `password_resets`, `auth_throttle`, `auth_totp_steps`. */
export const authRepository = {
  async createReset(db: DbOrTx, row: { user_id: number; token_hash: string; expires_at: Date }): Promise<number> {
    return (await db.insertInto('password_resets').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  /** An unused, unexpired reset by token hash, locked for update when inside a transaction. */
  async findUsableReset(db: DbOrTx, tokenHash: string, now: Date): Promise<{ id: number; user_id: number } | undefined> {
    return db
      .selectFrom('password_resets')
      .select(['id', 'user_id'])
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .forUpdate()
      .executeTakeFirst();
  },
  /** Marks every outstanding reset of the user used (the one just used and any older links). */
  async useResetsOfUser(db: DbOrTx, userId: number, now: Date): Promise<void> {
    await db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  },

  /**
   * Records that the TOTP time step `step` (RFC 6238 counter) was used by `userId`, unless that
   * step or a later one already was. Atomic (one upsert).
   * @returns true when the step was claimed now; false for a replay.
   */
  async claimTotpStep(db: DbOrTx, userId: number, step: number): Promise<boolean> {
    const r = await sql<{ user_id: number }>`
      insert into auth_totp_steps (user_id, last_step) values (${userId}, ${step})
      on conflict (user_id) do update set last_step = excluded.last_step, updated_at = now()
        where auth_totp_steps.last_step < excluded.last_step
      returning user_id`.execute(db);
    return r.rows.length === 1;
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
  /** Takes one attempt back from `key` (not below 0), unlocking it when it falls under `max`. */
  async refundThrottle(db: DbOrTx, key: string, max: number): Promise<void> {
    await db
      .updateTable('auth_throttle')
      .set((eb) => ({
        failures: sql<number>`greatest(${eb.ref('failures')} - 1, 0)`,
        locked_until: sql<Date | null>`case when ${eb.ref('failures')} - 1 >= ${max}::int then ${eb.ref('locked_until')} else null end`,
      }))
      .where('key', '=', key)
      .execute();
  },
  async clearThrottle(db: DbOrTx, key: string): Promise<void> {
    await db.deleteFrom('auth_throttle').where('key', '=', key).execute();
  },
};
