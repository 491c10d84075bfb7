/**
 * SQL of the consumer area's tables (all owned by the caddy module; migration 0060_caddy; docs/consumer-area.md).
 * Every method takes `(db: DbOrTx, ...)` so the caller owns the transaction.
 */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { DeliveryCondition } from '../../platform/events/index.js';

export type CaddyAccountRow = {
  id: number;
  email: string | null;
  phone: string | null;
  name: string;
  password_hash: string | null;
  iap_id: string;
  plan: string;
  subscription_status: string;
  subscription_store: 'apple' | 'google' | 'sandbox' | null;
  subscription_product_id: string | null;
  subscription_expires_at: Date | null;
  subscription_changed_at: Date | null;
  /** The store purchase the status comes from (Apple originalTransactionId / Google purchaseToken; stores/). */
  subscription_purchase_id: string | null;
  company_id: number;
  created_at: Date;
  updated_at: Date;
};

export type CaddyNumberRow = {
  id: number;
  account_id: number | null;
  number_id: number;
  number: string;
  is_active: boolean;
  will_be_removed_at: Date | null;
  released_at: Date | null;
  /** `subscription`: made inactive by the store subscription's end (a renewal restores it; stores/). */
  inactive_reason: 'subscription' | null;
  created_at: Date;
};

export type CaddyCodeRow = {
  id: number;
  purpose: 'register' | 'login' | 'reset';
  channel: 'email' | 'phone';
  target: string;
  code_hash: string;
  pending: Record<string, unknown>;
  attempts: number;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Date;
};

