/**
 * The language-model port (docs/call-intelligence.md "Questions about a call"): answers a question from numbered
 * transcript passages only, and says which passages it rests on. Adapters: `offline` (the sandbox and the default:
 * extraction with wink-nlp, offline.ts) and `openai` (any OpenAI-compatible chat-completions API, openai.ts, when
 * `LLM_API_KEY` is set). Neither may answer beyond the passages: `found` false when they do not contain the answer.
 */

/** A transcript passage handed to the model (speaker 0 mixed, 1 agent, 2 client; times in seconds). */
export type LlmPassage = { id: number; speaker: number; start: number; end: number; text: string };

/** The model's answer: `cited` are ids of the passages it rests on (empty when not found). */
export type LlmAnswer = { answer: string; found: boolean; cited: number[] };

export interface LanguageModel {
  /** `offline` for the local engine, `llm` for a hosted model. */
  readonly engine: 'offline' | 'llm';
  /** Answers `question` from `passages` (best first). @throws Error when a hosted model fails (the caller falls back). */
  answer(question: string, passages: readonly LlmPassage[]): Promise<LlmAnswer>;
}
