/** The transcription module's entry. Call recording transcripts: the transcription job through the transcription port, segments by speaker, talk statistics (spec 001 "transcription"; docs/transcription.md). See `platform/module.ts`. */
import type { AppContext } from '../../context.js';
import type { ModuleEntry } from '../../platform/module.js';
import { sendVoicemailAlertWithText } from '../calls/voicemails.js';
import { findRoutingById } from '../numbers/numbers.service.js';
import { registerTranscriptLiveUpdates, registerTranscriptionJobs, startTranscript } from './transcription.jobs.js';
import { readCallVoicemailTranscript, readTranscript, voicemailTranscriptTexts } from './transcription.service.js';

/**
 * Hooks into the calls module: a stored call recording or voicemail of a number with
 * `call_transcription_enabled` gets a loading transcript and its job (in the storing transaction);
 * `GET /calls/{id}?include=transcription` adds the call's transcript and its voicemail's; a transcribed voicemail's
 * alert e-mail goes out when its transcript settles, with the text; the inbox's voicemail items
 * carry their transcript (conversations' voicemail-text hook), and so do the voicemail list's items (calls'
 * voicemail transcript source).
 */
function setupTranscription(ctx: AppContext): void {
  registerTranscriptLiveUpdates();
  ctx.hooks.provide('recordingListener', async (ctx, tx, s) => {
    const number = await findRoutingById(ctx, s.numberId, tx);
    if (!number?.call_transcription_enabled) return false;
    await startTranscript(ctx, tx, s);
    return true;
  });
  ctx.hooks.provide('callDetailExtension', async (ctx, call, include) => {
    if (!include.includes('transcription')) return {};
    const q = { companyId: call.company_id, callId: call.id };
    // The call's recording transcript and, apart, its voicemail's (docs/transcription.md "Voicemails").
    return { transcription: await readTranscript(ctx, q), voicemail_transcription: await readCallVoicemailTranscript(ctx, q) };
  });
  ctx.hooks.provide('voicemailText', voicemailTranscriptTexts);
  ctx.hooks.provide('voicemailTranscript', voicemailTranscriptTexts);
  ctx.hooks.provide('transcriptSettled', async (ctx, tx, row, state, text) => {
    if (row.voicemail_id !== null) await sendVoicemailAlertWithText(ctx, tx, row.voicemail_id, state === 'complete' ? text : undefined);
  });
}

export const transcriptionModule: ModuleEntry[] = [{ name: 'transcription', jobs: registerTranscriptionJobs, setup: setupTranscription }];
