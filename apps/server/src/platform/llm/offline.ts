/**
 * The offline engine of the language-model port (the sandbox and the default; docs/call-intelligence.md
 * "Questions about a call"): extraction with wink-nlp over the passages retrieval found, never beyond them.
 *
 * - Questions about an amount ("how much", "price", "cost", "quote"), a day or time ("when", "what day", "what
 *   time") or a count ("how many") are answered with the first entity of that kind (wink's MONEY, DATE/TIME,
 *   CARDINAL) in the passages, best first, quoting its passage. No such entity: not found.
 * - Yes/no questions ("did", "do", "is", "will", "can", …) are answered Yes or No by the cues of the passage and the
 *   one after it (the other person's reply): yes, yeah, sure, booked, confirmed, sounds good… / no, not, can't,
 *   cancel…; no cue: the passage is quoted as what the transcript says.
 * - Other questions: the best passage is quoted.
 */
import type { LanguageModel, LlmAnswer, LlmPassage } from './llm.port.js';
import { entitiesOf, tokensOf } from './nlp.js';

/** The kind of answer a question expects. */
export type QuestionKind = 'money' | 'time' | 'count' | 'yesno' | 'open';

const AUXILIARIES = new Set(['did', 'do', 'does', 'is', 'are', 'was', 'were', 'will', 'would', 'can', 'could', 'has', 'have', 'had', 'should', 'am']);

/** What a question asks for, from its first words and cue words. */
export function questionKind(question: string): QuestionKind {
  const q = question.toLowerCase();
  if (/\bhow much\b|\bprice\b|\bcost\b|\bquot(e|ed)\b|\bcharge\b|\bfee\b|\bdollars?\b|\bpay\b|\bbudget\b|\$/.test(q)) return 'money';
  if (/^\s*when\b|\bwhat (time|day|date)\b|\bwhich (day|date)\b|\bwhat day\b/.test(q)) return 'time';
  if (/\bhow many\b|\bnumber of\b/.test(q)) return 'count';
  const first = tokensOf(question)[0]?.normal ?? '';
  if (AUXILIARIES.has(first)) return 'yesno';
  return 'open';
}

/** wink entity types that answer each kind. */
export const ENTITY_TYPES: Partial<Record<QuestionKind, readonly string[]>> = {
  money: ['MONEY'],
  time: ['DATE', 'TIME'],
  count: ['CARDINAL'],
};

const YES =
  /\b(yes|yeah|yep|yup|sure|absolutely|definitely|correct|confirmed|booked|sounds good|that works|works for me|of course|okay|ok|deal|go ahead|perfect|great)\b/i;
const NO = /\b(no|nope|not|don't|do not|can't|cannot|won't|didn't|never|cancel(l?ed)?|decline[d]?|not interested|no thanks)\b/i;

const quote = (p: LlmPassage) => `“${p.text}”`;

/** Answers from the passages only (see the module's docstring). */
export async function offlineAnswer(question: string, passages: readonly LlmPassage[]): Promise<LlmAnswer> {
  if (passages.length === 0) return { answer: '', found: false, cited: [] };
  const kind = questionKind(question);
  const types = ENTITY_TYPES[kind];
  if (types) {
    for (const p of passages) {
      const e = entitiesOf(p.text).find((x) => types.includes(x.type));
      if (e) return { answer: `${e.value} — the transcript says: ${quote(p)}`, found: true, cited: [p.id] };
    }
    return { answer: '', found: false, cited: [] };
  }
  const best = passages[0]!;
  if (kind === 'yesno') {
    const reply = passages.find((p) => p.id === best.id + 1 && p.speaker !== best.speaker);
    for (const p of reply ? [reply, best] : [best]) {
      const yes = YES.exec(p.text);
      const no = NO.exec(p.text);
      if (yes || no) {
        const saidYes = yes !== null && (no === null || yes.index < no.index);
        const cited = reply && p === reply ? [best.id, reply.id] : [best.id];
        const words = cited
          .map((id) => passages.find((x) => x.id === id)!)
          .map(quote)
          .join(' ');
        return { answer: `${saidYes ? 'Yes' : 'No'} — the transcript says: ${words}`, found: true, cited };
      }
    }
  }
  return { answer: `The transcript says: ${quote(best)}`, found: true, cited: [best.id] };
}

export const offlineModel: LanguageModel = { engine: 'offline', answer: offlineAnswer };
