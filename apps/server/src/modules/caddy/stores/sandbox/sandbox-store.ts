/**
 * The sandbox store (CADDY_STORES=sandbox, the default; docs/consumer-area.md "Sandbox store"): an offline stand-in
 * for the App Store and Google Play that behaves like them toward this product.
 *
 * - It keeps its own subscription records (`caddy_store_sandbox`: Apple's original transaction / Google's purchase
 *   token, product, state, auto-renew, expiry), changed by {@link SandboxStore.simulate} as the store would change
 *   them for each notification type.
 * - Apple: it signs App Store Server Notifications V2 in Apple's exact JWS shape (`x5c` chain, ES256; the payload with
 *   `data.signedTransactionInfo` and `data.signedRenewalInfo`, themselves JWS) with the TEST chain of test-chain.ts;
 *   the webhook verifies them with the official `SignedDataVerifier` trusting only that test root.
 * - Google: it publishes Pub/Sub push bodies (`{message: {data: base64(DeveloperNotification), messageId}}`) with a
 *   Google-shaped OIDC token (checked by `google-auth-library` against the sandbox's key), and answers
 *   `purchases.subscriptionsv2.get` with a `SubscriptionPurchaseV2` built from its record.
 * The caller posts each delivery to the product's own webhook route, as the store would.
 */
import crypto from 'node:crypto';
import { OAuth2Client } from 'google-auth-library';
import type { CaddyPlan } from '@switchboard/contracts';
import type { Db } from '../../../../platform/db/db.js';
import { NotFoundError, ConflictError } from '../../../../platform/http/errors.js';
import { AppleVerifier } from '../apple.js';
import { bearerOf, verifyPushToken } from '../google.js';
import { productIdOf } from '../mapping.js';
import type { AppleNotificationVerifier, AppleVerified, GooglePlayClient, PubSubPush, SubscriptionPurchaseV2 } from '../store.port.js';
import { storesRepository, type SandboxSubscriptionRow } from '../stores.repository.js';
import { makeTestKeys, signAppleJws, signPushToken, type TestKeys } from './test-chain.js';

/** The service account the sandbox's push tokens name (never a real account). */
export const SANDBOX_PUSH_SERVICE_ACCOUNT = 'caddy-rtdn-push@switchboard-sandbox.iam.gserviceaccount.invalid';
/** The Pub/Sub subscription the sandbox's pushes name. */
export const SANDBOX_PUBSUB_SUBSCRIPTION = 'projects/switchboard-sandbox/subscriptions/caddy-rtdn';

/** Apple notification types the sandbox can send (with their subtypes where the type has several). */
export const SANDBOX_APPLE_TYPES = [
  'SUBSCRIBED',
  'DID_RENEW',
  'OFFER_REDEEMED',
  'DID_CHANGE_RENEWAL_PREF',
  'DID_CHANGE_RENEWAL_STATUS',
  'DID_FAIL_TO_RENEW',
  'GRACE_PERIOD_EXPIRED',
  'EXPIRED',
  'REFUND',
  'REVOKE',
  'REFUND_REVERSED',
  'REFUND_DECLINED',
  'RENEWAL_EXTENDED',
  'CONSUMPTION_REQUEST',
  'PRICE_INCREASE',
  'TEST',
] as const;
/** Google notifications the sandbox can send: the subscription types by name, and the other kinds of message. */
export const SANDBOX_GOOGLE_TYPES = [
  'SUBSCRIPTION_RECOVERED',
  'SUBSCRIPTION_RENEWED',
  'SUBSCRIPTION_CANCELED',
  'SUBSCRIPTION_PURCHASED',
  'SUBSCRIPTION_ON_HOLD',
  'SUBSCRIPTION_IN_GRACE_PERIOD',
  'SUBSCRIPTION_RESTARTED',
  'SUBSCRIPTION_PRICE_CHANGE_CONFIRMED',
  'SUBSCRIPTION_DEFERRED',
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED',
  'SUBSCRIPTION_REVOKED',
  'SUBSCRIPTION_EXPIRED',
  'SUBSCRIPTION_PRICE_CHANGE_UPDATED',
  'SUBSCRIPTION_PENDING_PURCHASE_CANCELED',
  'VOIDED_PURCHASE',
  'PENDING_REFUND_REVIEW',
  'TEST',
] as const;
const GOOGLE_CODES: Record<string, number> = {
  SUBSCRIPTION_RECOVERED: 1,
  SUBSCRIPTION_RENEWED: 2,
  SUBSCRIPTION_CANCELED: 3,
  SUBSCRIPTION_PURCHASED: 4,
  SUBSCRIPTION_ON_HOLD: 5,
  SUBSCRIPTION_IN_GRACE_PERIOD: 6,
  SUBSCRIPTION_RESTARTED: 7,
  SUBSCRIPTION_PRICE_CHANGE_CONFIRMED: 8,
  SUBSCRIPTION_DEFERRED: 9,
  SUBSCRIPTION_PAUSED: 10,
  SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED: 11,
  SUBSCRIPTION_REVOKED: 12,
  SUBSCRIPTION_EXPIRED: 13,
  SUBSCRIPTION_PRICE_CHANGE_UPDATED: 19,
  SUBSCRIPTION_PENDING_PURCHASE_CANCELED: 20,
};

