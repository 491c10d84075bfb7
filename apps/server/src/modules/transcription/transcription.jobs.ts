/**
 * The transcription job (docs/transcription.md "The job"): `transcription.transcribe` {transcriptId}.
 * Reads the recording's audio (through the calls module), hands it to the configured transcriber
 * (platform/transcription: sandbox, deepgram or whisper; the same path for all three), and writes
 * the complete transcript (text, metadata, statistics, segments by speaker) in ONE transaction, so
 * a transcript is never half written. A provider failure is retried by the queue
 * (`TRANSCRIBE_RETRY_LIMIT` retries, `transcriptionTuning.retryDelayS` apart); a failure that cannot
 * succeed (bad audio, bad key) or the last attempt marks the transcript `failed` with the error in
 * `metadata.error`. Idempotent: a transcript no longer `loading` is left alone. Emits
 * `transcript.changed` and the live event `transcript updated` after each commit.
 */
import type { JobWithMetadata } from 'pg-boss';
import { TRANSCRIPT_SPEAKER, TRANSCRIPT_UPDATED, type TranscriptState } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { events, type Emitted } from '../../platform/events/index.js';
import { isLastAttempt } from '../../platform/queue.js';
import {
  TranscriptionError,
  createTranscriber,
  type RecognisedSegment,
  type Transcriber,
  type TranscriptionResult,
} from '../../platform/transcription/index.js';
import { recordingAudio } from '../calls/recordings.js';
import { transcriptionRepository, type NewSegment, type TranscriptRow } from './transcription.repository.js';

export const TRANSCRIBE_JOB = 'transcription.transcribe';
/** Retries of a provider failure before the transcript is marked failed. */
export const TRANSCRIBE_RETRY_LIMIT = 3;
/** Retry timing (tests lower it). */
export const transcriptionTuning = { retryDelayS: 30 };

const transcribers = new WeakMap<AppContext, Transcriber>();

/** The context's transcriber (created from config on first use). */
export function transcriberOf(ctx: AppContext): Transcriber {
  let t = transcribers.get(ctx);
  if (!t) {
    t = createTranscriber(ctx.config);
    transcribers.set(ctx, t);
  }
  return t;
}

/** Replaces the context's transcriber (tests: a provider that fails). */
export function useTranscriber(ctx: AppContext, t: Transcriber): void {
  transcribers.set(ctx, t);
}

/**
 * Speaker of a channel of a two-channel call recording: channel 0 is the leg that reached the
 * carrier first (inbound: the caller → client 2; outbound from the browser: the agent → agent 1),
 * channel 1 the dialed party. Mono audio is mixed (0); a voicemail is the client's.
 */
export function speakerOf(channel: number, channels: number, voicemail: boolean, outbound = false): 0 | 1 | 2 {
  if (voicemail) return TRANSCRIPT_SPEAKER.client;
  if (channels < 2) return TRANSCRIPT_SPEAKER.mixed;
  const firstLeg = channel === 0;
  return firstLeg !== outbound ? TRANSCRIPT_SPEAKER.client : TRANSCRIPT_SPEAKER.agent;
}

/**
 * Talk shares in percent (two decimals) of the agent and the client: each speaker's summed segment
 * time over both speakers' time. Null when nobody spoke.
 */
export function talkShares(segments: Array<{ speaker: number; start: number; end: number }>): { agent: number | null; client: number | null } {
  let agent = 0;
  let client = 0;
  for (const s of segments) {
    const d = Math.max(0, s.end - s.start);
    if (s.speaker === TRANSCRIPT_SPEAKER.agent) agent += d;
    else if (s.speaker === TRANSCRIPT_SPEAKER.client) client += d;
  }
  const total = agent + client;
  if (total <= 0) return { agent: null, client: null };
  const a = Math.round((agent / total) * 10000) / 100;
  return { agent: a, client: Math.round((100 - a) * 100) / 100 };
}

/** The transcript's text: its segments in time order, one per line, "Agent: ..." / "Client: ...". */
function textOf(segments: NewSegment[]): string {
  const label = { 0: '', 1: 'Agent: ', 2: 'Client: ' } as Record<number, string>;
  return segments.map((s) => `${label[s.speaker] ?? ''}${s.transcript}`).join('\n');
}

/** Inside the settling transaction: records `transcript.changed` (the outbox). */
function recordChange(tx: DbOrTx, row: TranscriptRow, state: TranscriptState, audioS: number | null): Promise<Emitted> {
  return events.emit(tx, 'transcript.changed', {
    transcriptId: row.id,
    callId: row.call_id,
    companyId: row.company_id,
    voicemailId: row.voicemail_id,
    state,
    audioS,
  });
}

/** After commit: the dispatch of `transcript.changed` (its `transcription.live` consumer sends `transcript updated`). */
async function announce(ctx: AppContext, emitted: Emitted): Promise<void> {
  await events.dispatch(ctx, emitted);
}

/**
 * The live `transcript updated` {call_id, transcript_id, voicemail_id, state} on `company.{companyId}` as a consumer
 * of the recorded `transcript.changed` (one announcement per change). Called by the module's setup.
 */
