/**
 * Store notifications into account state (docs/consumer-area.md "Store subscriptions").
 *
 * 1. Verify and decode (outside any transaction: the Play Developer API read-back is a network call):
 *    {@link appleNotice} (JWS through Apple's `SignedDataVerifier`), {@link googleNotice} (push already authenticated;
 *    the DeveloperNotification decoded, the subscription read back with `purchases.subscriptionsv2.get`).
 * 2. {@link applyNotice}, one transaction: the notification id is claimed first (`caddy_store_events`; a replay finds
 *    it taken and changes nothing), the account is found by its store link (`iap_id` = Apple `appAccountToken` /
 *    Google `obfuscatedExternalAccountId`) and locked; the outcome (mapping.ts) applies only when the notification is
 *    newer than the one the status came from (`subscription_changed_at`, Apple `signedDate` / Google
 *    `eventTimeMillis`), so an older one never regresses a newer status; an end of service for another purchase than
 *    the account's current one (the token an upgrade replaced) changes nothing. `expired` / `refunding` start the
 *    30-day removal of the numbers; a status with service restores the numbers the end made inactive.
 */
import { CADDY_PLAN_LIMITS, type CaddyPlan, type CaddySubscriptionStatus } from '@switchboard/contracts';
import { z } from 'zod';
import type { AppContext } from '../../../context.js';
import { ValidationError } from '../../../platform/http/errors.js';
import { planOf } from '../caddy.accounts.js';
import { restoreSubscriptionNumbers, startSubscriptionRemoval } from '../caddy.numbers.js';
import { caddyRepository } from '../caddy.repository.js';
import { publishUsage } from '../caddy.usage.js';
import { appleOutcome, endsService, googleOutcome, googleTypeName, planOfProduct, type StoreOutcome } from './mapping.js';
import type { CaddyStores, PubSubPush, SubscriptionPurchaseV2 } from './store.port.js';
import { StoreNotConfiguredError } from './store.port.js';
import { storesRepository } from './stores.repository.js';

/** A verified notification in the product's terms. */
export type StoreNotice = {
  store: 'apple' | 'google';
  /** `apple:<notificationUUID>` / `google:<Pub/Sub messageId>`. */
  notificationId: string;
  type: string;
  subtype: string | null;
  /** Apple `signedDate` / Google `eventTimeMillis`. */
  signedAt: Date;
  /** The account's store link, or null (a notification of no account of ours: recorded only). */
  iapId: string | null;
  productId: string | null;
  /** Apple `originalTransactionId` / Google `purchaseToken`. */
  purchaseId: string | null;
  expiresAt: Date | null;
  outcome: StoreOutcome;
  /** Numbers are kept at least until then (a paused Google Play subscription's resume time). */
  keepNumbersUntil: Date | null;
};

/** What the webhook answers. */
export type NoticeResult = { received: true; duplicate: boolean; applied: boolean; status: CaddySubscriptionStatus | null };

/** Verifies an App Store notification and reads it. @throws StoreSignatureError, StoreNotConfiguredError. */
export async function appleNotice(stores: CaddyStores, signedPayload: string): Promise<StoreNotice> {
  if (!stores.apple) throw new StoreNotConfiguredError('apple');
  const v = await stores.apple.verify(signedPayload);
  const autoRenew = v.renewal?.autoRenewStatus == null ? null : v.renewal.autoRenewStatus === 1;
  return {
    store: 'apple',
    notificationId: `apple:${v.notificationUUID}`,
    type: v.notificationType,
    subtype: v.subtype,
    signedAt: new Date(v.signedDate),
    iapId: v.transaction?.appAccountToken ?? v.renewal?.appAccountToken ?? null,
    productId: v.transaction?.productId ?? null,
    purchaseId: v.transaction?.originalTransactionId ?? null,
    expiresAt: v.transaction?.expiresDate ? new Date(v.transaction.expiresDate) : null,
    outcome: appleOutcome(v.notificationType, v.subtype, autoRenew, v.status),
    keepNumbersUntil: null,
  };
}

