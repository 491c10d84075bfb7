/**
 * Keeping the search read model (`call_search_docs`; docs/call-intelligence.md "Search") current:
 *
 * - `transcript.changed` with state `complete`, of a call's recording or of its voicemail: the call's complete
 *   transcripts are read through the transcription module (`readSearchableTranscripts`), the call's facts through
 *   the calls module (`callsForFacts`) and in-app calling (`inAppHandlersOf`), the document is written, then (a
 *   recording's transcript) the company's AI attribute rules run when the number has AI attributes on
 *   (call-intelligence.rules.ts). Voicemails transcribed before search took them are indexed by the backfill job.
 * - `call.changed` / `call.annotated`: the facts of calls that have a document are read again (tags,
 *   qualification, status, duration); calls without a transcript are ignored.
 *
 * Events are in-process: a lost event leaves a document stale until the next change of the call.
 */
import { ANSWER_STATUS } from '@switchboard/contracts';
import { CALL_STATUS } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { SearchSegment } from '../../platform/db/schema-intelligence.js';
import { callsForFacts, type CallForFacts } from '../calls/calls.service.js';
import { inAppHandlersOf } from '../in-app-calling/in-app-calling.service.js';
import { completeVoicemailTranscriptPage, readSearchableTranscripts } from '../transcription/transcription.service.js';
import { intelligenceRepository, type DocFacts } from './call-intelligence.repository.js';
import { applyRulesOnTranscript } from './call-intelligence.rules.js';

/** The transcript shape indexed (spec 001 "Call (analysis view)"; speakers 0 mixed, 1 agent, 2 client; times s). */
export type TranscriptInput = {
  id: number;
  state: string;
  text: string;
  segments: ReadonlyArray<{ channel: number; speaker: number; transcript: string; start: number; end: number }>;
};

/**
 * The answer status of a call (spec 001 "Call status by number": none 0, answered 1, missed 2, voicemail 3,
 * blocked 4) by the rule of docs/analytics.md "What a fact says" (the reporting store's rule, repeated here:
 * analytics is a higher module).
 */
export function answerStatusOf(c: Pick<CallForFacts, 'status' | 'voicemail_id' | 'answered_at' | 'ended_at'>): number {
  if (c.status === CALL_STATUS.BLOCKED) return ANSWER_STATUS.blocked;
  if (c.voicemail_id !== null || c.status === CALL_STATUS.VOICEMAIL) return ANSWER_STATUS.voicemail;
  if (c.answered_at !== null || c.status === CALL_STATUS.CONNECTED || c.status === CALL_STATUS.ANSWERED_ALREADY) return ANSWER_STATUS.answered;
  const ended: number[] = [CALL_STATUS.NO_ANSWER, CALL_STATUS.NO_ANSWER_8, CALL_STATUS.REJECTED, CALL_STATUS.MISSED, CALL_STATUS.HANGUP, CALL_STATUS.HANGUP_11];
  if (ended.includes(c.status) || c.ended_at !== null) return ANSWER_STATUS.missed;
  return ANSWER_STATUS.none;
}

/** The search facts of calls (ids that do not exist are absent). */
export async function docFactsOf(ctx: AppContext, callIds: readonly number[]): Promise<Map<number, DocFacts>> {
  const calls = await callsForFacts(ctx, callIds);
  const handlers = await inAppHandlersOf(
    ctx,
    calls.map((c) => c.id),
  );
  return new Map(
    calls.map((c) => [
      c.id,
      {
        company_id: c.company_id,
        number_id: c.number_id,
        started_at: new Date(c.started_at),
        duration_s: c.duration_s ?? 0,
        direction: c.direction,
        caller: c.direction === 'outbound' ? c.to_number : c.from_number,
        answer_status: answerStatusOf(c),
        answered_by: handlers.get(c.id) ?? null,
        qualification: c.qualification,
        tag_ids: c.tag_ids,
      },
    ]),
  );
}

/** The segments as stored for passages (empty segments dropped, text trimmed). */
function searchSegmentsOf(t: TranscriptInput): SearchSegment[] {
  return t.segments.map((s) => ({ speaker: s.speaker, start: s.start, end: s.end, text: s.transcript.trim() })).filter((s) => s.text !== '');
}

