/**
 * The analytics module's entry: analytics (the reporting store, call reports, dashboard, exports; spec
 * 001 "Analytics", spec 002 "Dashboard"; docs/analytics.md). Setup subscribes the store to
 * `call.changed`, `call.annotated` and `call.attributed`, and drops
 * the cached answers of a company on `message.received`, `message.status-changed` and `fax.changed`. See `platform/module.ts`.
 */
import type { AppContext } from '../../context.js';
import type { ModuleEntry } from '../../platform/module.js';
import { events } from '../../platform/events/index.js';
import { onCallsAttributed, onCallsChanged, stopFactFlushes } from './analytics.facts.js';
import { ensureReconcileScheduled, registerAnalyticsJobs } from './analytics.jobs.js';
import { markCompaniesChanged } from './analytics.live.js';
import { registerAnalyticsRoutes } from './analytics.routes.js';

/** Subscriptions of the reporting store (named functions: registering twice is a no-op). */
async function onChanged(ctx: AppContext, items: ReadonlyArray<{ payload: { callId: number } }>): Promise<void> {
  ensureReconcileScheduled(ctx);
  await onCallsChanged(ctx, items);
}
/** Messages count on the dashboard: a received or (re)sent message changes the company's figures. */
function onMessage(ctx: AppContext, payload: { companyId: number }): void {
  markCompaniesChanged(ctx, [payload.companyId]);
}

export const analyticsModule: ModuleEntry[] = [
  {
    name: 'analytics',
    routes: (app, ctx) => {
      registerAnalyticsRoutes(app, ctx);
      // The pending facts' flushes stop with the server (what is pending stays for the next start).
      app.addHook('onClose', () => stopFactFlushes(ctx));
    },
    jobs: registerAnalyticsJobs,
    setup: () => {
      events.consumeBatch('analytics.facts', 'call.changed', onChanged);
      events.consumeBatch('analytics.facts', 'call.annotated', onChanged);
      events.consumeBatch('analytics.facts', 'call.attributed', onCallsAttributed);
      events.consume('analytics.facts', 'message.received', onMessage);
      events.consume('analytics.facts', 'message.status-changed', onMessage);
      events.consume('analytics.facts', 'fax.changed', onMessage);
    },
  },
];
