/**
 * Call recordings (spec 002 §3 "Number": `record`; docs/transcription.md "Recordings"): a number
 * with `record` on records its answered calls in two channels (inbound: the caller on channel 0, the
 * answering agent on channel 1; outbound from the browser: the agent's leg on channel 0, the called
 * party on channel 1). The carrier announces a finished recording on its recording status callback
 * (webhook kind `voice.recorded`, signed, handled once per recording); the recording is stored
 * (`call_recordings`), copied into the blob store under a key private to the company (job
 * `calls.fetch-call-recording`) and streamed to the company's users with HTTP Range support
 * (`GET /api/calls/{id}/recording`). Voicemails keep their own recording (voicemails.ts).
 *
 * Transcription (a higher module) learns of a new recording or voicemail through the listener it
 * provides (the `recordingListener` hook, `ctx.hooks`), called inside the webhook's transaction, so a transcript
 * and its job exist if and only if the recording was stored.
 */
import type { AppContext } from '../../context.js';
import type { CallFlowStep } from '../../carriers/carrier.port.js';
import type { VoiceEvent } from '../../carriers/carrier.events.js';
import { ownerOfKey } from '../../platform/blob/access.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { HookFn, RecordingStored } from '../../platform/hooks/registry.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { publishCallUpdated } from './call-changes.js';
import { callsRepository } from './calls.repository.js';
import { recordingsRepository, type CallRecordingRow } from './recordings.repository.js';

/** The job that copies a call recording into the blob store. */
export const FETCH_CALL_RECORDING_JOB = 'calls.fetch-call-recording';

/** What a recording listener is told: a call recording (`recordingId`) or a voicemail (`voicemailId`) was stored. */
export type { RecordingStored };
/** Called inside the storing transaction; returns whether the audio will be transcribed. The `recordingListener` hook (transcription provides it). */
export type RecordingListener = HookFn<'recordingListener'>;

/** Tells the listener (if any) about a stored recording or voicemail, inside `tx`. @returns whether it will be transcribed. */
export async function announceRecording(ctx: AppContext, tx: DbOrTx, stored: RecordingStored): Promise<boolean> {
  return ctx.hooks.ask('recordingListener', ctx, tx, stored);
}

/**
 * Marks `dial` steps to record the call in two channels with the recording status callback, when
 * the number records (`record`). Other steps are returned as they are.
 */
export function withRecording(ctx: AppContext, record: boolean | undefined, steps: CallFlowStep[]): CallFlowStep[] {
  if (!record) return steps;
  return steps.map((s) => (s.kind === 'dial' ? { ...s, record: true, recordingStatusCallback: ctx.carrier.webhookUrl('voice.recorded') } : s));
}

/**
 * The recording status callback (`voice.recorded`), inside the webhook's transaction: a completed
 * recording of a known call is stored (once per recording id), its copy queued and the listener
 * told. Other statuses, unknown calls and posts without a recording are ignored.
 * @returns the call to announce as changed, or undefined.
 */
export async function handleRecordingStatus(
  ctx: AppContext,
  tx: DbOrTx,
  p: VoiceEvent,
): Promise<{ companyId: number; id: number; status: number } | undefined> {
  if ((p.recordingStatus ?? 'completed') !== 'completed' || !p.recordingSid || !p.recordingUrl || !p.callSid) return undefined;
  const call = await callsRepository.findBySidForUpdate(tx, p.callSid);
  if (!call) return undefined;
  const { row, created } = await recordingsRepository.insert(tx, {
    company_id: call.company_id,
    call_id: call.id,
    carrier_sid: p.recordingSid,
    source_url: p.recordingUrl,
    channels: p.recordingChannels || 1,
    duration_s: p.recordingDurationS,
  });
  if (!created) return undefined;
  await ctx.queue.enqueue(FETCH_CALL_RECORDING_JOB, { recordingId: row.id }, { singletonKey: `rec:${row.id}` }, tx);
  await announceRecording(ctx, tx, {
    companyId: call.company_id,
    callId: call.id,
    numberId: call.number_id,
    recordingId: row.id,
    voicemailId: null,
    direction: call.direction === 'outbound' ? 'outbound' : 'inbound',
  });
  return { companyId: call.company_id, id: call.id, status: call.status };
}

function blobKeyOf(ctx: AppContext, rec: CallRecordingRow): string {
  return ctx.blobs.derivedKey(rec.company_id, 'call-recordings', String(rec.id), '.wav');
}

/**
 * Job `calls.fetch-call-recording` (and on demand): copies the recording from the carrier into the
 * blob store once. Idempotent: a stored recording is left alone.
 * @returns the stored row. @throws CarrierError when the carrier does not serve it (the job retries).
 */
