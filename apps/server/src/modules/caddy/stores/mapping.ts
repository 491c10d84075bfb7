/**
 * The one mapping of the app stores' subscription notifications to the consumer area's six subscription statuses and
 * plans (spec 002 "Consumer account"; docs/consumer-area.md "Store subscriptions" prints these tables). Pure: no I/O.
 *
 * - Apple App Store Server Notifications V2: the status follows `notificationType` and `subtype`
 *   ({@link APPLE_MAPPING}); for `DID_CHANGE_RENEWAL_STATUS` Apple's own `data.status` (billing retry, grace period)
 *   wins over the renewal switch, so turning auto-renew off during a retry never gives service back.
 * - Google Play real-time developer notifications: Google requires reading the subscription back from the Play
 *   Developer API (`purchases.subscriptionsv2.get`) after each notification; the status follows the resource's
 *   `subscriptionState` ({@link GOOGLE_STATE_MAPPING}); {@link GOOGLE_TYPES} says which state each
 *   `notificationType` brings. A `voidedPurchaseNotification` (a refund or chargeback) is `refunding`.
 * - `service`: whether the paid plan's allowances apply (the plan is the product's, else `starter`). `expired` and
 *   `refunding` start the 30-day removal of the numbers; a status with service restores the numbers the end made
 *   inactive. `null` outcome: recorded, nothing changes.
 */
import { CADDY_PLANS, type CaddyPlan, type CaddySubscriptionStatus } from '@switchboard/contracts';

/** The product-id prefix: store product ids are `com.switchboard.caddy.<plan>` in both stores. */
export const PRODUCT_PREFIX = 'com.switchboard.caddy.';
/** The plans sold in the stores (every plan but `starter`, the plan without a subscription). */
export const PAID_PLANS = CADDY_PLANS.filter((p): p is Exclude<CaddyPlan, 'starter'> => p !== 'starter');

/** The store product id of a plan (same id in the App Store and Google Play), e.g. `com.switchboard.caddy.premium_monthly`. */
export function productIdOf(plan: Exclude<CaddyPlan, 'starter'>): string {
  return PRODUCT_PREFIX + plan;
}

/** The plan a store product id sells, or null for a product that is not a consumer plan. */
export function planOfProduct(productId: string | null | undefined): Exclude<CaddyPlan, 'starter'> | null {
  if (!productId?.startsWith(PRODUCT_PREFIX)) return null;
  const plan = productId.slice(PRODUCT_PREFIX.length);
  return (PAID_PLANS as readonly string[]).includes(plan) ? (plan as Exclude<CaddyPlan, 'starter'>) : null;
}

/** What a notification does to the account: its status and whether the paid plan applies; null = nothing changes. */
export type StoreOutcome = { status: CaddySubscriptionStatus; service: boolean } | null;

/** Statuses that end the service and start the 30-day removal of the numbers. */
export function endsService(status: CaddySubscriptionStatus): boolean {
  return status === 'expired' || status === 'refunding';
}

/** One row of the Apple table: a type (and subtype, `*` = any, `-` = none) and its outcome. */
export type AppleRow = {
  type: string;
  subtype: string;
  /** `renewal` = `active`, or `canceling` when auto-renew is off (renewal info `autoRenewStatus` 0). */
  status: CaddySubscriptionStatus | 'renewal' | null;
  service: boolean;
  note: string;
};

