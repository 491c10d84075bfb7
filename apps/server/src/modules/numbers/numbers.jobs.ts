/** Job handlers of the numbers module: `numbers.batch` (release, bulk update, bulk purchase). */
import type { AppContext } from '../../context.js';
import { isLastAttempt } from '../../platform/queue.js';
import { NUMBER_BATCH_JOB, runBatch } from './numbers-batches.service.js';

/** Defines the numbers module's queue job `numbers.batch`. */
export function registerNumbersJobs(ctx: AppContext): void {
  ctx.queue.define<{ batchId: string }>(NUMBER_BATCH_JOB, (data, job) => runBatch(ctx, data.batchId, { lastAttempt: isLastAttempt(job) }));
}
