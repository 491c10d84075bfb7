/** The webhooks module's entry: outbound webhooks signed with Standard Webhooks, deliveries and replays. See `platform/module.ts`. */
import type { ModuleEntry } from '../../platform/module.js';
import { endpointCompany } from './webhooks.service.js';
import { DELIVER_JOB, runDeliveryAttempt } from './webhooks.delivery.js';
import { registerWebhookSubscribers } from './webhooks.events.js';
import { registerWebhookRoutes } from './webhooks.routes.js';

export const webhooksModule: ModuleEntry[] = [
  {
    name: 'webhooks',
    routes: registerWebhookRoutes,
    setup: (ctx) => {
      registerWebhookSubscribers();
      // Audit entries of `/api/webhook-endpoints/{id}/…` name the endpoint's company.
      ctx.hooks.provide('auditCompanyOf', (id) => endpointCompany(ctx, Number(id)), 'webhook-endpoints');
    },
    jobs: (ctx) =>
      ctx.queue.define<{ deliveryId: number; attempt: number }>(DELIVER_JOB, ({ deliveryId, attempt }) => runDeliveryAttempt(ctx, deliveryId, attempt), 4),
  },
];
