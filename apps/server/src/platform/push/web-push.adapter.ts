/**
 * The Web Push adapter (`PUSH_ADAPTER=live`; docs/push.md): encrypts the payload (RFC 8291,
 * aes128gcm) and signs the VAPID header (RFC 8292) with the `web-push` library, then POSTs to the
 * subscription's endpoint (RFC 8030) with `fetch`, with `TTL`, `Urgency` and `Topic`. 201/202 =
 * sent; 404/410 = the subscription is gone (the push module deletes it); anything else = failed.
 */
import webpush from 'web-push';
import type { PushAdapter, PushMessage, WebPushTarget } from './push.port.js';

/** Longest wait for the push service, ms. */
export const WEB_PUSH_TIMEOUT_MS = 10_000;

/** The JSON the service worker (`apps/web/public/push-sw.js`) receives. */
export function webPushPayload(message: PushMessage): string {
  return JSON.stringify({ kind: message.kind, title: message.title, body: message.body, url: message.url, tag: message.tag, data: message.data });
}

/** A Web Push adapter signing with `vapid` (base64url keys) and `subject` (mailto: or https: URL). */
export function webPushAdapter(vapid: { publicKey: string; privateKey: string }, subject: string): PushAdapter<WebPushTarget> {
  return {
    name: 'web-push',
    async send(target, message) {
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails(target, webPushPayload(message), {
          vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: message.ttlS,
          contentEncoding: 'aes128gcm',
          headers: { Urgency: message.urgency, Topic: message.tag.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 32) },
        });
      } catch (e) {
        // Bad keys in the stored subscription (validated on subscribe, so rare): the device cannot be reached.
        return { outcome: 'gone', statusCode: null, error: `invalid subscription: ${(e as Error).message}` };
      }
      try {
        const res = await fetch(details.endpoint, {
          method: details.method,
          headers: details.headers as Record<string, string>,
          body: details.body ?? undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(WEB_PUSH_TIMEOUT_MS),
        });
        const text = res.ok ? '' : (await res.text()).slice(0, 500);
        if (res.status === 404 || res.status === 410) return { outcome: 'gone', statusCode: res.status, error: text || null };
        if (res.status >= 200 && res.status < 300) return { outcome: 'sent', statusCode: res.status, error: null };
        return { outcome: 'failed', statusCode: res.status, error: text || res.statusText || null };
      } catch (e) {
        return { outcome: 'failed', statusCode: null, error: (e as Error).message };
      }
    },
  };
}
