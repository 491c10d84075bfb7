/**
 * zod schemas of browser (Web Push) and APNs VoIP push (spec 000 §7 `GET /user/beam-token`, spec 001
 * "API keys" `POST /apns-voip-device-tokens`; the bodies are "not shown" there and designed in
 * docs/push.md). Times are ISO-8601 UTC text.
 */
import { z } from 'zod';

/** Longest push endpoint URL we keep, in characters. */
export const PUSH_ENDPOINT_MAX = 2048;

/** Bytes of a base64url (or base64) text, or null when it is not one. */
function base64urlBytes(v: string): number | null {
  if (!/^[A-Za-z0-9_\-+/]+={0,2}$/.test(v)) return null;
  const bare = v.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  return Math.floor((bare.length * 3) / 4);
}

/**
 * `GET /api/user/beam-token`: what the browser needs to subscribe to pushes. `token` is the VAPID
 * public key (base64url, 65-byte uncompressed P-256 point) to pass as `applicationServerKey`.
 */
export const BeamTokenBody = z.object({
  token: z.string(),
  vapid_public_key: z.string(),
  user_id: z.number().int(),
  /** The service worker script to register (scope `/`). */
  service_worker: z.string(),
  /** Where the subscription is sent (`POST`, the body below). */
  subscribe_path: z.string(),
});
export type BeamTokenBody = z.infer<typeof BeamTokenBody>;

/** A browser's `PushSubscription.toJSON()`, as `POST /api/user/push-subscriptions` takes it. */
export const PushSubscriptionInput = z.object({
  endpoint: z
    .string({ error: 'The endpoint field is required.' })
    .trim()
    .min(1, 'The endpoint field is required.')
    .max(PUSH_ENDPOINT_MAX, `The endpoint may not be greater than ${PUSH_ENDPOINT_MAX} characters.`)
    .refine((v) => /^https?:\/\/[^/\s]+/i.test(v) && URL.canParse(v), 'The endpoint must be a valid URL.'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: z
        .string({ error: 'The p256dh key is required.' })
        .refine((v) => base64urlBytes(v) === 65, 'The p256dh key must be a base64url P-256 public key (65 bytes).'),
      auth: z.string({ error: 'The auth key is required.' }).refine((v) => base64urlBytes(v) === 16, 'The auth key must be a base64url 16-byte secret.'),
    },
    { error: 'The keys field is required.' },
  ),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** `DELETE /api/user/push-subscriptions`: the endpoint to forget. */
export const PushUnsubscribeInput = z.object({
  endpoint: z.string({ error: 'The endpoint field is required.' }).trim().min(1, 'The endpoint field is required.').max(PUSH_ENDPOINT_MAX),
});

/** One of the caller's push devices (the endpoint's origin only: the full URL is a bearer capability). */
export const PushDevice = z.object({
  id: z.number().int(),
  kind: z.enum(['web', 'apns']),
  /** Web: the push service's origin (e.g. `https://fcm.googleapis.com`); APNs: the device name or "iOS device". */
  label: z.string(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_success_at: z.string().nullable(),
  last_failure_at: z.string().nullable(),
});
export type PushDevice = z.infer<typeof PushDevice>;
export const PushDeviceList = z.object({ data: z.array(PushDevice) });
export const PushDeviceSaved = z.object({ message: z.string(), data: PushDevice });

/** `POST /api/apns-voip-device-tokens`: an iOS device's PushKit VoIP token (hex) and an optional name. */
export const ApnsVoipTokenInput = z.object({
  token: z
    .string({ error: 'The token field is required.' })
    .trim()
    .regex(/^[0-9a-fA-F]{64,200}$/, 'The token must be the hexadecimal device token (64 to 200 characters).')
    .transform((v) => v.toLowerCase()),
  device_name: z.string().trim().max(100, 'The device name may not be greater than 100 characters.').optional(),
});
export type ApnsVoipTokenInput = z.input<typeof ApnsVoipTokenInput>;
/** `DELETE /api/apns-voip-device-tokens/{token}`. */
export const ApnsVoipTokenParams = z.object({
  token: z
    .string()
    .regex(/^[0-9a-fA-F]{64,200}$/, 'The token must be the hexadecimal device token (64 to 200 characters).')
    .transform((v) => v.toLowerCase()),
});

/** One delivery attempt of a notification to one device. */
export const PushDeliveryOut = z.object({
  channel: z.enum(['web', 'apns']),
  /** 'sandbox' | 'web-push' | 'apns'. */
  adapter: z.string(),
  outcome: z.enum(['sent', 'recorded', 'gone', 'failed']),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
});
/** A notification pushed to the caller (newest first in `GET /api/user/push-notifications`). */
export const PushNotificationOut = z.object({
  id: z.number().int(),
  kind: z.enum(['message', 'call', 'test']),
  /** null for a test notification. */
  company_id: z.number().int().nullable(),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  created_at: z.string(),
  deliveries: z.array(PushDeliveryOut),
});
export type PushNotificationOut = z.infer<typeof PushNotificationOut>;
export const PushNotificationList = z.object({ data: z.array(PushNotificationOut) });
export const PushNotificationsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) });

/** Success messages (docs/push.md). */
export const PUSH_SUBSCRIBED = 'Notifications turned on for this browser';
export const PUSH_UNSUBSCRIBED = 'Notifications turned off for this browser';
export const APNS_TOKEN_SAVED = 'VoIP device token saved';
export const APNS_TOKEN_DELETED = 'VoIP device token removed';
export const PUSH_TEST_SENT = 'Test notification sent';
