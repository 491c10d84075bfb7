/** SQL for `mfa_sms` (modules/auth): a user's SMS second factor and its one pending code (docs/auth.md "MFA by SMS"). */
import type { DbOrTx } from '../../platform/db/db.js';

export type MfaSmsRow = { user_id: number; phone: string; enabled: boolean; code_hash: string | null; code_expires_at: Date | null; last_sent_at: Date | null };

export const mfaSmsRepository = {
  async find(db: DbOrTx, userId: number): Promise<MfaSmsRow | undefined> {
    return db
      .selectFrom('mfa_sms')
      .select(['user_id', 'phone', 'enabled', 'code_hash', 'code_expires_at', 'last_sent_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },
  /** Sets (or replaces) the phone being enrolled: not enabled until a code sent to it is confirmed. */
  async startEnrolment(db: DbOrTx, userId: number, phone: string): Promise<void> {
    await db
      .insertInto('mfa_sms')
      .values({ user_id: userId, phone, enabled: false })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ phone, enabled: false, code_hash: null, code_expires_at: null, updated_at: new Date() }))
      .execute();
  },
  /**
   * Stores a new pending code unless one was sent less than `spacingMs` ago (one conditional update).
   * @returns false when the last send is too recent.
   */
  async storeCode(db: DbOrTx, userId: number, codeHash: string, expiresAt: Date, spacingMs: number): Promise<boolean> {
    const now = new Date();
    const r = await db
      .updateTable('mfa_sms')
      .set({ code_hash: codeHash, code_expires_at: expiresAt, last_sent_at: now, updated_at: now })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_sent_at', 'is', null), eb('last_sent_at', '<=', new Date(now.getTime() - spacingMs))]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  /** Claims the pending code when it matches and is unexpired (single use); optionally enables the factor. */
  async claimCode(db: DbOrTx, userId: number, codeHash: string, enable: boolean): Promise<boolean> {
    const r = await db
      .updateTable('mfa_sms')
      .set({ code_hash: null, code_expires_at: null, updated_at: new Date(), ...(enable ? { enabled: true } : {}) })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('code_expires_at', '>', new Date())
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  async delete(db: DbOrTx, userId: number): Promise<void> {
    await db.deleteFrom('mfa_sms').where('user_id', '=', userId).execute();
  },
};