export const caddyRepository = {
  // --- accounts ---------------------------------------------------------------------------------------------------
  async insertAccount(
    db: DbOrTx,
    row: { email: string | null; phone: string | null; name: string; password_hash: string | null; company_id: number },
  ): Promise<CaddyAccountRow> {
    return (await db.insertInto('caddy_accounts').values(row).returningAll().executeTakeFirstOrThrow()) as CaddyAccountRow;
  },
  async findAccount(db: DbOrTx, id: number): Promise<CaddyAccountRow | undefined> {
    return (await db.selectFrom('caddy_accounts').selectAll().where('id', '=', id).executeTakeFirst()) as CaddyAccountRow | undefined;
  },
  /** The account row locked for update (store notifications, deletion). */
  async lockAccount(db: DbOrTx, id: number): Promise<CaddyAccountRow | undefined> {
    return (await db.selectFrom('caddy_accounts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()) as CaddyAccountRow | undefined;
  },
  async findByEmail(db: DbOrTx, email: string): Promise<CaddyAccountRow | undefined> {
    return (await db
      .selectFrom('caddy_accounts')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst()) as CaddyAccountRow | undefined;
  },
  async findByPhone(db: DbOrTx, phone: string): Promise<CaddyAccountRow | undefined> {
    return (await db.selectFrom('caddy_accounts').selectAll().where('phone', '=', phone).executeTakeFirst()) as CaddyAccountRow | undefined;
  },
  async findByIapId(db: DbOrTx, iapId: string): Promise<CaddyAccountRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(iapId)) return undefined;
    return (await db.selectFrom('caddy_accounts').selectAll().where('iap_id', '=', iapId).executeTakeFirst()) as CaddyAccountRow | undefined;
  },
  async findByCompany(db: DbOrTx, companyId: number): Promise<CaddyAccountRow | undefined> {
    return (await db.selectFrom('caddy_accounts').selectAll().where('company_id', '=', companyId).executeTakeFirst()) as CaddyAccountRow | undefined;
  },
  async updateAccount(
    db: DbOrTx,
    id: number,
    patch: Partial<
      Pick<
        CaddyAccountRow,
        | 'name'
        | 'password_hash'
        | 'plan'
        | 'subscription_status'
        | 'subscription_store'
        | 'subscription_product_id'
        | 'subscription_expires_at'
        | 'subscription_changed_at'
        | 'subscription_purchase_id'
      >
    >,
  ): Promise<void> {
    await db
      .updateTable('caddy_accounts')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  },
  async deleteAccount(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('caddy_accounts').where('id', '=', id).execute();
  },

  // --- codes ------------------------------------------------------------------------------------------------------
  async insertCode(
    db: DbOrTx,
    row: { purpose: CaddyCodeRow['purpose']; channel: CaddyCodeRow['channel']; target: string; code_hash: string; pending: string; expires_at: Date },
  ): Promise<number> {
    // A new code replaces the open ones of the same purpose and target.
    await db
      .updateTable('caddy_codes')
      .set({ consumed_at: new Date() })
      .where('purpose', '=', row.purpose)
      .where('target', '=', row.target)
      .where('consumed_at', 'is', null)
      .execute();
    return (await db.insertInto('caddy_codes').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  /** The newest unconsumed code of purpose and target, locked (attempts are counted under the lock). */
  async lockOpenCode(db: DbOrTx, purpose: CaddyCodeRow['purpose'], target: string): Promise<CaddyCodeRow | undefined> {
    return (await db
      .selectFrom('caddy_codes')
      .selectAll()
      .where('purpose', '=', purpose)
      .where('target', '=', target)
      .where('consumed_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst()) as CaddyCodeRow | undefined;
  },
  /** When the last code of purpose and target was sent (the resend spacing). */
  async lastCodeAt(db: DbOrTx, purpose: CaddyCodeRow['purpose'], target: string): Promise<Date | null> {
    const r = await db
      .selectFrom('caddy_codes')
      .select('created_at')
      .where('purpose', '=', purpose)
      .where('target', '=', target)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r?.created_at ?? null;
  },
  async countAttempt(db: DbOrTx, id: number): Promise<void> {
    await db
      .updateTable('caddy_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
  },
  async consumeCode(db: DbOrTx, id: number): Promise<void> {
    await db.updateTable('caddy_codes').set({ consumed_at: new Date() }).where('id', '=', id).execute();
  },

  // --- sessions ---------------------------------------------------------------------------------------------------
  async insertSession(db: DbOrTx, row: { id: string; account_id: number; expires_at: Date }): Promise<void> {
    await db.insertInto('caddy_sessions').values(row).execute();
  },
  async findSession(db: DbOrTx, id: string): Promise<{ account_id: number; expires_at: Date; last_used_at: Date } | undefined> {
    return db
      .selectFrom('caddy_sessions')
      .select(['account_id', 'expires_at', 'last_used_at'])
      .where('id', '=', id)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
  },
  /** Which of these session ids are still live (not expired, not deleted). */
  async liveSessionIds(db: DbOrTx, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .selectFrom('caddy_sessions')
      .select('id')
      .where('id', 'in', [...ids])
      .where('expires_at', '>', new Date())
      .execute();
    return new Set(rows.map((r) => r.id));
  },
  async touchSession(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
    await db.updateTable('caddy_sessions').set({ expires_at: expiresAt, last_used_at: new Date() }).where('id', '=', id).execute();
  },
  /** Ends one session (sign-out). */
  async deleteSession(db: DbOrTx, id: string): Promise<void> {
    await db.deleteFrom('caddy_sessions').where('id', '=', id).execute();
  },
  /** Ends every session of the account except `keep` (password change keeps the caller's). */
  async deleteSessions(db: DbOrTx, accountId: number, keep?: string): Promise<void> {
    let q = db.deleteFrom('caddy_sessions').where('account_id', '=', accountId);
    if (keep) q = q.where('id', '!=', keep);
    await q.execute();
  },

  // --- numbers ----------------------------------------------------------------------------------------------------
  async insertNumber(db: DbOrTx, row: { account_id: number; number_id: number; number: string }): Promise<CaddyNumberRow> {
    return (await db.insertInto('caddy_numbers').values(row).returningAll().executeTakeFirstOrThrow()) as CaddyNumberRow;
  },
  /** The account's numbers not yet released, oldest first. */
  async listNumbers(db: DbOrTx, accountId: number): Promise<CaddyNumberRow[]> {
    return (await db
      .selectFrom('caddy_numbers')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('released_at', 'is', null)
      .orderBy('id')
      .execute()) as CaddyNumberRow[];
  },
  async lockNumbers(db: DbOrTx, accountId: number): Promise<CaddyNumberRow[]> {
    return (await db
      .selectFrom('caddy_numbers')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('released_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute()) as CaddyNumberRow[];
  },
  async setActive(db: DbOrTx, ids: number[], active: boolean, removeAt: Date | null): Promise<void> {
    if (ids.length === 0) return;
    // The person's choice: a number they activate or deactivate is no longer the subscription's to restore.
    await db.updateTable('caddy_numbers').set({ is_active: active, will_be_removed_at: removeAt, inactive_reason: null }).where('id', 'in', ids).execute();
  },
  /**
   * The store subscription ended: every active number of the account becomes inactive with `removeAt` and reason
   * `subscription` (numbers already inactive keep their date). @returns how many were made inactive.
   */
  async deactivateForSubscription(db: DbOrTx, accountId: number, removeAt: Date): Promise<number> {
    const r = await db
      .updateTable('caddy_numbers')
      .set({ is_active: false, will_be_removed_at: removeAt, inactive_reason: 'subscription' })
      .where('account_id', '=', accountId)
      .where('released_at', 'is', null)
      .where('is_active', '=', true)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  /** The numbers the subscription's end made inactive (not released), oldest first, locked. */
  async lockSubscriptionInactive(db: DbOrTx, accountId: number): Promise<CaddyNumberRow[]> {
    return (await db
      .selectFrom('caddy_numbers')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('released_at', 'is', null)
      .where('inactive_reason', '=', 'subscription')
      .orderBy('id')
      .forUpdate()
      .execute()) as CaddyNumberRow[];
  },
  /** Marks numbers released (their numbers-module rows are released by the caller). */
  async markReleased(db: DbOrTx, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await db.updateTable('caddy_numbers').set({ released_at: new Date(), is_active: false }).where('id', 'in', ids).execute();
  },
  /** Numbers whose removal date has passed (oldest first, at most `limit`), locked and skipped by other runners. */
  async claimDue(db: DbOrTx, now: Date, limit: number): Promise<CaddyNumberRow[]> {
    return (await db
      .selectFrom('caddy_numbers')
      .selectAll()
      .where('released_at', 'is', null)
      .where('will_be_removed_at', '<=', now)
      .orderBy('will_be_removed_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute()) as CaddyNumberRow[];
  },
  /** Inactive numbers whose removal falls within `[from, to)` (reminders). */
  async removalsBetween(db: DbOrTx, from: Date, to: Date): Promise<CaddyNumberRow[]> {
    return (await db
      .selectFrom('caddy_numbers')
      .selectAll()
      .where('released_at', 'is', null)
      .where('account_id', 'is not', null)
      .where('will_be_removed_at', '>=', from)
      .where('will_be_removed_at', '<', to)
      .execute()) as CaddyNumberRow[];
  },
  /** Claims a reminder (true the first time for this number, kind and removal date). */
  async claimReminder(db: DbOrTx, caddyNumberId: number, kind: '7d' | '1d', removalAt: Date): Promise<boolean> {
    const r = await db
      .insertInto('caddy_reminders')
      .values({ caddy_number_id: caddyNumberId, kind, removal_at: removalAt })
      .onConflict((oc) => oc.doNothing())
      .returning('kind')
      .executeTakeFirst();
    return Boolean(r);
  },

  // --- usage ------------------------------------------------------------------------------------------------------
  /** Claims an event's effect once (key: `call:{id}`, `sms-in:{sid}`, `sms-out:{itemId}`); true the first time. */
  async claimUsageEvent(db: DbOrTx, key: string, accountId: number): Promise<boolean> {
    const r = await db
      .insertInto('caddy_usage_events')
      .values({ key, account_id: accountId })
      .onConflict((oc) => oc.doNothing())
      .returning('key')
      .executeTakeFirst();
    return Boolean(r);
  },
  async addUsage(db: DbOrTx, accountId: number, period: string, add: { callSeconds?: number; textsIn?: number; textsOut?: number }): Promise<void> {
    const cs = Math.max(0, Math.round(add.callSeconds ?? 0));
    const ti = add.textsIn ?? 0;
    const to = add.textsOut ?? 0;
    await sql`insert into caddy_usage (account_id, period, call_seconds, texts_in, texts_out)
      values (${accountId}, ${period}::date, ${cs}, ${ti}, ${to})
      on conflict (account_id, period) do update set call_seconds = caddy_usage.call_seconds + excluded.call_seconds,
        texts_in = caddy_usage.texts_in + excluded.texts_in, texts_out = caddy_usage.texts_out + excluded.texts_out`.execute(db);
  },
  async usageOf(db: DbOrTx, accountId: number, period: string): Promise<{ call_seconds: number; texts_in: number; texts_out: number }> {
    const r = await db
      .selectFrom('caddy_usage')
      .select(['call_seconds', 'texts_in', 'texts_out'])
      .where('account_id', '=', accountId)
      .where('period', '=', sql<Date>`${period}::date`)
      .executeTakeFirst();
    return { call_seconds: Number(r?.call_seconds ?? 0), texts_in: r?.texts_in ?? 0, texts_out: r?.texts_out ?? 0 };
  },

  // --- store events -----------------------------------------------------------------------------------------------
  /** Records a notification once; false when its id was taken before (a replay). */
  async claimStoreEvent(
    db: DbOrTx,
    row: { notification_id: string; store: string; type: string; subtype: string | null; account_id: number | null; signed_at: Date },
  ): Promise<boolean> {
    const r = await db
      .insertInto('caddy_store_events')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning('notification_id')
      .executeTakeFirst();
    return Boolean(r);
  },
  async markStoreEvent(db: DbOrTx, notificationId: string, status: string | null, applied: boolean): Promise<void> {
    await db.updateTable('caddy_store_events').set({ status, applied }).where('notification_id', '=', notificationId).execute();
  },

  // --- invitations ------------------------------------------------------------------------------------------------
  async insertInvitation(db: DbOrTx, accountId: number, phone: string) {
    return db.insertInto('caddy_invitations').values({ account_id: accountId, phone_number: phone }).returningAll().executeTakeFirstOrThrow();
  },
  async countInvitationsSince(db: DbOrTx, where: { accountId?: number; phone?: string }, since: Date): Promise<number> {
    let q = db
      .selectFrom('caddy_invitations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('created_at', '>=', since);
    if (where.accountId !== undefined) q = q.where('account_id', '=', where.accountId);
    if (where.phone !== undefined) q = q.where('phone_number', '=', where.phone);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  },
  async listInvitations(db: DbOrTx, accountId: number, limit: number, offset: number) {
    return db.selectFrom('caddy_invitations').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').limit(limit).offset(offset).execute();
  },
  async countInvitations(db: DbOrTx, accountId: number): Promise<number> {
    const r = await db
      .selectFrom('caddy_invitations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  },
  /** Marks the open invitations of `phone` joined by `joinedAccountId`. */
  async markJoined(db: DbOrTx, phone: string, joinedAccountId: number): Promise<void> {
    await db
      .updateTable('caddy_invitations')
      .set({ joined_account_id: joinedAccountId, joined_at: new Date() })
      .where('phone_number', '=', phone)
      .where('joined_account_id', 'is', null)
      .execute();
  },
  async isOptedOut(db: DbOrTx, phone: string): Promise<boolean> {
    return Boolean(await db.selectFrom('caddy_invitation_optouts').select('phone_number').where('phone_number', '=', phone).executeTakeFirst());
  },
  async optOut(db: DbOrTx, phone: string): Promise<void> {
    await db
      .insertInto('caddy_invitation_optouts')
      .values({ phone_number: phone })
      .onConflict((oc) => oc.doNothing())
      .execute();
  },
  async optIn(db: DbOrTx, phone: string): Promise<void> {
    await db.deleteFrom('caddy_invitation_optouts').where('phone_number', '=', phone).execute();
  },

  // --- reviews ----------------------------------------------------------------------------------------------------
  async findReview(db: DbOrTx, accountId: number) {
    return db.selectFrom('caddy_reviews').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  },
  async upsertReview(db: DbOrTx, accountId: number, rating: number, comment: string) {
    return db
      .insertInto('caddy_reviews')
      .values({ account_id: accountId, rating, comment })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ rating, comment, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  // --- support ----------------------------------------------------------------------------------------------------
  async insertFile(db: DbOrTx, row: { account_id: number; blob_key: string; filename: string; content_type: string; size: number }) {
    return db.insertInto('caddy_support_files').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async findFiles(db: DbOrTx, accountId: number, ids: string[]) {
    if (ids.length === 0) return [];
    return db.selectFrom('caddy_support_files').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).execute();
  },
  async findFile(db: DbOrTx, id: string) {
    return db.selectFrom('caddy_support_files').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async attachFiles(db: DbOrTx, ids: string[], reportId: number): Promise<void> {
    if (ids.length === 0) return;
    await db.updateTable('caddy_support_files').set({ report_id: reportId }).where('id', 'in', ids).execute();
  },
  async insertReport(db: DbOrTx, row: { account_id: number; email: string | null; subject: string; message: string }): Promise<number> {
    return (await db.insertInto('caddy_support_reports').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  async filesOfAccount(db: DbOrTx, accountId: number) {
    return db.selectFrom('caddy_support_files').select(['id', 'blob_key']).where('account_id', '=', accountId).execute();
  },
};

/** Condition of the consumer area's consumers on a domain event (see `DeliveryCondition`): its company is a consumer account's (index `caddy_accounts_company`). */
export const isConsumerCompany: DeliveryCondition = (p) => sql`exists (select 1 from caddy_accounts a where a.company_id = (${p}->>'companyId')::bigint)`;

/** Condition of `caddy.invitations` on `message.received`: the text is an opt-out, opt-in or help keyword. */
export const isKeywordMessage: DeliveryCondition = (p) => sql`(${p}->>'keyword') is not null`;