/** Google Play's DeveloperNotification (the base64 `message.data` of the push). */
const DeveloperNotification = z.object({
  version: z.string().max(20).optional(),
  packageName: z.string().min(1).max(200),
  eventTimeMillis: z.union([z.string().regex(/^\d{1,16}$/), z.number().int().nonnegative()]),
  subscriptionNotification: z
    .object({ version: z.string().max(20).optional(), notificationType: z.number().int().min(0).max(1000), purchaseToken: z.string().min(1).max(2000) })
    .optional(),
  voidedPurchaseNotification: z
    .object({ purchaseToken: z.string().min(1).max(2000), orderId: z.string().max(200).optional(), productType: z.number().int().optional() })
    .optional(),
  pendingRefundReviewNotification: z
    .object({ purchaseToken: z.string().min(1).max(2000).optional() })
    .passthrough()
    .optional(),
  oneTimeProductNotification: z.object({}).passthrough().optional(),
  testNotification: z.object({}).passthrough().optional(),
});

/** The line item that ends last (a subscription has one per product; upgrades may leave two for a moment). */
function latestLine(resource: SubscriptionPurchaseV2) {
  return [...(resource.lineItems ?? [])].sort((a, b) => Date.parse(b.expiryTime ?? '') - Date.parse(a.expiryTime ?? ''))[0];
}

/**
 * Reads an authenticated Google Play push: decodes its DeveloperNotification and, for a subscription or voided
 * purchase of the app's package, reads the subscription back from the Play Developer API (as Google requires).
 * @throws ValidationError (422) for a message that is not a DeveloperNotification; StoreNotConfiguredError; the API's
 *   errors (5xx: Pub/Sub retries).
 * @returns null for a message of another package or of a one-time product (acknowledged, nothing recorded).
 */
export async function googleNotice(stores: CaddyStores, push: PubSubPush, now = new Date()): Promise<StoreNotice | null> {
  if (!stores.google) throw new StoreNotConfiguredError('google');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(push.message.data, 'base64').toString('utf8'));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new ValidationError({ 'message.data': ['The message data is not base64 JSON.'] });
  }
  const parsed = DeveloperNotification.safeParse(decoded);
  if (!parsed.success) throw new ValidationError({ 'message.data': ['The message data is not a Google Play developer notification.'] });
  const n = parsed.data;
  const messageId = push.message.messageId ?? push.message.message_id;
  if (!messageId) throw new ValidationError({ 'message.messageId': ['The message id is required.'] });
  if (n.packageName !== stores.packageName || n.oneTimeProductNotification) return null;
  const base = {
    store: 'google' as const,
    notificationId: `google:${messageId}`,
    signedAt: new Date(Number(n.eventTimeMillis)),
    subtype: null,
    keepNumbersUntil: null,
  };
  const token = n.subscriptionNotification?.purchaseToken ?? n.voidedPurchaseNotification?.purchaseToken ?? n.pendingRefundReviewNotification?.purchaseToken;
  const type = n.subscriptionNotification
    ? googleTypeName(n.subscriptionNotification.notificationType)
    : n.voidedPurchaseNotification
      ? 'VOIDED_PURCHASE'
      : n.pendingRefundReviewNotification
        ? 'PENDING_REFUND_REVIEW'
        : 'TEST';
  // A voided one-time product is not a subscription; a test or a refund review changes nothing (recorded).
  if (n.voidedPurchaseNotification && n.voidedPurchaseNotification.productType !== undefined && n.voidedPurchaseNotification.productType !== 1) return null;
  if (!token || type === 'TEST') return { ...base, type, iapId: null, productId: null, purchaseId: token ?? null, expiresAt: null, outcome: null };
  const resource = await stores.google.getSubscription(n.packageName, token);
  const line = latestLine(resource);
  const expiresAt = line?.expiryTime ? new Date(line.expiryTime) : null;
  const resume = resource.pausedStateContext?.autoResumeTime;
  return {
    ...base,
    type,
    iapId: resource.externalAccountIdentifiers?.obfuscatedExternalAccountId ?? null,
    productId: line?.productId ?? null,
    purchaseId: token,
    expiresAt,
    outcome: type === 'PENDING_REFUND_REVIEW' ? null : googleOutcome(resource.subscriptionState, expiresAt, now, type === 'VOIDED_PURCHASE'),
    keepNumbersUntil: resume ? new Date(resume) : null,
  };
}

