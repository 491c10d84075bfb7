/**
 * The push port (docs/push.md): how the push module hands one notification to one device, whatever
 * carries it. Adapters: `web-push.adapter.ts` (browsers, Web Push with VAPID, RFC 8030/8291/8292),
 * `apns.adapter.ts` (iOS VoIP pushes through APNs, token authentication) and `sandbox.adapter.ts`
 * (records, sends nothing). `createPushPort` (index.ts) picks them from `config.push`; the product
 * code path is the same for all.
 */

/** What a device shows: title and body text, the app path it opens, and extra fields for the app. */
export type PushMessage = {
  /** 'message' | 'call' | 'test'. */
  kind: string;
  title: string;
  body: string;
  /** Path in the web app, e.g. `/inbox/12` (the service worker opens it on click). */
  url: string;
  /** Groups notifications on the device: a newer one with the same tag replaces the older. */
  tag: string;
  /** How long the push service keeps it for an offline device, seconds (calls: the ring time). */
  ttlS: number;
  /** 'high' for ringing calls, 'normal' otherwise (Web Push `Urgency`, APNs priority 10 vs 5). */
  urgency: 'high' | 'normal';
  data: Record<string, unknown>;
};

/** A browser's subscription as `PushSubscription.toJSON()` gives it. */
export type WebPushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

/**
 * The result of one delivery: `sent` (the service accepted it), `recorded` (sandbox), `gone` (404
 * or 410, or APNs `Unregistered`/`BadDeviceToken`: the caller deletes the device) or `failed`.
 */
export type PushOutcome = { outcome: 'sent' | 'recorded' | 'gone' | 'failed'; statusCode: number | null; error: string | null };

/** One channel's adapter. */
export type PushAdapter<T> = {
  /** 'sandbox' | 'web-push' | 'apns': recorded with each delivery. */
  readonly name: 'sandbox' | 'web-push' | 'apns';
  /** Delivers one message to one device; never throws for the device's or the service's failures. */
  send(target: T, message: PushMessage): Promise<PushOutcome>;
};

/** The configured adapters of the app. */
export type PushPort = {
  /** The VAPID public key (base64url, uncompressed P-256 point) browsers subscribe with. */
  readonly vapidPublicKey: string;
  readonly web: PushAdapter<WebPushTarget>;
  /** undefined when APNs is not configured in 'live' mode: VoIP tokens are kept but nothing is pushed. */
  readonly apns: PushAdapter<string> | undefined;
  /** Closes long-lived connections (APNs HTTP/2). */
  close(): Promise<void>;
};
