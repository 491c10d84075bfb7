/**
 * SQL of the consumer store subscriptions (caddy module's tables `caddy_store_events`, `caddy_store_sandbox` and the
 * subscription columns of `caddy_accounts`; migrations 0060–0062; docs/consumer-area.md "Store subscriptions").
 * Every method takes `(db: DbOrTx, ...)` so the caller owns the transaction.
 */
import { sql } from 'kysely';
import type { DbOrTx } from '../../../platform/db/db.js';
import type { CaddyAccountRow } from '../caddy.repository.js';

/** A sandbox store subscription (the store's own record). */
export type SandboxSubscriptionRow = {
  purchase_id: string;
  store: 'apple' | 'google';
  iap_id: string;
  product_id: string;
  state: string;
  auto_renew: boolean;
  expires_at: Date;
  last_event_ms: string | number;
  created_at: Date;
  updated_at: Date;
};

/** A recorded store notification. */
export type StoreEventRow = {
  notification_id: string;
  store: string;
  type: string;
  subtype: string | null;
  account_id: number | null;
  signed_at: Date;
  status: string | null;
  applied: boolean;
  product_id: string | null;
  expires_at: Date | null;
  purchase_id: string | null;
  received_at: Date;
};

export const storesRepository = {
  /**
   * Records a notification once (the first statement of its transaction: a concurrent delivery of the same id waits
   * on the primary key, then finds it taken). @returns false when its id was taken before (a replay).
   */
  async claimEvent(
    db: DbOrTx,
    row: {
      notification_id: string;
      store: string;
      type: string;
      subtype: string | null;
      account_id: number | null;
      signed_at: Date;
      product_id: string | null;
      expires_at: Date | null;
      purchase_id: string | null;
    },
  ): Promise<boolean> {
    const r = await db
      .insertInto('caddy_store_events')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning('notification_id')
      .executeTakeFirst();
    return Boolean(r);
  },
  async linkEvent(db: DbOrTx, notificationId: string, accountId: number): Promise<void> {
    await db.updateTable('caddy_store_events').set({ account_id: accountId }).where('notification_id', '=', notificationId).execute();
  },
  async markEvent(db: DbOrTx, notificationId: string, status: string | null, applied: boolean): Promise<void> {
    await db.updateTable('caddy_store_events').set({ status, applied }).where('notification_id', '=', notificationId).execute();
  },
  /** The account's newest recorded notifications (newest first). */
  async eventsOf(db: DbOrTx, accountId: number, limit: number): Promise<StoreEventRow[]> {
    return (await db
      .selectFrom('caddy_store_events')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('received_at', 'desc')
      .limit(limit)
      .execute()) as StoreEventRow[];
  },
  /** The account of a store link (`iap_id`), locked for the change. */
  async lockAccountByIapId(db: DbOrTx, iapId: string): Promise<CaddyAccountRow | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(iapId)) return undefined;
    return (await db.selectFrom('caddy_accounts').selectAll().where('iap_id', '=', iapId).forUpdate().executeTakeFirst()) as CaddyAccountRow | undefined;
  },

  // --- the sandbox store ------------------------------------------------------------------------------------------
  async insertSandbox(
    db: DbOrTx,
    row: {
      purchase_id: string;
      store: 'apple' | 'google';
      iap_id: string;
      product_id: string;
      state: string;
      auto_renew: boolean;
      expires_at: Date;
      last_event_ms: number;
    },
  ): Promise<SandboxSubscriptionRow> {
    return (await db.insertInto('caddy_store_sandbox').values(row).returningAll().executeTakeFirstOrThrow()) as SandboxSubscriptionRow;
  },
  async findSandbox(db: DbOrTx, purchaseId: string): Promise<SandboxSubscriptionRow | undefined> {
    return (await db.selectFrom('caddy_store_sandbox').selectAll().where('purchase_id', '=', purchaseId).executeTakeFirst()) as
      SandboxSubscriptionRow | undefined;
  },
  /** The account's newest sandbox subscription in `store` (a pending-purchase record aside), locked. */
  async lockLatestSandbox(db: DbOrTx, iapId: string, store: 'apple' | 'google'): Promise<SandboxSubscriptionRow | undefined> {
    return (await db
      .selectFrom('caddy_store_sandbox')
      .selectAll()
      .where('iap_id', '=', iapId)
      .where('store', '=', store)
      .where('state', '!=', 'SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED')
      .orderBy('created_at', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst()) as SandboxSubscriptionRow | undefined;
  },
  async updateSandbox(
    db: DbOrTx,
    purchaseId: string,
    patch: Partial<Pick<SandboxSubscriptionRow, 'product_id' | 'state' | 'auto_renew' | 'expires_at'>> & { last_event_ms: number },
  ): Promise<void> {
    await db
      .updateTable('caddy_store_sandbox')
      .set({ ...patch, updated_at: sql<Date>`now()` })
      .where('purchase_id', '=', purchaseId)
      .execute();
  },
};
