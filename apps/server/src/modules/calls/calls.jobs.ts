/** Job handlers of the calls module (thin: they call the use case). */
import type { AppContext } from '../../context.js';
import { FETCH_RECORDING_JOB, fetchRecording } from './voicemails.js';

/** Registers the recording copy job (`calls.fetch-recording`). */
export function registerCallsJobs(ctx: AppContext): void {
  ctx.queue.define<{ voicemailId: number }>(FETCH_RECORDING_JOB, (data) => fetchRecording(ctx, data.voicemailId));
}
