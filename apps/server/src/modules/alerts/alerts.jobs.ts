/**
 * The monitors' jobs (pg-boss, idempotent; docs/alerts.md "Evaluation"):
 * - `alerts.tick`: one monitor run ({@link runMonitors}). Every worker node enqueues one per `monitorTuning.tickMs`
 *   (singleton key per minute); a second run, on this node or another, raises nothing twice.
 * - `alerts.check-calls` {companyId}: the company's missed-call check, a few seconds after its calls.
 */
import type { AppContext } from '../../context.js';
import type { App } from '../../platform/http/app-type.js';
import { CHECK_CALLS_JOB, TICK_JOB, checkMissedCalls, monitorTuning, runMonitors } from './alerts.monitors.js';

export function registerAlertJobs(ctx: AppContext): void {
  ctx.queue.define<{ at?: string }>(TICK_JOB, async () => runMonitors(ctx), 1);
  ctx.queue.define<{ companyId: number }>(CHECK_CALLS_JOB, async (data) => checkMissedCalls(ctx, data.companyId), 2);
}

/** Starts this node's ticker once the app is ready (worker nodes only) and stops it when the app closes. */
export function registerAlertTicker(app: App, ctx: AppContext): void {
  if (!ctx.config.runWorkers) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      const slot = new Date(Math.floor(Date.now() / monitorTuning.tickMs) * monitorTuning.tickMs).toISOString();
      ctx.queue
        .enqueue(TICK_JOB, { at: slot }, { singletonKey: `alerts-tick-${slot}` })
        .catch((e: unknown) => ctx.log.warn({ err: e }, 'alerts: could not enqueue the monitor run'));
    }, monitorTuning.tickMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
