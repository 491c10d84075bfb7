/**
 * The billing job (pg-boss, idempotent; docs/billing.md "Renewal", "Charging and dunning"): `billing.tick` runs one
 * billing pass ({@link runBillingTick}: period ends, dunning retries, numbers held today). Every worker node enqueues
 * one per {@link billingTuning}.tickMs with a singleton key per slot; a second pass finds nothing left to do
 * (renewals lock the subscription and move its period in one transaction; an invoice is charged only while open).
 */
import type { AppContext } from '../../context.js';
import type { App } from '../../platform/http/app-type.js';
import { runBillingTick } from './billing.invoices.js';

export const BILLING_TICK_JOB = 'billing.tick';
/** How often the billing pass runs (ms; default 10 minutes). */
export const billingTuning = { tickMs: 10 * 60_000 };

export function registerBillingJobs(ctx: AppContext): void {
  ctx.queue.define<{ at?: string }>(
    BILLING_TICK_JOB,
    async () => {
      await runBillingTick(ctx);
    },
    1,
  );
}

/** Starts this node's ticker once the app is ready (worker nodes only) and stops it when the app closes. */
export function registerBillingTicker(app: App, ctx: AppContext): void {
  if (!ctx.config.runWorkers) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      const slot = new Date(Math.floor(Date.now() / billingTuning.tickMs) * billingTuning.tickMs).toISOString();
      ctx.queue
        .enqueue(BILLING_TICK_JOB, { at: slot }, { singletonKey: `billing-tick-${slot}` })
        .catch((e: unknown) => ctx.log.warn({ err: e }, 'billing: could not enqueue the billing pass'));
    }, billingTuning.tickMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
