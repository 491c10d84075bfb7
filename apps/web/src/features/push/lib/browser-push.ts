/**
 * This browser's side of Web Push (docs/push.md "Browser"): whether it can receive pushes, the
 * service worker (`/push-sw.js`, scope `/`), and its `PushSubscription` for the server's VAPID key.
 */
import type { PushSubscriptionInput } from '@switchboard/contracts';

/** Whether this browser supports service workers, the Push API and notifications (and the page is a secure context). */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The notification permission: 'default' (not asked), 'granted' or 'denied'. */
export function pushPermission(): NotificationPermission {
  return pushSupported() ? Notification.permission : 'denied';
}

/** base64url text → bytes (the VAPID public key as `applicationServerKey`). */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function registration(serviceWorker: string): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(serviceWorker, { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** The subscription as the server takes it. */
export function subscriptionInput(sub: PushSubscription): PushSubscriptionInput {
  const json = sub.toJSON();
  return { endpoint: sub.endpoint, expirationTime: sub.expirationTime, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } };
}

/** This browser's current subscription, if the worker is registered and subscribed. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks for permission (when not asked yet), registers the worker and subscribes with `vapidKey`.
 * A subscription made for another key (the server's key changed) is replaced.
 * @throws Error when permission is refused, or the push service does not answer within {@link SUBSCRIBE_TIMEOUT_MS}.
 */
export async function subscribeBrowser(vapidKey: string, serviceWorker: string): Promise<PushSubscription> {
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site in the browser settings.');
  const reg = await registration(serviceWorker);
  const key = base64UrlToBytes(vapidKey);
  const existing = await reg.pushManager.getSubscription();
  if (existing) {
    const used = existing.options.applicationServerKey;
    const same = used !== null && new Uint8Array(used).every((b, i) => b === key[i]) && used.byteLength === key.length;
    if (same) return existing;
    await existing.unsubscribe();
  }
  return withTimeout(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), SUBSCRIBE_TIMEOUT_MS);
}

/** Longest wait for the browser's push service to hand out a subscription, ms. */
export const SUBSCRIBE_TIMEOUT_MS = 30_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("The browser's push service did not answer. Try again later.")), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
