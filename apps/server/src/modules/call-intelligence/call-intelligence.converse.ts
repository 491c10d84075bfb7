/**
 * POST /api/calls/{id}/converse (spec 001 §7; docs/call-intelligence.md "Questions about a call"): answers a
 * question about one call from its transcript, with the passages (and their times) the answer rests on.
 *
 * 1. Retrieval: BM25 (k1 1.2, b 0.75) over windows of the transcript — each segment with the one after it (the
 *    reply) — on wink-nlp lemmas without stop words; the question's terms are widened by a few synonyms (price →
 *    cost, quote, charge, $; book → appointment, schedule). Generic words of questions (call, customer, say…) do
 *    not count. A question whose kind expects an amount, a day/time or a count also retrieves the segments that
 *    hold such an entity.
 * 2. The language-model port (platform/llm) answers from the retrieved passages only: the offline engine by
 *    default, a hosted model when `LLM_API_KEY` is set (the offline engine answers if it fails).
 * Nothing retrieved, or the model finds nothing: {@link CONVERSE_NOT_FOUND}. No complete transcript: {@link CONVERSE_NO_TRANSCRIPT}.
 */
import { CONVERSE_NO_TRANSCRIPT, CONVERSE_NOT_FOUND, TRANSCRIPT_SPEAKER_LABELS, type ConverseBody } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { SearchSegment } from '../../platform/db/schema-intelligence.js';
import { ENTITY_TYPES, entitiesOf, languageModel, offlineModel, questionKind, termsOf, type LanguageModel, type LlmPassage } from '../../platform/llm/index.js';
import { callForUser } from '../calls/calls.service.js';
import { readSearchableTranscripts } from '../transcription/transcription.service.js';
import { intelligenceRepository } from './call-intelligence.repository.js';

/** Passages handed to the model, best first. */
const TOP_PASSAGES = 4;

/** Words every question about a call may use without saying what it is about. */
const GENERIC = new Set([
  'call',
  'caller',
  'customer',
  'client',
  'agent',
  'say',
  'tell',
  'ask',
  'mention',
  'talk',
  'speak',
  'happen',
  'discuss',
  'person',
  'phone',
  'conversation',
  'transcript',
]);
const SYNONYMS: Record<string, string[]> = {
  price: ['cost', 'quote', 'charge', '$', 'dollar', 'total', 'fee'],
  cost: ['price', 'quote', 'charge', '$', 'dollar', 'total'],
  quote: ['price', 'cost', '$', 'dollar'],
  much: ['$', 'dollar', 'price', 'cost'],
  book: ['appointment', 'schedule', 'booked'],
  appointment: ['book', 'schedule', 'booked'],
  schedule: ['book', 'appointment'],
};

/** BM25 scores of documents (term lists) for query terms. */
export function bm25(docs: readonly string[][], query: readonly string[], k1 = 1.2, b = 0.75): number[] {
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, n);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  return docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of new Set(query)) {
      const f = tf.get(t) ?? 0;
      if (f === 0) continue;
      const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
      score += (idf * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * d.length) / Math.max(1, avg)));
    }
    return score;
  });
}

/** The passages of `segments` most relevant to `question`, best first (empty: nothing in the transcript relates). */
export function retrieve(question: string, segments: readonly SearchSegment[]): LlmPassage[] {
  const base = termsOf(question).filter((t) => !GENERIC.has(t));
  const query = [...new Set(base.flatMap((t) => [t, ...(SYNONYMS[t] ?? [])]))];
  const terms = segments.map((s) => termsOf(s.text));
  const windows = terms.map((t, i) => [...t, ...(terms[i + 1] ?? [])]);
  const scores = bm25(windows, query);
  const own = bm25(terms, query);
  const types = ENTITY_TYPES[questionKind(question)];
  const picked = segments
    .map((s, i) => ({ i, s, score: scores[i]! + own[i]!, entity: types ? entitiesOf(s.text).some((e) => types.includes(e.type)) : false }))
    .filter((x) => own[x.i]! > 0 || x.entity)
    .sort((a, b) => Number(b.entity) - Number(a.entity) || b.score - a.score || a.i - b.i)
    .slice(0, TOP_PASSAGES);
  // The reply after the best passage goes along (a yes/no answer is often the other person's next words).
  const out: LlmPassage[] = picked.map(({ i, s }) => ({ id: i, speaker: s.speaker, start: s.start, end: s.end, text: s.text }));
  const best = picked[0];
  if (best && segments[best.i + 1] && !out.some((p) => p.id === best.i + 1)) {
    const r = segments[best.i + 1]!;
    out.splice(1, 0, { id: best.i + 1, speaker: r.speaker, start: r.start, end: r.end, text: r.text });
  }
  return out;
}

/** Answers a question about the call `callId` (the person must read it: 404 otherwise). */
export async function converse(
  ctx: AppContext,
  userId: number,
  callId: number,
  message: string,
  model: LanguageModel = languageModel(ctx.config),
): Promise<ConverseBody> {
  const call = await callForUser(ctx, userId, callId);
  let segments = await intelligenceRepository.segmentsOf(ctx.db, call.id);
  if (!segments) {
    // Not indexed (yet): the call's complete transcripts, its recording's and its voicemail's, as the search document holds them.
    const ts = await readSearchableTranscripts(ctx, { companyId: call.company_id, callId: call.id });
    if (ts.length === 0) return { data: { question: message, answer: CONVERSE_NO_TRANSCRIPT, found: false, sources: [], engine: model.engine } };
    segments = ts
      .flatMap((t) => t.segments)
      .map((s) => ({ speaker: s.speaker, start: s.start, end: s.end, text: s.transcript.trim() }))
      .filter((s) => s.text !== '');
  }
  const passages = retrieve(message, segments);
  let engine = model.engine;
  let answer = passages.length
    ? await model.answer(message, passages).catch(async (error: unknown) => {
        ctx.log.warn({ err: error }, 'language model failed: answering with the offline engine');
        engine = 'offline';
        return offlineModel.answer(message, passages);
      })
    : { answer: '', found: false, cited: [] };
  if (!answer.found) answer = { answer: CONVERSE_NOT_FOUND, found: false, cited: [] };
  const sources = answer.cited
    .map((id) => passages.find((p) => p.id === id))
    .filter((p): p is LlmPassage => p !== undefined)
    .map((p) => ({
      speaker: p.speaker,
      speaker_label: TRANSCRIPT_SPEAKER_LABELS[p.speaker as 0 | 1 | 2] ?? 'Mixed',
      start: p.start,
      end: p.end,
      text: p.text,
    }));
  return { data: { question: message, answer: answer.answer, found: answer.found, sources, engine } };
}