/** A request the store would make to the product's webhook. */
export type StoreDelivery = { url: string; headers: Record<string, string>; body: unknown; notificationId: string };

const DAY = 24 * 3600 * 1000;
const ACTIVE = 'SUBSCRIPTION_STATE_ACTIVE';
const CANCELED = 'SUBSCRIPTION_STATE_CANCELED';
const GRACE = 'SUBSCRIPTION_STATE_IN_GRACE_PERIOD';
const HOLD = 'SUBSCRIPTION_STATE_ON_HOLD';
const PAUSED = 'SUBSCRIPTION_STATE_PAUSED';
const EXPIRED = 'SUBSCRIPTION_STATE_EXPIRED';
const PENDING_CANCELED = 'SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED';
/** The sandbox's own state for a purchase the store took back (Apple `data.status` 5; Google reads it as expired). */
const REVOKED = 'SANDBOX_REVOKED';

function periodOf(productId: string): number {
  return (productId.endsWith('_yearly') ? 365 : 30) * DAY;
}
function inService(state: string): boolean {
  return state === ACTIVE || state === CANCELED || state === GRACE;
}

/** The sandbox store. One per process configuration (stores/index.ts). */
export class SandboxStore {
  private readonly oidc = new OAuth2Client();
  private verifier: Promise<AppleVerifier> | null = null;
  private keys: Promise<TestKeys> | null = null;

  /**
   * @param db the database (the sandbox's records).
   * @param opts the app's bundle id and package name; `audience` of push tokens; `webhookBase` the product's URL base.
   */
  constructor(
    private readonly db: Db,
    private readonly opts: { bundleId: string; packageName: string; audience: () => string },
  ) {}

  /** The store's TEST keys (made on first use, once per store). */
  testKeys(): Promise<TestKeys> {
    this.keys ??= makeTestKeys();
    return this.keys;
  }

  /** Generates the test keys now (they are otherwise made on first use). */
  async warm(): Promise<void> {
    await this.testKeys();
  }

  /** The App Store verifier trusting the sandbox's test root (Apple's `SignedDataVerifier`, `Sandbox` environment). */
  readonly apple: AppleNotificationVerifier = {
    verify: async (signedPayload: string): Promise<AppleVerified> => {
      this.verifier ??= this.testKeys().then((k) => new AppleVerifier([k.rootDer], 'Sandbox', this.opts.bundleId, undefined, false));
      return (await this.verifier).verify(signedPayload);
    },
  };

  /** Google Play as the sandbox answers it: its push tokens and its `subscriptionsv2` resources. */
  readonly google: GooglePlayClient = {
    verifyPush: async (authorization: string | undefined): Promise<void> => {
      const k = await this.testKeys();
      await verifyPushToken(this.oidc, bearerOf(authorization), this.opts.audience(), SANDBOX_PUSH_SERVICE_ACCOUNT, { [k.pushKid]: k.pushPublicPem });
    },
    getSubscription: async (packageName: string, purchaseToken: string): Promise<SubscriptionPurchaseV2> => {
      const row = packageName === this.opts.packageName ? await storesRepository.findSandbox(this.db, purchaseToken) : undefined;
      if (!row || row.store !== 'google') throw new NotFoundError('Purchase token');
      return this.resource(row);
    },
  };

