/**
 * Consumer app-store subscriptions (docs/consumer-area.md "Store subscriptions"): the App Store and Google Play
 * webhooks, and the sandbox store's calls (CADDY_STORES=sandbox only) through which a person or the consumer screens
 * subscribe and cancel offline. Product ids are `com.switchboard.caddy.<plan>` in both stores.
 */
import { z } from 'zod';
import { CADDY_PLANS, CADDY_SUBSCRIPTION_STATUSES } from './caddy.js';

function example<T extends z.ZodType>(schema: T, value: unknown, summary = 'Example'): T {
  return schema.meta({ 'x-examples': { example: { summary, value } } }) as T;
}

/** The plans sold in the stores (every plan but `starter`). */
export const CADDY_PAID_PLANS = CADDY_PLANS.filter((p) => p !== 'starter') as Exclude<(typeof CADDY_PLANS)[number], 'starter'>[];
/** The store product id of a plan. */
export function caddyProductId(plan: string): string {
  return `com.switchboard.caddy.${plan}`;
}

/** App Store Server Notifications V2 body: `{signedPayload}` (a JWS signed by the App Store). */
export const CaddyAppleNotificationInput = example(z.object({ signedPayload: z.string().min(1).max(65_536) }), {
  signedPayload: 'eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlF…'.padEnd(48, 'x'),
});

/** A Google Cloud Pub/Sub push body carrying a Google Play real-time developer notification (base64 `data`). */
export const CaddyPubSubPushInput = example(
  z.object({
    message: z.object({
      data: z
        .string()
        .max(65_536)
        .regex(/^[A-Za-z0-9+/=_-]*$/, 'The data must be base64.'),
      messageId: z.string().min(1).max(100).optional(),
      message_id: z.string().min(1).max(100).optional(),
      publishTime: z.string().max(40).optional(),
      publish_time: z.string().max(40).optional(),
      attributes: z.record(z.string().max(100), z.string().max(1000)).optional(),
    }),
    subscription: z.string().max(300),
  }),
  {
    message: {
      data: 'eyJ2ZXJzaW9uIjoiMS4wIiwicGFja2FnZU5hbWUiOiJjb20uc3dpdGNoYm9hcmQuY2FkZHkiLCJldmVudFRpbWVNaWxsaXMiOiIxNzk1OTAwMDAwMDAwIn0=',
      messageId: '136969346945',
      publishTime: '2026-11-29T10:00:00.000Z',
    },
    subscription: 'projects/my-project/subscriptions/caddy-rtdn',
  },
);

/** What the store webhooks answer (200): received, whether a replay, whether it changed the account, the status set. */
export const CaddyStoreWebhookAnswer = example(
  z.object({
    received: z.literal(true),
    duplicate: z.boolean(),
    applied: z.boolean(),
    status: z.enum(CADDY_SUBSCRIPTION_STATUSES).nullable(),
  }),
  { received: true, duplicate: false, applied: true, status: 'active' },
);

/** The account's subscription as the screens show it. */
export const CaddySubscription = z.object({
  plan: z.enum(CADDY_PLANS),
  planLabel: z.string(),
  subscriptionStatus: z.enum(CADDY_SUBSCRIPTION_STATUSES),
  subscriptionStore: z.enum(['apple', 'google', 'sandbox']).nullable(),
  productId: z.string().nullable(),
  subscriptionExpiresAt: z.string().nullable(),
});

/** Sandbox store: subscribe to a plan (`POST /caddy/stores/sandbox/subscribe`). */
export const CaddySandboxSubscribeInput = example(
  z.object({ store: z.enum(['apple', 'google']).default('apple'), plan: z.enum(CADDY_PAID_PLANS as [string, ...string[]]) }),
  { store: 'apple', plan: 'premium_monthly' },
);
/** Sandbox store: cancel (auto-renew off) the account's subscription in a store (`POST /caddy/stores/sandbox/cancel`). */
export const CaddySandboxCancelInput = example(z.object({ store: z.enum(['apple', 'google']).optional() }), { store: 'apple' });
/** Sandbox store: send any notification type of a store about the account's subscription (`…/sandbox/notifications`). */
export const CaddySandboxNotificationInput = example(
  z.object({
    store: z.enum(['apple', 'google']),
    type: z
      .string()
      .min(1)
      .max(60)
      .regex(/^[A-Z_]+$/, 'The type is the store’s notification type, e.g. DID_RENEW or SUBSCRIPTION_RENEWED.'),
    subtype: z
      .string()
      .max(60)
      .regex(/^[A-Z_]+$/)
      .optional(),
    plan: z.enum(CADDY_PAID_PLANS as [string, ...string[]]).optional(),
  }),
  { store: 'google', type: 'SUBSCRIPTION_ON_HOLD' },
);
/** A sandbox store call's answer: the notification sent, the webhook's answer and the account's subscription after it. */
export const CaddySandboxAnswer = example(
  z.object({
    message: z.string(),
    data: z.object({
      notification: z.object({ store: z.enum(['apple', 'google']), type: z.string(), id: z.string() }),
      webhook: z.object({ status: z.number().int(), applied: z.boolean(), duplicate: z.boolean() }),
      subscription: CaddySubscription,
    }),
  }),
  {
    message: 'The sandbox store sent SUBSCRIBED.',
    data: {
      notification: { store: 'apple', type: 'SUBSCRIBED', id: '5f0a7c9e-1b2d-4e3f-8a9b-0c1d2e3f4a5b' },
      webhook: { status: 200, applied: true, duplicate: false },
      subscription: {
        plan: 'premium_monthly',
        planLabel: 'Premium, monthly',
        subscriptionStatus: 'active',
        subscriptionStore: 'apple',
        productId: 'com.switchboard.caddy.premium_monthly',
        subscriptionExpiresAt: '2026-12-29T10:00:00.000Z',
      },
    },
  },
);
