/**
 * Kysely table types added for module push (browser Web Push subscriptions and APNs VoIP device tokens; migration
 * 0026). Part of `DB` (schema.ts); every table is listed in `modules/ownership.ts` TABLE_OWNERS under its owner.
 */
import type { ColumnType, Generated } from 'kysely';

/** modules/push: a browser's Web Push subscription (docs/push.md "Subscriptions"); one per endpoint. */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  /** The push service URL the browser gave (https in production). */
  endpoint: string;
  /** The browser's P-256 public key, base64url. */
  p256dh: string;
  /** The browser's 16-byte auth secret, base64url. */
  auth: string;
  user_agent: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  last_success_at: Date | null;
  last_failure_at: Date | null;
}

/** modules/push: an iOS device's APNs VoIP push token (POST /apns-voip-device-tokens; docs/push.md). */
export interface ApnsVoipTokensTable {
  id: Generated<number>;
  user_id: number;
  /** Lower-case hex device token. */
  token: string;
  device_name: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  last_success_at: Date | null;
  last_failure_at: Date | null;
}

/** modules/push: one notification for one user (an inbound message, a ringing call, a test), pushed once per `dedupe_key`. */
export interface PushNotificationsTable {
  id: Generated<number>;
  user_id: number;
  /** The company the message or call belongs to; null for a test notification. */
  company_id: number | null;
  /** 'message' | 'call' | 'test'. */
  kind: string;
  /** e.g. `message:{itemId}`, `call:{callId}`: unique per user. */
  dedupe_key: string;
  title: string;
  body: string;
  /** Path in the web app the notification opens, e.g. `/inbox/12`. */
  url: string;
  /** Extra fields for the device (call id, company id, ...); written as JSON text. */
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** How long the push service keeps it for an offline device, seconds. */
  ttl_s: number;
  created_at: Generated<Date>;
}

/** modules/push: one attempt to deliver a notification to one device (the sandbox adapter's record). */
export interface PushDeliveriesTable {
  id: Generated<number>;
  notification_id: number;
  /** 'web' | 'apns'. */
  channel: string;
  /** The subscription's endpoint or the APNs token. */
  target: string;
  /** 'sandbox' | 'web-push' | 'apns'. */
  adapter: string;
  /** 'sent' | 'recorded' (sandbox) | 'gone' (404/410: device removed) | 'failed'. */
  outcome: string;
  status_code: number | null;
  error: string | null;
  created_at: Generated<Date>;
}

export interface PushTables {
  push_subscriptions: PushSubscriptionsTable;
  apns_voip_tokens: ApnsVoipTokensTable;
  push_notifications: PushNotificationsTable;
  push_deliveries: PushDeliveriesTable;
}
