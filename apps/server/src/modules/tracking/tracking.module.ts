/**
 * The tracking module's entry: call tracking (DNI pools, sources, the tracking script, visitor
 * sessions, attribution; spec 002 "DNI", docs/tracking.md). See `platform/module.ts`.
 * - routes: the signed-in API (`tracking.routes.ts`) and the script's public calls with the demo
 *   site (`tracking-public.routes.ts`);
 * - jobs: the session sweep (`tracking.sweep-sessions`);
 * - setup: attribution on `call.changed`, leads on `message.received`, a pool's bought numbers on
 *   `number.batch-finished`; the call-time routing of a tracking number whose routes reach no one.
 */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { App } from '../../platform/http/app-type.js';
import type { ModuleEntry } from '../../platform/module.js';
import { SESSION_SWEEP_JOB, sweepSessions } from './assignment.js';
import { onCallsAttributedLive, onCallsChanged, onMessagesReceived } from './attribution.js';
import { onNumberBatchFinished, trackingNumberFallbackRouting } from './pools.js';
import { registerTrackingPublicRoutes } from './tracking-public.routes.js';
import { registerTrackingRoutes } from './tracking.routes.js';

function routes(app: App, ctx: AppContext): void {
  registerTrackingRoutes(app, ctx);
  registerTrackingPublicRoutes(app, ctx);
}

function jobs(ctx: AppContext): void {
  ctx.queue.define<{ due?: string }>(SESSION_SWEEP_JOB, async (data) => sweepSessions(ctx, data), 1);
}

function setup(ctx: AppContext): void {
  // A tracking number whose routes reach no one rings its pool's target or the company's main routing.
  ctx.hooks.provide('emptyRoutingFallback', trackingNumberFallbackRouting);
  events.consumeBatch('tracking.attribution', 'call.changed', onCallsChanged);
  events.consumeBatch('tracking.attribution', 'message.received', onMessagesReceived);
  events.consume('tracking.attribution', 'number.batch-finished', onNumberBatchFinished);
  events.consumeBatch('tracking.live', 'call.attributed', onCallsAttributedLive);
}

export const trackingModule: ModuleEntry[] = [{ name: 'tracking', routes, jobs, setup }];