/** Apple App Store Server Notifications V2 → status (docs/consumer-area.md "Apple"). First matching row wins. */
export const APPLE_MAPPING: readonly AppleRow[] = [
  { type: 'SUBSCRIBED', subtype: '*', status: 'renewal', service: true, note: 'INITIAL_BUY or RESUBSCRIBE; a resubscription after expiry restores' },
  { type: 'DID_RENEW', subtype: '*', status: 'renewal', service: true, note: 'renewed; BILLING_RECOVERY after a failed renewal restores' },
  { type: 'OFFER_REDEEMED', subtype: '*', status: 'renewal', service: true, note: 'an offer code or promotional offer' },
  { type: 'DID_CHANGE_RENEWAL_PREF', subtype: '*', status: 'renewal', service: true, note: 'UPGRADE now (plan of the new product); DOWNGRADE at renewal' },
  {
    type: 'DID_CHANGE_RENEWAL_STATUS',
    subtype: 'AUTO_RENEW_DISABLED',
    status: 'canceling',
    service: true,
    note: 'service until the expiry (retry or grace: as Apple says)',
  },
  { type: 'DID_CHANGE_RENEWAL_STATUS', subtype: 'AUTO_RENEW_ENABLED', status: 'active', service: true, note: 'renews again (retry or grace: as Apple says)' },
  { type: 'DID_FAIL_TO_RENEW', subtype: 'GRACE_PERIOD', status: 'retry_period', service: true, note: 'billing grace period: service kept' },
  { type: 'DID_FAIL_TO_RENEW', subtype: '-', status: 'retry_period', service: false, note: 'billing retry without grace: numbers kept, plan paused' },
  {
    type: 'GRACE_PERIOD_EXPIRED',
    subtype: '*',
    status: 'retry_period',
    service: false,
    note: 'grace over, Apple still retries for up to 60 days: numbers kept, plan paused',
  },
  { type: 'EXPIRED', subtype: '*', status: 'expired', service: false, note: 'VOLUNTARY, BILLING_RETRY, PRICE_INCREASE, PRODUCT_NOT_FOR_SALE' },
  { type: 'REFUND', subtype: '*', status: 'refunding', service: false, note: 'refunded: service ends, the 30-day removal starts' },
  { type: 'REVOKE', subtype: '*', status: 'expired', service: false, note: 'Family Sharing access revoked' },
  { type: 'REFUND_REVERSED', subtype: '*', status: 'renewal', service: true, note: 'the refund was reversed: restores' },
  { type: 'RENEWAL_EXTENDED', subtype: '*', status: 'renewal', service: true, note: 'the renewal date was extended' },
  { type: 'CONSUMPTION_REQUEST', subtype: '*', status: null, service: false, note: 'a refund request under review: recorded, service kept' },
  { type: 'REFUND_DECLINED', subtype: '*', status: null, service: false, note: 'recorded' },
  { type: 'PRICE_INCREASE', subtype: '*', status: null, service: false, note: 'PENDING or ACCEPTED: recorded' },
  { type: 'RENEWAL_EXTENSION', subtype: '*', status: null, service: false, note: 'a mass extension summary: the accounts get RENEWAL_EXTENDED' },
  { type: 'TEST', subtype: '*', status: null, service: false, note: 'the App Store Server API test notification: recorded' },
];

/** Apple's `data.status` values (App Store Server API `status`). */
export const APPLE_STATUS = { active: 1, expired: 2, billingRetry: 3, gracePeriod: 4, revoked: 5 } as const;

/** The Apple row of a type and subtype; undefined for a type the table does not name (recorded, nothing changes). */
export function appleRow(type: string, subtype: string | null): AppleRow | undefined {
  return APPLE_MAPPING.find((r) => r.type === type && (r.subtype === '*' || r.subtype === (subtype ?? '-')));
}

/**
 * The outcome of an Apple notification.
 * @param autoRenew the renewal info's `autoRenewStatus` (1 = on); null when absent (treated as on).
 * @param appleStatus `data.status` (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked) when present.
 */
export function appleOutcome(type: string, subtype: string | null, autoRenew: boolean | null, appleStatus: number | null): StoreOutcome {
  const row = appleRow(type, subtype);
  if (!row?.status) return null;
  if (type === 'DID_CHANGE_RENEWAL_STATUS') {
    if (appleStatus === APPLE_STATUS.billingRetry) return { status: 'retry_period', service: false };
    if (appleStatus === APPLE_STATUS.gracePeriod) return { status: 'retry_period', service: true };
    if (appleStatus === APPLE_STATUS.expired || appleStatus === APPLE_STATUS.revoked) return { status: 'expired', service: false };
  }
  if (row.status === 'renewal') return { status: autoRenew === false ? 'canceling' : 'active', service: true };
  return { status: row.status, service: row.service };
}

