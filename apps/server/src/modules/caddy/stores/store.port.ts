/**
 * The app-store port of the consumer area (docs/consumer-area.md "Store subscriptions"): what the webhooks ask of
 * the App Store and Google Play. Two adapters each, chosen by CADDY_STORES (platform/config.ts):
 * - Apple: `apple.ts` verifies a notification's JWS with the official `@apple/app-store-server-library`
 *   `SignedDataVerifier`: against Apple's root certificates (live) or the sandbox's test root (sandbox). The same
 *   class serves both, so the sandbox's notifications go through Apple's own checks.
 * - Google: `google.ts` verifies the Pub/Sub push's OIDC token (`google-auth-library`) and reads the subscription back
 *   from the Play Developer API (`@googleapis/androidpublisher` `purchases.subscriptionsv2.get`); `sandbox/` signs
 *   its own push tokens (checked by the same library call against its key) and serves its own resources.
 */
import type { androidpublisher_v3 } from '@googleapis/androidpublisher';

/** The Play Developer API's subscription resource (`SubscriptionPurchaseV2`). */
export type SubscriptionPurchaseV2 = androidpublisher_v3.Schema$SubscriptionPurchaseV2;

/** A notification whose signature (Apple JWS, Google push OIDC token) does not verify, or a payload not of the app. */
export class StoreSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreSignatureError';
  }
}

/** A store not configured in this deployment (CADDY_STORES=live without its keys). */
export class StoreNotConfiguredError extends Error {
  constructor(readonly store: 'apple' | 'google') {
    super(`The ${store === 'apple' ? 'App Store' : 'Google Play'} is not configured here.`);
    this.name = 'StoreNotConfiguredError';
  }
}

/** An Apple notification after verification: the payload and its verified transaction and renewal info. */
export type AppleVerified = {
  notificationType: string;
  subtype: string | null;
  notificationUUID: string;
  /** `signedDate` of the notification (ms since the epoch). */
  signedDate: number;
  /** `data.status`: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked (absent on some types). */
  status: number | null;
  transaction: {
    appAccountToken: string | null;
    productId: string | null;
    originalTransactionId: string | null;
    expiresDate: number | null;
  } | null;
  renewal: { autoRenewStatus: number | null; appAccountToken: string | null; gracePeriodExpiresDate: number | null } | null;
};

/** Verifies and decodes App Store Server Notifications V2. */
export interface AppleNotificationVerifier {
  /**
   * Verifies `signedPayload` (the JWS of the notification's body `{signedPayload}`) and its signed transaction and
   * renewal info: signature, certificate chain to the trusted root, bundle id and environment.
   * @throws StoreSignatureError when any of them does not verify.
   */
  verify(signedPayload: string): Promise<AppleVerified>;
}

/** A Pub/Sub push request body (`{message: {data, messageId, publishTime, attributes}, subscription}`). */
export type PubSubPush = {
  message: { data: string; messageId?: string; message_id?: string; publishTime?: string; attributes?: Record<string, string> };
  subscription: string;
};

/** Google Play's side: the push's authenticity and the subscription read back. */
export interface GooglePlayClient {
  /**
   * Verifies the push's `Authorization: Bearer <OIDC token>`: Google's signature (or the sandbox's), issuer, the
   * configured audience, and the push subscription's service account (`email`, verified).
   * @throws StoreSignatureError.
   */
  verifyPush(authorization: string | undefined): Promise<void>;
  /** `purchases.subscriptionsv2.get`: the subscription of `purchaseToken`. @throws Error (the API's; surfaces as 5xx and Pub/Sub retries). */
  getSubscription(packageName: string, purchaseToken: string): Promise<SubscriptionPurchaseV2>;
}

/** The configured stores. `apple` or `google` null: that store is off (its webhook answers 404). */
export type CaddyStores = {
  mode: 'sandbox' | 'live';
  apple: AppleNotificationVerifier | null;
  google: GooglePlayClient | null;
  /** Google Play package name notifications must name. */
  packageName: string;
};
