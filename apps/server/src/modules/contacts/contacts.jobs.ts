/** Job handlers of the contacts module: `contacts.import` (see contacts.import.ts). */
import type { AppContext } from '../../context.js';
import { IMPORT_JOB, runContactImport } from './contacts.import.js';

export function registerContactsJobs(ctx: AppContext): void {
  ctx.queue.define<{ batchId: string }>(IMPORT_JOB, async (data) => runContactImport(ctx, data.batchId), 1, { resumable: true });
}
