/** Job handlers of the calls module (thin: they call the service). */
import type { AppContext } from '../../context.js';
import { FETCH_RECORDING_JOB, fetchRecording } from './calls.service.js';

export function registerCallsJobs(ctx: AppContext): void {
  ctx.queue.define<{ voicemailId: number }>(FETCH_RECORDING_JOB, (data) => fetchRecording(ctx, data.voicemailId));
}