  /** The `SubscriptionPurchaseV2` of a sandbox record, as the Play Developer API answers it. */
  private resource(row: SandboxSubscriptionRow): SubscriptionPurchaseV2 {
    const state = row.state === REVOKED ? EXPIRED : row.state;
    return {
      kind: 'androidpublisher#subscriptionPurchaseV2',
      regionCode: 'US',
      startTime: row.created_at.toISOString(),
      subscriptionState: state,
      acknowledgementState: 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED',
      externalAccountIdentifiers: { obfuscatedExternalAccountId: row.iap_id },
      lineItems: [
        {
          productId: row.product_id,
          // While paused, `expires_at` holds the resume time; the paid period ended when the pause began.
          expiryTime: (state === PAUSED ? row.updated_at : row.expires_at).toISOString(),
          autoRenewingPlan: { autoRenewEnabled: row.auto_renew },
          offerDetails: { basePlanId: row.product_id.endsWith('_yearly') ? 'yearly' : 'monthly' },
        },
      ],
      ...(state === PAUSED ? { pausedStateContext: { autoResumeTime: row.expires_at.toISOString() } } : {}),
      ...(state === CANCELED ? { canceledStateContext: { userInitiatedCancellation: { cancelTime: row.updated_at.toISOString() } } } : {}),
      testPurchase: {},
    };
  }

  /**
   * Makes the store do `type` to the account's sandbox subscription in `store` and answers the delivery the store then
   * sends to the product's webhook (the caller posts it). `SUBSCRIBED` / `SUBSCRIPTION_PURCHASED` need `plan`.
   * @param opts.at the event's time (ms; default now, and always after the subscription's previous event unless given).
   * @throws NotFoundError (404) when the account has no sandbox subscription there yet; ConflictError (409) when
   *   subscribing to the plan it already has.
   */
  async simulate(
    iapId: string,
    store: 'apple' | 'google',
    type: string,
    opts: { subtype?: string | null; plan?: Exclude<CaddyPlan, 'starter'>; at?: number } = {},
  ): Promise<StoreDelivery> {
    return store === 'apple' ? this.simulateApple(iapId, type, opts) : this.simulateGoogle(iapId, type, opts);
  }

