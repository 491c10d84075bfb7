/**
 * Keeping the search read model (`call_search_docs`; docs/call-intelligence.md "Search") current:
 *
 * - `transcript.changed` with state `complete` for a call's recording (not a voicemail): the transcript is read
 *   through the transcription module (`readTranscript`), the call's facts through the calls module
 *   (`callsForFacts`) and in-app calling (`inAppHandlersOf`), the document is written, then the company's AI
 *   attribute rules run when the number has AI attributes on (call-intelligence.rules.ts).
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
import { readTranscript } from '../transcription/transcription.service.js';
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
 * Writes (or replaces) the search document of a call from a complete transcript. Returns false (nothing written)
 * when the transcript is not complete or the call does not exist or is another company's.
 */
export async function indexTranscript(ctx: AppContext, callId: number, companyId: number, transcript: TranscriptInput): Promise<boolean> {
  if (transcript.state !== 'complete') return false;
  const facts = (await docFactsOf(ctx, [callId])).get(callId);
  if (!facts || facts.company_id !== companyId) return false;
  const segments = searchSegmentsOf(transcript);
  const said = (speaker: number) =>
    segments
      .filter((s) => s.speaker === speaker)
      .map((s) => s.text)
      .join('\n');
  await intelligenceRepository.upsertDoc(ctx.db, {
    ...facts,
    call_id: callId,
    transcript_id: transcript.id,
    segments,
    text: segments.length ? segments.map((s) => s.text).join('\n') : transcript.text,
    agentText: said(1),
    clientText: said(2),
  });
  return true;
}

/** `transcript.changed` (platform/events/intelligence-events.ts): a complete call transcript is indexed, then the AI rules run. */
export async function onTranscriptChanged(
  ctx: AppContext,
  p: { callId: number; companyId: number; voicemailId: number | null; state: 'loading' | 'complete' | 'failed' },
): Promise<void> {
  if (p.state !== 'complete' || p.voicemailId !== null) return;
  const transcript = await readTranscript(ctx, { companyId: p.companyId, callId: p.callId });
  if (!transcript || transcript.state !== 'complete') return;
  if (!(await indexTranscript(ctx, p.callId, p.companyId, transcript))) return;
  await applyRulesOnTranscript(ctx, p.callId, p.companyId, false);
}

/** `call.changed` / `call.annotated`: refreshes the facts of the call's document, when it has one. */
export async function onCallChanged(ctx: AppContext, p: { callId: number }): Promise<void> {
  const [hasDoc] = await intelligenceRepository.docIdsOf(ctx.db, [p.callId]);
  if (hasDoc === undefined) return;
  const facts = (await docFactsOf(ctx, [p.callId])).get(p.callId);
  if (!facts) {
    await intelligenceRepository.deleteDoc(ctx.db, p.callId);
    return;
  }
  await intelligenceRepository.updateFacts(ctx.db, p.callId, facts);
}