/**
 * Writes (or replaces) the search document of a call from its complete transcripts: its recording's and its
 * voicemail's (docs/call-intelligence.md "Search": a voicemail is found like a conversation, the caller's words
 * as the client's), one after the other in the order given; the document's `transcript_id` is the first's.
 * Returns false (nothing written) when none is complete or the call does not exist or is another company's.
 */
export async function indexTranscript(
  ctx: AppContext,
  callId: number,
  companyId: number,
  transcript: TranscriptInput | readonly TranscriptInput[],
): Promise<boolean> {
  const complete = (Array.isArray(transcript) ? transcript : [transcript as TranscriptInput]).filter((t) => t.state === 'complete');
  if (complete.length === 0) return false;
  const facts = (await docFactsOf(ctx, [callId])).get(callId);
  if (!facts || facts.company_id !== companyId) return false;
  const segments = complete.flatMap(searchSegmentsOf);
  const said = (speaker: number) =>
    segments
      .filter((s) => s.speaker === speaker)
      .map((s) => s.text)
      .join('\n');
  await intelligenceRepository.upsertDoc(ctx.db, {
    ...facts,
    call_id: callId,
    transcript_id: complete[0]!.id,
    segments,
    text: segments.length ? segments.map((s) => s.text).join('\n') : complete.map((t) => t.text).join('\n'),
    agentText: said(1),
    clientText: said(2),
  });
  return true;
}

/** Indexes the call's complete transcripts (recording and voicemail) through the transcription module; false when none. */
export async function indexCall(ctx: AppContext, callId: number, companyId: number): Promise<boolean> {
  const transcripts = await readSearchableTranscripts(ctx, { companyId, callId });
  return transcripts.length > 0 && indexTranscript(ctx, callId, companyId, transcripts);
}

/**
 * `transcript.changed` (platform/events/intelligence-events.ts): a complete transcript, of a call's recording or of
 * its voicemail, (re)indexes the call; the AI rules then run for a recording's transcript.
 */
export async function onTranscriptChanged(
  ctx: AppContext,
  p: { callId: number; companyId: number; voicemailId: number | null; state: 'loading' | 'complete' | 'failed' },
): Promise<void> {
  if (p.state !== 'complete') return;
  if (!(await indexCall(ctx, p.callId, p.companyId))) return;
  if (p.voicemailId === null) await applyRulesOnTranscript(ctx, p.callId, p.companyId, false);
}

/** Voicemail transcripts read per page by the backfill. */
const BACKFILL_PAGE = 500;

/**
 * Job `call-intelligence.index-voicemails`: indexes the calls whose voicemail transcript completed before transcript
 * search took voicemails (they have no document). Pages through the complete voicemail transcripts by id; a call
 * that already has a document is left alone (a later change of its transcripts reindexes it). Idempotent.
 * @returns how many calls were indexed.
 */
export async function backfillVoicemailDocs(ctx: AppContext): Promise<number> {
  let after = 0;
  let written = 0;
  for (;;) {
    const page = await completeVoicemailTranscriptPage(ctx, after, BACKFILL_PAGE);
    if (page.length === 0) return written;
    after = page.at(-1)!.id;
    const indexed = new Set(
      await intelligenceRepository.docIdsOf(
        ctx.db,
        page.map((t) => t.callId),
      ),
    );
    for (const t of page) {
      if (indexed.has(t.callId)) continue;
      if (await indexCall(ctx, t.callId, t.companyId)) written += 1;
      indexed.add(t.callId);
    }
  }
}

/**
 * `call.changed` / `call.annotated` (a round's events together): refreshes the facts of the calls' documents, for
 * the calls that have one (most calls have none until transcribed: one lookup for the round).
 */
export async function onCallsChanged(ctx: AppContext, items: ReadonlyArray<{ payload: { callId: number } }>): Promise<void> {
  const withDoc = await intelligenceRepository.docIdsOf(
    ctx.db,
    items.map((i) => i.payload.callId),
  );
  if (withDoc.length === 0) return;
  const facts = await docFactsOf(ctx, withDoc);
  for (const callId of withDoc) {
    const f = facts.get(callId);
    if (f) await intelligenceRepository.updateFacts(ctx.db, callId, f);
    else await intelligenceRepository.deleteDoc(ctx.db, callId);
  }
}
