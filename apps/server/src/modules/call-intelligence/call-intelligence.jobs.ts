/** Jobs of call intelligence: `call-intelligence.export` (a transcript-search CSV; call-intelligence.search.ts). */
import type { AppContext } from '../../context.js';
import { isLastAttempt } from '../../platform/queue.js';
import { SEARCH_EXPORT_JOB, runSearchExport } from './call-intelligence.search.js';

export function registerCallIntelligenceJobs(ctx: AppContext): void {
  ctx.queue.define<{ exportId: number }>(SEARCH_EXPORT_JOB, async (data, job) => runSearchExport(ctx, data.exportId, isLastAttempt(job)), 1);
}