/** Google Play `notificationType` (subscriptionNotification) → the state the read-back resource then has. */
export const GOOGLE_TYPES: readonly { code: number; name: string; state: string; note: string }[] = [
  { code: 1, name: 'SUBSCRIPTION_RECOVERED', state: 'SUBSCRIPTION_STATE_ACTIVE', note: 'recovered from account hold: restores' },
  { code: 2, name: 'SUBSCRIPTION_RENEWED', state: 'SUBSCRIPTION_STATE_ACTIVE', note: 'renewed' },
  { code: 3, name: 'SUBSCRIPTION_CANCELED', state: 'SUBSCRIPTION_STATE_CANCELED', note: 'auto-renew off: service until the expiry' },
  { code: 4, name: 'SUBSCRIPTION_PURCHASED', state: 'SUBSCRIPTION_STATE_ACTIVE', note: 'bought (after an expiry: restores)' },
  { code: 5, name: 'SUBSCRIPTION_ON_HOLD', state: 'SUBSCRIPTION_STATE_ON_HOLD', note: 'account hold: numbers kept, plan paused' },
  { code: 6, name: 'SUBSCRIPTION_IN_GRACE_PERIOD', state: 'SUBSCRIPTION_STATE_IN_GRACE_PERIOD', note: 'grace period: service kept' },
  { code: 7, name: 'SUBSCRIPTION_RESTARTED', state: 'SUBSCRIPTION_STATE_ACTIVE', note: 'restored before it expired' },
  { code: 8, name: 'SUBSCRIPTION_PRICE_CHANGE_CONFIRMED', state: 'SUBSCRIPTION_STATE_ACTIVE', note: 'deprecated; state as read back' },
  { code: 9, name: 'SUBSCRIPTION_DEFERRED', state: 'SUBSCRIPTION_STATE_ACTIVE', note: 'renewal deferred: the expiry moves' },
  { code: 10, name: 'SUBSCRIPTION_PAUSED', state: 'SUBSCRIPTION_STATE_PAUSED', note: 'decision: no service; numbers kept until it resumes' },
  { code: 11, name: 'SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED', state: 'SUBSCRIPTION_STATE_ACTIVE', note: 'state as read back' },
  { code: 12, name: 'SUBSCRIPTION_REVOKED', state: 'SUBSCRIPTION_STATE_EXPIRED', note: 'revoked before its expiry' },
  { code: 13, name: 'SUBSCRIPTION_EXPIRED', state: 'SUBSCRIPTION_STATE_EXPIRED', note: 'expired' },
  { code: 19, name: 'SUBSCRIPTION_PRICE_CHANGE_UPDATED', state: 'SUBSCRIPTION_STATE_ACTIVE', note: 'state as read back' },
  { code: 20, name: 'SUBSCRIPTION_PENDING_PURCHASE_CANCELED', state: 'SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED', note: 'a pending purchase dropped' },
];

/** Google Play `subscriptionState` (subscriptionsv2 resource) → outcome. */
export const GOOGLE_STATE_MAPPING: Readonly<Record<string, StoreOutcome>> = {
  SUBSCRIPTION_STATE_ACTIVE: { status: 'active', service: true },
  SUBSCRIPTION_STATE_CANCELED: { status: 'canceling', service: true },
  SUBSCRIPTION_STATE_IN_GRACE_PERIOD: { status: 'retry_period', service: true },
  SUBSCRIPTION_STATE_ON_HOLD: { status: 'retry_period', service: false },
  SUBSCRIPTION_STATE_PAUSED: { status: 'expired', service: false },
  SUBSCRIPTION_STATE_EXPIRED: { status: 'expired', service: false },
  SUBSCRIPTION_STATE_PENDING: null,
  SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED: null,
  SUBSCRIPTION_STATE_UNSPECIFIED: null,
};

/** The name of a Google `notificationType` (e.g. 3 → `SUBSCRIPTION_CANCELED`), or `SUBSCRIPTION_TYPE_<n>`. */
export function googleTypeName(code: number): string {
  return GOOGLE_TYPES.find((t) => t.code === code)?.name ?? `SUBSCRIPTION_TYPE_${code}`;
}

/**
 * The outcome of a Google notification, from the read-back resource's state (a `CANCELED` subscription past its expiry
 * is `expired`). `voided` (a `voidedPurchaseNotification`) is `refunding` whatever the state says.
 */
export function googleOutcome(state: string | null | undefined, expiresAt: Date | null, now: Date, voided = false): StoreOutcome {
  if (voided) return { status: 'refunding', service: false };
  const outcome = GOOGLE_STATE_MAPPING[state ?? 'SUBSCRIPTION_STATE_UNSPECIFIED'] ?? null;
  if (outcome?.status === 'canceling' && expiresAt && expiresAt.getTime() <= now.getTime()) return { status: 'expired', service: false };
  return outcome;
}
