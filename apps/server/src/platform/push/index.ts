/**
 * Builds the push port from `config.push` (docs/push.md "Configuration"): `sandbox` (default) records
 * every push on both channels; `live` sends browsers' pushes with Web Push and VoIP pushes with APNs
 * when APNs is configured (a key that cannot be loaded is logged and VoIP pushes stay off). The VAPID key pair is loaded (or generated once) either way, so browsers
 * can subscribe in both modes.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PushConfig } from '../config.js';
import type { Db } from '../db/db.js';
import { apnsAdapter } from './apns.adapter.js';
import type { PushPort, WebPushTarget } from './push.port.js';
import { sandboxPushAdapter } from './sandbox.adapter.js';
import { loadVapidKeys } from './vapid.js';
import { webPushAdapter } from './web-push.adapter.js';

export type { PushAdapter, PushMessage, PushOutcome, PushPort, WebPushTarget } from './push.port.js';

/** The adapters `config` selects. @throws when the stored VAPID keys cannot be read. */
export async function createPushPort(config: PushConfig, db: Db, log: FastifyBaseLogger): Promise<PushPort> {
  const vapid = await loadVapidKeys(db, config.vapid);
  if (config.adapter === 'sandbox') {
    return {
      vapidPublicKey: vapid.publicKey,
      web: sandboxPushAdapter<WebPushTarget>('web', log),
      apns: sandboxPushAdapter<string>('apns', log),
      close: async () => {},
    };
  }
  let apns: ReturnType<typeof apnsAdapter> | undefined;
  try {
    apns = config.apns ? apnsAdapter(config.apns) : undefined;
  } catch (e) {
    // A wrong APNS_KEY_FILE must not stop browser pushes: VoIP pushes stay off, loudly.
    log.error({ err: e }, 'APNs is configured but its key cannot be loaded: VoIP pushes are off');
  }
  return {
    vapidPublicKey: vapid.publicKey,
    web: webPushAdapter(vapid, config.vapidSubject),
    apns: apns?.adapter,
    close: async () => {
      await apns?.close();
    },
  };
}
