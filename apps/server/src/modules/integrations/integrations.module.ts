/**
 * The integrations module's entry (level 8): ad platforms, analytics, CRMs and Slack (spec 002 §7 "Integrations";
 * docs/integrations.md). See `platform/module.ts`.
 * - routes: cards, GA4 and ADF CRUD, OAuth integrations (redirect, callback, activate, sync, deactivate, update,
 *   lookups), the delivery log with retry and replay, a call's deliveries, the sandbox consent page;
 * - setup: consumer `integrations.deliveries` of `call.attributed`, `call.changed`, `call.annotated`, `message.received`, `transcript.changed`
 *   (wakes deliveries waiting for a call's transcript);
 * - jobs: `integrations.send` (one pass over an integration's due deliveries) and a sweep every 15 s on worker nodes.
 */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { App } from '../../platform/http/app-type.js';
import type { ModuleEntry } from '../../platform/module.js';
import {
  SEND_JOB,
  deliveryTuning,
  onCallAnnotated,
  onCallsAttributed,
  onCallChanged,
  onMessageReceived,
  onTranscriptChanged,
  runSend,
  sweepDue,
} from './deliveries.js';
import { hasActiveIntegration } from './integrations.repository.js';
import { registerIntegrationRoutes } from './integrations.routes.js';

async function routes(app: App, ctx: AppContext): Promise<void> {
  await registerIntegrationRoutes(app, ctx);
  if (!ctx.config.runWorkers) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      sweepDue(ctx).catch((e: unknown) => ctx.log.warn({ err: e }, 'integrations: sweep failed'));
    }, deliveryTuning.sweepMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

function setup(): void {
  events.consumeBatch('integrations.deliveries', 'call.attributed', onCallsAttributed);
  // Conditions at emit (see `DeliveryCondition`): only a company with an active integration gets these deliveries.
  // `call.attributed` has none: its touch is kept for every call (the backfill of a later connection reads it).
  events.consume('integrations.deliveries', 'call.changed', onCallChanged, { when: hasActiveIntegration });
  events.consume('integrations.deliveries', 'call.annotated', onCallAnnotated, { when: hasActiveIntegration });
  events.consume('integrations.deliveries', 'message.received', onMessageReceived, { when: hasActiveIntegration });
  events.consume('integrations.deliveries', 'transcript.changed', onTranscriptChanged, { when: hasActiveIntegration });
}

function jobs(ctx: AppContext): void {
  ctx.queue.define<{ integrationId: number }>(SEND_JOB, ({ integrationId }) => runSend(ctx, integrationId), 4);
}

export const integrationsModule: ModuleEntry[] = [{ name: 'integrations', routes, setup, jobs }];
