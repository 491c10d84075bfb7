/** Job handlers of the contacts module: `contacts.import` (see contacts.import.ts). */
import type { AppContext } from '../../context.js';
import { IMPORT_JOB, runContactImport } from './contacts.import.js';

/** Defines the contacts module's queue jobs (the resumable `contacts.import`, one at a time). */
export function registerContactsJobs(ctx: AppContext): void {
  ctx.queue.define<{ batchId: string }>(IMPORT_JOB, async (data) => runContactImport(ctx, data.batchId), 1, { resumable: true });
}