export function registerTranscriptLiveUpdates(): void {
  events.consume('transcription.live', 'transcript.changed', (ctx, e) => {
    ctx.realtime.send(`company.${e.companyId}`, TRANSCRIPT_UPDATED, {
      call_id: e.callId,
      transcript_id: e.transcriptId,
      voicemail_id: e.voicemailId,
      state: e.state,
    });
  });
}

/** The `transcriptSettled` hook: run in the completing transaction (the voicemail alert mails the text); provided in the module's setup. */
export type TranscriptSettled = import('../../platform/hooks/registry.js').HookFn<'transcriptSettled'>;

/** Runs one attempt of the job. See the module doc. */
export async function transcribe(ctx: AppContext, transcriptId: number, job?: Pick<JobWithMetadata<unknown>, 'retryCount' | 'retryLimit'>): Promise<void> {
  const row = await transcriptionRepository.find(ctx.db, transcriptId);
  if (!row || row.state !== 'loading') return;
  await transcriptionRepository.countAttempt(ctx.db, row.id);
  const transcriber = transcriberOf(ctx);
  const direction = (row.metadata as { direction?: string } | null)?.direction === 'outbound' ? 'outbound' : 'inbound';
  const base = { provider: transcriber.name, source: row.voicemail_id !== null ? 'voicemail' : 'recording', direction };
  let result: TranscriptionResult;
  try {
    const audio = await recordingAudio(ctx, row.voicemail_id !== null ? { voicemailId: row.voicemail_id } : { recordingId: row.recording_id! });
    result = await transcriber.transcribe(audio.data, audio.contentType);
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const retryable = !(e instanceof TranscriptionError) || e.retryable;
    if (retryable && !isLastAttempt(job)) throw err; // the queue retries
    await settle(ctx, row, 'failed', { ...base, error: `Transcription failed: ${err.message}` });
    return;
  }
  const voicemail = row.voicemail_id !== null;
  const outbound = direction === 'outbound';
  const segments: NewSegment[] = result.segments.map((s: RecognisedSegment) => ({
    channel: s.channel,
    speaker: speakerOf(s.channel, result.channels, voicemail, outbound),
    transcript: s.transcript,
    start: round2(s.start),
    end: round2(Math.max(s.start, s.end)),
  }));
  const shares = talkShares(segments);
  await settle(
    ctx,
    row,
    'complete',
    { ...base, provider: result.provider, language: result.language, audio_s: result.audioS, error: null },
    {
      text: textOf(segments),
      segments,
      agentPct: voicemail ? null : shares.agent,
      clientPct: voicemail ? null : shares.client,
    },
  );
}

async function settle(
  ctx: AppContext,
  row: TranscriptRow,
  state: 'complete' | 'failed',
  metadata: Record<string, unknown>,
  done?: { text: string; segments: NewSegment[]; agentPct: number | null; clientPct: number | null },
): Promise<void> {
  const wrote = await ctx.db.transaction().execute(async (tx) => {
    const current = await transcriptionRepository.findForUpdate(tx, row.id);
    if (!current || current.state !== 'loading') return undefined; // another run settled it
    if (state === 'complete' && done) await transcriptionRepository.complete(tx, row.id, { ...done, metadata });
    else await transcriptionRepository.fail(tx, row.id, metadata);
    for (const fn of ctx.hooks.all('transcriptSettled')) await fn(ctx, tx, current, state, done?.text ?? '');
    return recordChange(tx, row, state, typeof metadata.audio_s === 'number' ? metadata.audio_s : null);
  });
  if (wrote) await announce(ctx, wrote);
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Registers the job (retries per TRANSCRIBE_RETRY_LIMIT; see the module doc). */
export function registerTranscriptionJobs(ctx: AppContext): void {
  ctx.queue.define<{ transcriptId: number }>(TRANSCRIBE_JOB, (data, job) => transcribe(ctx, data.transcriptId, job));
}

/** Creates the loading transcript and queues its job inside `tx` (once per recording or voicemail). */
export async function startTranscript(
  ctx: AppContext,
  tx: import('../../platform/db/db.js').DbOrTx,
  s: { companyId: number; callId: number; recordingId: number | null; voicemailId: number | null; direction?: 'inbound' | 'outbound' },
): Promise<TranscriptRow> {
  const { row, created } = await transcriptionRepository.createLoading(tx, {
    company_id: s.companyId,
    call_id: s.callId,
    voicemail_id: s.voicemailId,
    recording_id: s.recordingId,
    metadata: { provider: transcriberOf(ctx).name, direction: s.direction ?? 'inbound' },
  });
  if (created) {
    await ctx.queue.enqueue(
      TRANSCRIBE_JOB,
      { transcriptId: row.id },
      { singletonKey: `tr:${row.id}`, retryLimit: TRANSCRIBE_RETRY_LIMIT, retryDelay: transcriptionTuning.retryDelayS },
      tx,
    );
  }
  return row;
}
