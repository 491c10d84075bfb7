/** Job handlers of the calls module (thin: they call the use case). */
import type { AppContext } from '../../context.js';
import { HELD_LEG_CHECK_JOB, checkHeldBrowserLeg } from './browser-calls.js';
import { FETCH_RECORDING_JOB, fetchRecording } from './voicemails.js';

/** Registers the recording copy job (`calls.fetch-recording`) and the held browser leg's check (`calls.held-leg-check`). */
export function registerCallsJobs(ctx: AppContext): void {
  ctx.queue.define<{ voicemailId: number }>(FETCH_RECORDING_JOB, (data) => fetchRecording(ctx, data.voicemailId));
  ctx.queue.define<{ callId: number }>(HELD_LEG_CHECK_JOB, (data) => checkHeldBrowserLeg(ctx, data.callId));
}
