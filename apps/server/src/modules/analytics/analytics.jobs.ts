/**
 * Jobs of the analytics module: `analytics.export` (analytics.exports.ts) and `analytics.reconcile`
 * (analytics.facts.ts `reconcileFacts`), which re-enqueues itself every 10 minutes. The queue has no
 * cron (platform/queue.ts: schedule off), so the first reconcile is enqueued 3 s after the jobs are
 * defined (the queue has started by then), else on the first domain event or report request; a run
 * records itself in `analytics_job_runs` and a second chain (another node, a restart) ends there.
 */
import type { AppContext } from '../../context.js';
import { flushFactRebuilds, reconcileFacts, scheduleFlush } from './analytics.facts.js';
import { registerExportJob } from './analytics.exports.js';
import { analyticsRepository } from './analytics.repository.js';

export const RECONCILE_JOB = 'analytics.reconcile';
/** Pause between reconcile passes (ms). */
export const RECONCILE_EVERY_MS = 10 * 60_000;

/** Per process: when the reconcile chain was last (re)started from here. */
const scheduledAt = new WeakMap<AppContext, number>();

/**
 * Starts a reconcile chain from this process at most once per RECONCILE_EVERY_MS (no-op without
 * workers). A chain whose run finds another run less than half a period old ends (`analytics_job_runs`),
 * so however many nodes and restarts start one, one chain lives; a chain that died is started again.
 */
export function ensureReconcileScheduled(ctx: AppContext): void {
  const last = scheduledAt.get(ctx);
  if (!ctx.config.runWorkers || (last !== undefined && Date.now() - last < RECONCILE_EVERY_MS)) return;
  scheduledAt.set(ctx, Date.now());
  ctx.queue.enqueue(RECONCILE_JOB, {}).catch((error: unknown) => {
    scheduledAt.delete(ctx); // e.g. the queue is not started yet: try again on the next request or event
    ctx.log.warn({ err: error }, 'analytics: could not schedule the reconcile job yet');
  });
}

/** Defines the analytics jobs. */
export function registerAnalyticsJobs(ctx: AppContext): void {
  registerExportJob(ctx);
  // The queue starts once the app listens: the first reconcile (facts of calls stored before, e.g. the demo seed) a few seconds later.
  setTimeout(() => ensureReconcileScheduled(ctx), 3_000).unref();
  // Calls a crash left pending (call_facts_pending) are rebuilt a few seconds after the start.
  scheduleFlush(ctx, 3_000);
  ctx.queue.define<Record<string, never>>(
    RECONCILE_JOB,
    async () => {
      if (!(await analyticsRepository.claimJobRun(ctx.db, RECONCILE_JOB, RECONCILE_EVERY_MS / 2))) return; // another chain ran just now
      await flushFactRebuilds(ctx);
      const written = await reconcileFacts(ctx);
      if (written > 0) ctx.log.info({ written }, 'analytics: reconcile wrote call facts');
      await ctx.queue.enqueue(RECONCILE_JOB, {}, { startAfter: new Date(Date.now() + RECONCILE_EVERY_MS) });
    },
    1,
  );
}