export async function fetchCallRecording(ctx: AppContext, recordingId: number): Promise<CallRecordingRow | undefined> {
  const rec = await recordingsRepository.find(ctx.db, recordingId);
  if (!rec || (rec.state === 'stored' && rec.blob_key)) return rec;
  const key = blobKeyOf(ctx, rec);
  const { data } = await ctx.carrier.fetchRecording(rec.source_url);
  await ctx.blobs.put(key, data);
  await recordingsRepository.markStored(ctx.db, rec.id, key);
  const call = await callsRepository.find(ctx.db, rec.call_id);
  if (call) publishCallUpdated(ctx, { companyId: call.company_id, id: call.id, status: call.status });
  return { ...rec, blob_key: key, state: 'stored' };
}

/**
 * The audio of a stored call recording or voicemail (for transcription), copied from the carrier
 * first when not yet in the blob store.
 * @throws NotFoundError when the recording or voicemail is gone; CarrierError when the carrier does not serve it.
 */
export async function recordingAudio(ctx: AppContext, ref: { recordingId: number } | { voicemailId: number }): Promise<{ data: Buffer; contentType: string }> {
  if ('recordingId' in ref) {
    const rec = await fetchCallRecording(ctx, ref.recordingId);
    const data = rec?.blob_key ? await ctx.blobs.get(rec.blob_key) : null;
    if (!data) throw new NotFoundError('Recording');
    return { data, contentType: 'audio/wav' };
  }
  const vm = await callsRepository.findVoicemail(ctx.db, ref.voicemailId);
  if (!vm) throw new NotFoundError('Voicemail');
  const key = ctx.blobs.keyOf(vm.recording_url);
  if (key && ownerOfKey(key) === vm.company_id) {
    const data = await ctx.blobs.get(key);
    if (data) return { data, contentType: 'audio/wav' };
  }
  return ctx.carrier.fetchRecording(vm.recording_url);
}

/** What the call detail adds for `include` (transcription registers `transcription`). */
export type CallDetailExtension = HookFn<'callDetailExtension'>;

/** The call detail's recording (always) and what registered extensions add for `include`. */
export async function callDetailExtras(
  ctx: AppContext,
  call: { id: number; company_id: number },
  include: readonly string[],
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { recording: await callRecordingView(ctx, call.id) };
  for (const fn of ctx.hooks.all('callDetailExtension')) Object.assign(out, await fn(ctx, call, include));
  return out;
}

/** The call's recording for the call detail (null when it has none): the streaming route and its state. */
export async function callRecordingView(
  ctx: AppContext,
  callId: number,
): Promise<{ id: number; url: string; channels: number; duration_s: number; state: 'pending' | 'stored' | 'failed' } | null> {
  const rec = await recordingsRepository.forCall(ctx.db, callId);
  if (!rec) return null;
  return { id: rec.id, url: `/api/calls/${callId}/recording`, channels: rec.channels, duration_s: rec.duration_s, state: rec.state };
}

/** The blob key of a call's stored recording (for the streaming route). @throws NotFoundError when none is stored yet. */
export async function storedRecordingKey(ctx: AppContext, callId: number): Promise<string> {
  const rec = await recordingsRepository.forCall(ctx.db, callId);
  if (!rec?.blob_key) throw new NotFoundError('Recording');
  return rec.blob_key;
}

/**
 * Deletes every call recording and voicemail of company `companyId` with their stored audio (the consumer area's
 * account deletion, docs/consumer-area.md "Account deletion"); the calls themselves stay. Blobs whose key names
 * another company are left alone. @returns how many recordings and voicemails were deleted.
 */
export async function deleteCompanyRecordings(ctx: AppContext, companyId: number): Promise<{ recordings: number; voicemails: number }> {
  const { recordings, voicemails } = await ctx.db.transaction().execute(async (tx) => ({
    recordings: await recordingsRepository.deleteOfCompany(tx, companyId),
    voicemails: await recordingsRepository.deleteVoicemailsOfCompany(tx, companyId),
  }));
  const keys = [
    ...recordings.map((r) => r.blob_key ?? blobKeyOf(ctx, r)),
    ...voicemails.map((v) => ctx.blobs.keyOf(v.recording_url)).filter((k): k is string => Boolean(k)),
  ];
  for (const key of keys) if (ownerOfKey(key) === companyId) await ctx.blobs.delete(key);
  return { recordings: recordings.length, voicemails: voicemails.length };
}

/** Registers the recording copy job (`calls.fetch-call-recording`; the carrier's errors make the queue retry). */
export function registerRecordingJobs(ctx: AppContext): void {
  ctx.queue.define<{ recordingId: number }>(FETCH_CALL_RECORDING_JOB, async (data) => {
    await fetchCallRecording(ctx, data.recordingId);
  });
}