  private async simulateApple(
    iapId: string,
    type: string,
    opts: { subtype?: string | null; plan?: Exclude<CaddyPlan, 'starter'>; at?: number },
  ): Promise<StoreDelivery> {
    const { row, at, subtype, sent } = await this.db.transaction().execute(async (tx) => {
      let sub = await storesRepository.lockLatestSandbox(tx, iapId, 'apple');
      const at = opts.at ?? Math.max(Date.now(), Number(sub?.last_event_ms ?? 0) + 1);
      let subtype = opts.subtype ?? null;
      if (type === 'TEST') return { row: null, at, subtype, sent: type };
      if (type === 'SUBSCRIBED') {
        if (!opts.plan) throw new NotFoundError('Plan');
        const product = productIdOf(opts.plan);
        if (sub && inService(sub.state) && sub.product_id === product) throw new ConflictError('This account already has that subscription.');
        if (sub) {
          subtype = inService(sub.state) ? 'UPGRADE' : 'RESUBSCRIBE';
          await storesRepository.updateSandbox(tx, sub.purchase_id, {
            product_id: product,
            state: ACTIVE,
            auto_renew: true,
            expires_at: new Date(at + periodOf(product)),
            last_event_ms: at,
          });
        } else {
          subtype = 'INITIAL_BUY';
          sub = await storesRepository.insertSandbox(tx, {
            purchase_id: String(2_000_000_000_000_000 + crypto.randomInt(1, 2 ** 47)),
            store: 'apple',
            iap_id: iapId,
            product_id: product,
            state: ACTIVE,
            auto_renew: true,
            expires_at: new Date(at + periodOf(product)),
            last_event_ms: at,
          });
        }
        // Another plan while subscribed is an upgrade (Apple: DID_CHANGE_RENEWAL_PREF, UPGRADE, effective now).
        const sent = subtype === 'UPGRADE' ? 'DID_CHANGE_RENEWAL_PREF' : type;
        return { row: (await storesRepository.findSandbox(tx, sub.purchase_id)) ?? null, at, subtype: opts.subtype ?? subtype, sent };
      }
      if (!sub) throw new NotFoundError('Sandbox subscription');
      const patch: Parameters<typeof storesRepository.updateSandbox>[2] = { last_event_ms: at };
      const renewFrom = Math.max(sub.expires_at.getTime(), at);
      switch (type) {
        case 'DID_RENEW':
          Object.assign(patch, { state: ACTIVE, expires_at: new Date(renewFrom + periodOf(sub.product_id)) });
          subtype ??= sub.state === HOLD || sub.state === GRACE ? 'BILLING_RECOVERY' : null;
          break;
        case 'OFFER_REDEEMED':
        case 'REFUND_REVERSED':
          Object.assign(patch, { state: sub.auto_renew ? ACTIVE : CANCELED });
          break;
        case 'DID_CHANGE_RENEWAL_PREF':
          if (opts.plan) Object.assign(patch, { product_id: productIdOf(opts.plan) });
          subtype ??= 'UPGRADE';
          break;
        case 'DID_CHANGE_RENEWAL_STATUS': {
          subtype ??= sub.auto_renew ? 'AUTO_RENEW_DISABLED' : 'AUTO_RENEW_ENABLED';
          const on = subtype === 'AUTO_RENEW_ENABLED';
          Object.assign(patch, { auto_renew: on, state: sub.state === ACTIVE || sub.state === CANCELED ? (on ? ACTIVE : CANCELED) : sub.state });
          break;
        }
        case 'DID_FAIL_TO_RENEW':
          Object.assign(patch, { state: subtype === 'GRACE_PERIOD' ? GRACE : HOLD });
          break;
        case 'GRACE_PERIOD_EXPIRED':
          Object.assign(patch, { state: HOLD });
          break;
        case 'EXPIRED':
          Object.assign(patch, { state: EXPIRED, expires_at: new Date(Math.min(sub.expires_at.getTime(), at)) });
          subtype ??= sub.auto_renew ? 'BILLING_RETRY' : 'VOLUNTARY';
          break;
        case 'REFUND':
        case 'REVOKE':
          Object.assign(patch, { state: REVOKED });
          break;
        case 'RENEWAL_EXTENDED':
          Object.assign(patch, { expires_at: new Date(sub.expires_at.getTime() + 7 * DAY) });
          break;
        default: // CONSUMPTION_REQUEST, REFUND_DECLINED, PRICE_INCREASE: the subscription is unchanged
          if (type === 'PRICE_INCREASE') subtype ??= 'PENDING';
      }
      await storesRepository.updateSandbox(tx, sub.purchase_id, patch);
      return { row: (await storesRepository.findSandbox(tx, sub.purchase_id)) ?? null, at, subtype, sent: type };
    });
    const signedPayload = await this.appleNotification(sent, subtype, row, at);
    const notificationId = (JSON.parse(Buffer.from(signedPayload.split('.')[1]!, 'base64url').toString()) as { notificationUUID: string }).notificationUUID;
    return { url: '/api/caddy/stores/apple/notifications', headers: { 'content-type': 'application/json' }, body: { signedPayload }, notificationId };
  }