/**
 * Applies a verified notice once (see the file's comment). Numbers' removal dates count from `now`.
 * @returns whether it was a replay, whether it changed the account, and the status it set.
 */
export async function applyNotice(ctx: AppContext, notice: StoreNotice, now = new Date()): Promise<NoticeResult> {
  const result = await ctx.db.transaction().execute(async (tx): Promise<NoticeResult & { accountId: number | null }> => {
    const claimed = await storesRepository.claimEvent(tx, {
      notification_id: notice.notificationId,
      store: notice.store,
      type: notice.type,
      subtype: notice.subtype,
      account_id: null,
      signed_at: notice.signedAt,
      product_id: notice.productId,
      expires_at: notice.expiresAt,
      purchase_id: notice.purchaseId,
    });
    if (!claimed) return { received: true, duplicate: true, applied: false, status: null, accountId: null };
    const account = notice.iapId ? await storesRepository.lockAccountByIapId(tx, notice.iapId) : undefined;
    if (account) await storesRepository.linkEvent(tx, notice.notificationId, account.id);
    const outcome = notice.outcome;
    const stale = Boolean(account?.subscription_changed_at && notice.signedAt.getTime() <= account.subscription_changed_at.getTime());
    const otherPurchase = Boolean(
      outcome && !outcome.service && account?.subscription_purchase_id && notice.purchaseId && notice.purchaseId !== account.subscription_purchase_id,
    );
    if (!account || !outcome || stale || otherPurchase) {
      await storesRepository.markEvent(tx, notice.notificationId, outcome?.status ?? null, false);
      return { received: true, duplicate: false, applied: false, status: null, accountId: account?.id ?? null };
    }
    const productPlan = planOfProduct(notice.productId);
    const current = planOf(account.plan);
    const plan: CaddyPlan = outcome.service ? (productPlan ?? current) : 'starter';
    await caddyRepository.updateAccount(tx, account.id, {
      plan,
      subscription_status: outcome.status,
      subscription_store: notice.store,
      subscription_product_id: notice.productId ?? account.subscription_product_id,
      subscription_expires_at: notice.expiresAt ?? account.subscription_expires_at,
      subscription_changed_at: notice.signedAt,
      subscription_purchase_id: notice.purchaseId ?? account.subscription_purchase_id,
    });
    if (endsService(outcome.status)) await startSubscriptionRemoval(tx, account.id, now, notice.keepNumbersUntil);
    else if (outcome.service) await restoreSubscriptionNumbers(tx, account.id, plan);
    await storesRepository.markEvent(tx, notice.notificationId, outcome.status, true);
    return { received: true, duplicate: false, applied: true, status: outcome.status, accountId: account.id };
  });
  // The live usage shows the plan's allowances: tell the account's screens (after commit).
  if (result.applied && result.accountId) await publishUsage(ctx, result.accountId);
  if (result.applied) ctx.log.info({ notification: notice.notificationId, type: notice.type, status: result.status }, 'caddy: store notification applied');
  return { received: true, duplicate: result.duplicate, applied: result.applied, status: result.status };
}

/** The account's subscription as the screens show it (after a sandbox action). */
export function subscriptionOf(account: {
  plan: string;
  subscription_status: string;
  subscription_store: string | null;
  subscription_product_id: string | null;
  subscription_expires_at: Date | null;
}) {
  const plan = planOf(account.plan);
  return {
    plan,
    planLabel: CADDY_PLAN_LIMITS[plan].label,
    subscriptionStatus: account.subscription_status as CaddySubscriptionStatus,
    subscriptionStore: account.subscription_store,
    productId: account.subscription_product_id,
    subscriptionExpiresAt: account.subscription_expires_at?.toISOString() ?? null,
  };
}
