/**
 * The sandbox push adapter (default, `PUSH_ADAPTER=sandbox`; docs/push.md "Sandbox"): nothing leaves
 * the machine. Each push is logged at info level ("push recorded") and the push module stores it as a
 * delivery with outcome `recorded`, readable at `GET /api/user/push-notifications`.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PushAdapter, PushMessage } from './push.port.js';

/** A sandbox adapter for `channel` ('web' targets are subscriptions, 'apns' targets tokens). */
export function sandboxPushAdapter<T>(channel: 'web' | 'apns', log: FastifyBaseLogger): PushAdapter<T> {
  return {
    name: 'sandbox',
    async send(target: T, message: PushMessage) {
      const device = typeof target === 'string' ? `${target.slice(0, 8)}…` : (target as { endpoint?: string }).endpoint;
      log.info({ push: { channel, device, kind: message.kind, title: message.title, body: message.body, url: message.url } }, 'push recorded (sandbox)');
      return { outcome: 'recorded', statusCode: null, error: null };
    },
  };
}