  /** An App Store Server Notification V2 `signedPayload` about `row` (null: a TEST notification without data of a purchase). */
  async appleNotification(type: string, subtype: string | null, row: SandboxSubscriptionRow | null, at: number): Promise<string> {
    const keys = await this.testKeys();
    const environment = 'Sandbox';
    const data: Record<string, unknown> = { bundleId: this.opts.bundleId, bundleVersion: '1.0', environment };
    if (row) {
      const status = { [ACTIVE]: 1, [CANCELED]: 1, [EXPIRED]: 2, [HOLD]: 3, [GRACE]: 4, [REVOKED]: 5 }[row.state] ?? 1;
      const expires = row.expires_at.getTime();
      const transaction = {
        transactionId: String(Number(row.purchase_id) + (at % 1_000_000)),
        originalTransactionId: row.purchase_id,
        webOrderLineItemId: String(at),
        bundleId: this.opts.bundleId,
        productId: row.product_id,
        subscriptionGroupIdentifier: '21000001',
        purchaseDate: Math.min(at, expires),
        originalPurchaseDate: row.created_at.getTime(),
        expiresDate: expires,
        quantity: 1,
        type: 'Auto-Renewable Subscription',
        appAccountToken: row.iap_id,
        inAppOwnershipType: 'PURCHASED',
        signedDate: at,
        environment,
        transactionReason: type === 'DID_RENEW' ? 'RENEWAL' : 'PURCHASE',
        storefront: 'USA',
        storefrontId: '143441',
        price: row.product_id.endsWith('_yearly') ? 99990 : 9990,
        currency: 'USD',
        ...(row.state === REVOKED ? { revocationDate: at, revocationReason: 0 } : {}),
      };
      const renewal = {
        originalTransactionId: row.purchase_id,
        autoRenewProductId: row.product_id,
        productId: row.product_id,
        autoRenewStatus: row.auto_renew ? 1 : 0,
        ...(row.state === HOLD || row.state === GRACE ? { isInBillingRetryPeriod: true } : {}),
        ...(row.state === GRACE ? { gracePeriodExpiresDate: at + 6 * DAY } : {}),
        signedDate: at,
        environment,
        recentSubscriptionStartDate: row.created_at.getTime(),
        renewalDate: expires,
        appAccountToken: row.iap_id,
      };
      data.signedTransactionInfo = signAppleJws(keys, transaction);
      data.signedRenewalInfo = signAppleJws(keys, renewal);
      data.status = status;
    }
    return signAppleJws(keys, {
      notificationType: type,
      ...(subtype ? { subtype } : {}),
      notificationUUID: crypto.randomUUID(),
      data,
      version: '2.0',
      signedDate: at,
    });
  }

