/**
 * The push module's entry: browser (Web Push) and APNs VoIP push of incoming calls and messages
 * (spec 000 §7 "beam-token"; docs/push.md). Its setup subscribes to `message.received` and to
 * in-app calling's rings; its job delivers each notification. See `platform/module.ts`.
 */
import type { ModuleEntry } from '../../platform/module.js';
import { registerPushRoutes } from './push.routes.js';
import { DELIVER_JOB, deliverNotification, registerPushReactions } from './push.service.js';

export const pushModule: ModuleEntry[] = [
  {
    name: 'push',
    routes: registerPushRoutes,
    setup: (ctx) => registerPushReactions(ctx),
    jobs: (ctx) => ctx.queue.define<{ notificationId: number }>(DELIVER_JOB, ({ notificationId }, job) => deliverNotification(ctx, notificationId, job), 4),
  },
];
