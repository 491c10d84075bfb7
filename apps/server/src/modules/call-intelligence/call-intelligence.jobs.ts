/**
 * Jobs of call intelligence: `call-intelligence.export` (a transcript-search CSV; call-intelligence.search.ts) and
 * `call-intelligence.index-voicemails` (call-intelligence.indexing.ts `backfillVoicemailDocs`: voicemails transcribed
 * before transcript search took them). The queue has no cron (platform/queue.ts), so the backfill is enqueued once
 * per process a few seconds after the jobs are defined (the queue has started by then), as a singleton.
 */
import type { AppContext } from '../../context.js';
import { isLastAttempt } from '../../platform/queue.js';
import { backfillVoicemailDocs } from './call-intelligence.indexing.js';
import { SEARCH_EXPORT_JOB, runSearchExport } from './call-intelligence.search.js';

export const VOICEMAIL_BACKFILL_JOB = 'call-intelligence.index-voicemails';

export function registerCallIntelligenceJobs(ctx: AppContext): void {
  ctx.queue.define<{ exportId: number }>(SEARCH_EXPORT_JOB, async (data, job) => runSearchExport(ctx, data.exportId, isLastAttempt(job)), 1);
  ctx.queue.define<Record<string, never>>(
    VOICEMAIL_BACKFILL_JOB,
    async () => {
      const written = await backfillVoicemailDocs(ctx);
      if (written > 0) ctx.log.info({ written }, 'call intelligence: voicemails indexed for transcript search');
    },
    1,
  );
  if (!ctx.config.runWorkers) return;
  setTimeout(() => {
    ctx.queue.enqueue(VOICEMAIL_BACKFILL_JOB, {}, { singletonKey: 'ci:index-voicemails' }).catch((error: unknown) => {
      ctx.log.warn({ err: error }, 'call intelligence: could not enqueue the voicemail backfill');
    });
  }, 3_000).unref();
}
