/**
 * Transcripts of call recordings and voicemails (spec 001 "Call (analysis view)": transcription with
 * id, state, text, metadata, statistics and raw segments; speakers mixed 0, agent 1, client 2;
 * docs/transcription.md). Reads for other modules (`readTranscript`, `readCallVoicemailTranscript`,
 * `readSearchableTranscripts`, `voicemailTranscriptTexts`)
 * and the DTO shared by the call detail; the job that fills a transcript is in transcription.jobs.ts.
 */
import type { Transcription, TranscriptMetadata } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { transcriptionRepository, type SegmentRow, type TranscriptRow } from './transcription.repository.js';

function num(v: string | number | null): number | null {
  return v === null ? null : Number(v);
}

function metadataOf(row: TranscriptRow): TranscriptMetadata {
  const m = row.metadata as Record<string, unknown>;
  return {
    provider: typeof m.provider === 'string' ? m.provider : null,
    language: typeof m.language === 'string' ? m.language : null,
    audio_s: typeof m.audio_s === 'number' ? m.audio_s : null,
    error: typeof m.error === 'string' ? m.error : null,
    source: row.voicemail_id !== null ? 'voicemail' : 'recording',
  };
}

/** The spec's Transcription shape of a stored transcript and its segments (times in seconds). */
export function transcriptionDto(row: TranscriptRow, segments: SegmentRow[]): Transcription {
  return {
    id: row.id,
    state: row.state,
    text: row.text,
    metadata: metadataOf(row),
    statistics: { agent: num(row.agent_pct), client: num(row.client_pct) },
    segments: segments.map((s) => ({
      channel: s.channel,
      speaker: s.speaker as 0 | 1 | 2,
      transcript: s.transcript,
      start: s.start_s,
      end: s.end_s,
    })),
  };
}

/**
 * The transcript of a call's own two-channel recording (not its voicemail's), or null when the
 * call has none (not recorded, transcription off, or another company's call: `companyId` must own
 * it). No access check of the user: the caller has checked the call already.
 */
export async function readTranscript(ctx: AppContext, q: { companyId: number; callId: number }, db: DbOrTx = ctx.db): Promise<Transcription | null> {
  const row = await transcriptionRepository.findForCall(db, q.callId);
  if (!row || row.company_id !== q.companyId) return null;
  return transcriptionDto(row, row.state === 'complete' ? await transcriptionRepository.segments(db, row.id) : []);
}

/** The transcript of a voicemail (same shape), or null. `companyId` must own it. */
export async function readVoicemailTranscript(
  ctx: AppContext,
  q: { companyId: number; voicemailId: number },
  db: DbOrTx = ctx.db,
): Promise<Transcription | null> {
  const row = await transcriptionRepository.findForVoicemail(db, q.voicemailId);
  if (!row || row.company_id !== q.companyId) return null;
  return transcriptionDto(row, row.state === 'complete' ? await transcriptionRepository.segments(db, row.id) : []);
}

/**
 * The transcript of the voicemail left on call `callId` (same shape; `metadata.source` 'voicemail', speaker client),
 * or null when the call has no transcribed voicemail. `companyId` must own it. No access check of the user.
 */
export async function readCallVoicemailTranscript(
  ctx: AppContext,
  q: { companyId: number; callId: number },
  db: DbOrTx = ctx.db,
): Promise<Transcription | null> {
  const row = await transcriptionRepository.findVoicemailOfCall(db, q.callId);
  if (!row || row.company_id !== q.companyId) return null;
  return transcriptionDto(row, row.state === 'complete' ? await transcriptionRepository.segments(db, row.id) : []);
}

/**
 * What transcript search indexes for a call (docs/call-intelligence.md "Search"): the complete transcripts of its
 * own recording and of its voicemail, recording first; empty when it has neither. `companyId` must own them.
 */
export async function readSearchableTranscripts(ctx: AppContext, q: { companyId: number; callId: number }, db: DbOrTx = ctx.db): Promise<Transcription[]> {
  const both = [await readTranscript(ctx, q, db), await readCallVoicemailTranscript(ctx, q, db)];
  return both.filter((t): t is Transcription => t !== null && t.state === 'complete');
}

/**
 * A page of complete voicemail transcripts (ids above `afterId`, ascending, at most `limit`): `{id, callId,
 * companyId}`, for indexing voicemails stored before transcript search took them (call-intelligence's backfill).
 */
export async function completeVoicemailTranscriptPage(
  ctx: AppContext,
  afterId: number,
  limit: number,
): Promise<Array<{ id: number; callId: number; companyId: number }>> {
  const rows = await transcriptionRepository.completeVoicemailTranscripts(ctx.db, afterId, limit);
  return rows.map((r) => ({ id: r.id, callId: r.call_id, companyId: r.company_id }));
}

/**
 * The state and text of these voicemails' transcripts, by voicemail id (one statement for a page of
 * the inbox); a voicemail without a transcript is absent. Rows of another company are left out.
 */
export async function voicemailTranscriptTexts(
  ctx: AppContext,
  companyId: number,
  voicemailIds: number[],
  db: DbOrTx = ctx.db,
): Promise<Map<number, { state: Transcription['state']; text: string }>> {
  const rows = await transcriptionRepository.forVoicemails(db, voicemailIds);
  return new Map(rows.filter((r) => r.company_id === companyId).map((r) => [r.voicemail_id!, { state: r.state, text: r.text }]));
}
