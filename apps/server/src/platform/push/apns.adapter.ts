/**
 * The APNs adapter for VoIP pushes (`PUSH_ADAPTER=live` with APNS_KEY_FILE, APNS_KEY_ID,
 * APNS_TEAM_ID and APNS_BUNDLE_ID; docs/push.md "APNs"): token (.p8 key) authentication over
 * HTTP/2 with `@parse/node-apn`, push type `voip`, topic `<bundle id>.voip`. An `Unregistered` or
 * `BadDeviceToken` answer (410 or 400) means the token is gone (the push module deletes it).
 */
import apn from '@parse/node-apn';
import type { PushAdapter } from './push.port.js';

/** APNs reasons that mean the token will never work again. */
const GONE_REASONS = new Set(['Unregistered', 'BadDeviceToken', 'DeviceTokenNotForTopic', 'ExpiredToken']);

/**
 * An APNs VoIP adapter and its `close` (ends the HTTP/2 session). `connection` overrides Apple's host
 * (tests: a local HTTP/2 server and its CA).
 * @throws Error when the key file cannot be read or is not a key.
 */
export function apnsAdapter(
  settings: { keyFile: string; keyId: string; teamId: string; bundleId: string; production: boolean },
  connection?: { address: string; port: number; ca: string[] },
): {
  adapter: PushAdapter<string>;
  close: () => Promise<void>;
} {
  const provider = new apn.Provider({
    token: { key: settings.keyFile, keyId: settings.keyId, teamId: settings.teamId },
    production: settings.production,
    ...(connection ? { address: connection.address, port: connection.port, ca: connection.ca } : {}),
  });
  const adapter: PushAdapter<string> = {
    name: 'apns',
    async send(token, message) {
      const note = new apn.Notification();
      note.topic = `${settings.bundleId}.voip`;
      note.pushType = 'voip';
      note.priority = message.urgency === 'high' ? 10 : 5;
      note.expiry = Math.floor(Date.now() / 1000) + message.ttlS;
      note.payload = { kind: message.kind, title: message.title, body: message.body, url: message.url, ...message.data };
      try {
        const res = await provider.send(note, token);
        if (res.sent.length > 0) return { outcome: 'sent', statusCode: 200, error: null };
        const f = res.failed[0];
        const reason = f?.response?.reason ?? f?.error?.message ?? 'unknown APNs failure';
        const status = f?.status ?? null;
        if (status === 410 || GONE_REASONS.has(reason)) return { outcome: 'gone', statusCode: status, error: reason };
        return { outcome: 'failed', statusCode: status, error: reason };
      } catch (e) {
        return { outcome: 'failed', statusCode: null, error: (e as Error).message };
      }
    },
  };
  return { adapter, close: () => provider.shutdown() };
}
