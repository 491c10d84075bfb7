/** Job handlers of the ports module: `ports.advance` (sandbox port-in progress). */
import type { AppContext } from '../../context.js';
import { isLastAttempt } from '../../platform/queue.js';
import { PORT_ADVANCE_JOB, advancePort } from './ports.service.js';

/** Defines the ports module's queue job `ports.advance`. */
export function registerPortsJobs(ctx: AppContext): void {
  ctx.queue.define<{ portId: number; step: 'in_progress' | 'finish' }>(PORT_ADVANCE_JOB, (data, job) =>
    advancePort(ctx, data, { lastAttempt: isLastAttempt(job) }),
  );
}