  private async simulateGoogle(
    iapId: string,
    type: string,
    opts: { subtype?: string | null; plan?: Exclude<CaddyPlan, 'starter'>; at?: number },
  ): Promise<StoreDelivery> {
    const { token, at, orderId } = await this.db.transaction().execute(async (tx) => {
      const sub = await storesRepository.lockLatestSandbox(tx, iapId, 'google');
      const at = opts.at ?? Math.max(Date.now(), Number(sub?.last_event_ms ?? 0) + 1);
      if (type === 'TEST') return { token: null, at, orderId: null };
      const fresh = async (state: string) => {
        if (!opts.plan) throw new NotFoundError('Plan');
        const product = productIdOf(opts.plan);
        if (state === ACTIVE && sub && inService(sub.state) && sub.product_id === product) {
          throw new ConflictError('This account already has that subscription.');
        }
        // A new purchase replaces the old one (Google's linkedPurchaseToken); the old token ends quietly.
        if (state === ACTIVE && sub && inService(sub.state)) await storesRepository.updateSandbox(tx, sub.purchase_id, { state: EXPIRED, last_event_ms: at });
        const row = await storesRepository.insertSandbox(tx, {
          purchase_id: crypto.randomBytes(24).toString('base64url'),
          store: 'google',
          iap_id: iapId,
          product_id: product,
          state,
          auto_renew: state === ACTIVE,
          expires_at: new Date(at + periodOf(product)),
          last_event_ms: at,
        });
        return { token: row.purchase_id, at, orderId: `GPA.SANDBOX-${row.purchase_id.slice(0, 12)}` };
      };
      if (type === 'SUBSCRIPTION_PURCHASED') return fresh(ACTIVE);
      if (type === 'SUBSCRIPTION_PENDING_PURCHASE_CANCELED') return fresh(PENDING_CANCELED);
      if (!sub) throw new NotFoundError('Sandbox subscription');
      const patch: Parameters<typeof storesRepository.updateSandbox>[2] = { last_event_ms: at };
      const period = periodOf(sub.product_id);
      switch (type) {
        case 'SUBSCRIPTION_RENEWED':
          Object.assign(patch, { state: ACTIVE, auto_renew: true, expires_at: new Date(Math.max(sub.expires_at.getTime(), at) + period) });
          break;
        case 'SUBSCRIPTION_RECOVERED':
          Object.assign(patch, { state: ACTIVE, auto_renew: true, expires_at: new Date(at + period) });
          break;
        case 'SUBSCRIPTION_RESTARTED':
          Object.assign(patch, { state: ACTIVE, auto_renew: true });
          break;
        case 'SUBSCRIPTION_CANCELED':
          Object.assign(patch, { state: CANCELED, auto_renew: false });
          break;
        case 'SUBSCRIPTION_ON_HOLD':
          Object.assign(patch, { state: HOLD });
          break;
        case 'SUBSCRIPTION_IN_GRACE_PERIOD':
          Object.assign(patch, { state: GRACE });
          break;
        case 'SUBSCRIPTION_PAUSED': // expires_at holds the resume time while paused
          Object.assign(patch, { state: PAUSED, expires_at: new Date(at + 45 * DAY) });
          break;
        case 'SUBSCRIPTION_DEFERRED':
          Object.assign(patch, { expires_at: new Date(sub.expires_at.getTime() + 30 * DAY) });
          break;
        case 'SUBSCRIPTION_REVOKED':
        case 'VOIDED_PURCHASE':
          Object.assign(patch, { state: REVOKED, auto_renew: false, expires_at: new Date(at) });
          break;
        case 'SUBSCRIPTION_EXPIRED':
          Object.assign(patch, { state: EXPIRED, auto_renew: false, expires_at: new Date(Math.min(sub.expires_at.getTime(), at)) });
          break;
        default: // price changes, pause schedule changed, pending refund review: the subscription is unchanged
      }
      await storesRepository.updateSandbox(tx, sub.purchase_id, patch);
      return { token: sub.purchase_id, at, orderId: `GPA.SANDBOX-${sub.purchase_id.slice(0, 12)}` };
    });
    return this.googlePush(type, token, orderId, at);
  }

  /** A Pub/Sub push of a DeveloperNotification, with its OIDC token (`Authorization`). */
  async googlePush(type: string, purchaseToken: string | null, orderId: string | null, at: number): Promise<StoreDelivery> {
    const notification: Record<string, unknown> = { version: '1.0', packageName: this.opts.packageName, eventTimeMillis: String(at) };
    if (type === 'TEST' || !purchaseToken) notification.testNotification = { version: '1.0' };
    else if (type === 'VOIDED_PURCHASE') notification.voidedPurchaseNotification = { purchaseToken, orderId, productType: 1, refundType: 1 };
    else if (type === 'PENDING_REFUND_REVIEW')
      notification.pendingRefundReviewNotification = { purchaseToken, orderId, pendingRefundToken: crypto.randomBytes(12).toString('hex') };
    else notification.subscriptionNotification = { version: '1.0', notificationType: GOOGLE_CODES[type] ?? 0, purchaseToken };
    const messageId = String(10_000_000_000_000 + crypto.randomInt(1, 2 ** 47));
    const body: PubSubPush = {
      message: {
        data: Buffer.from(JSON.stringify(notification)).toString('base64'),
        messageId,
        message_id: messageId,
        publishTime: new Date(at).toISOString(),
        attributes: {},
      },
      subscription: SANDBOX_PUBSUB_SUBSCRIPTION,
    };
    const now = Math.floor(Date.now() / 1000);
    const token = signPushToken(await this.testKeys(), {
      iss: 'https://accounts.google.com',
      aud: this.opts.audience(),
      azp: '100000000000000000001',
      sub: '100000000000000000001',
      email: SANDBOX_PUSH_SERVICE_ACCOUNT,
      email_verified: true,
      iat: now,
      exp: now + 3600,
    });
    return {
      url: '/api/caddy/stores/google/notifications',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
      notificationId: messageId,
    };
  }
}
