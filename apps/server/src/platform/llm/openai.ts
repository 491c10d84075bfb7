/**
 * OpenAI-compatible chat-completions adapter of the language-model port (POST {baseUrl}/chat/completions with
 * `Authorization: Bearer`, documented REST API; works with OpenAI and compatible servers). The model sees only the
 * numbered passages, is told to answer from them alone, to cite them as [n], and to reply NOT_FOUND otherwise.
 * Request: {model, temperature 0, messages [system, user]}; the answer is `choices[0].message.content`.
 * Failures (timeout, network, non-2xx such as 429 or 5xx, a body that is not a completion) throw
 * {@link LlmUnavailableError}; the caller answers with the offline engine instead (no retry: a person is waiting).
 */
import type { LanguageModel, LlmAnswer, LlmPassage } from './llm.port.js';

/** The hosted model failed: `status` is the HTTP status (0 for a timeout, network failure or unreadable answer). */
export class LlmUnavailableError extends Error {
  override readonly name = 'LlmUnavailableError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The adapter's settings (platform/config.ts `llm`; docs/call-intelligence.md "Configuration"). */
export type OpenAiCompatibleSettings = {
  apiKey: string;
  /** Base URL without a trailing slash, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  /** Longest wait for one answer, ms (LLM_TIMEOUT_MS, default 20000). */
  timeoutMs?: number;
};

const SPEAKER = ['Speaker', 'Agent', 'Client'];
const SYSTEM_PROMPT =
  'You answer questions about one phone call using ONLY the numbered transcript passages given. ' +
  'Never use outside knowledge and never guess. Answer in one or two short sentences and cite the passages you used as [n]. ' +
  'If the passages do not contain the answer, reply exactly NOT_FOUND.';

/** Default timeout of one request (ms). */
const TIMEOUT_MS = 20_000;

/** The error body of OpenAI-compatible APIs: {error: {message}} (some servers: {message} or {detail}). */
function providerMessage(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const b = body as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
  const msg = typeof b.error === 'string' ? b.error : (b.error?.message ?? b.message ?? b.detail);
  return typeof msg === 'string' ? msg.slice(0, 300) : '';
}

/**
 * The language model behind an OpenAI-compatible chat-completions API.
 * @throws LlmUnavailableError from `answer` when the API fails (see the module doc).
 */
export function openAiCompatibleModel(s: OpenAiCompatibleSettings, fetchImpl: typeof fetch = fetch): LanguageModel {
  const timeoutMs = s.timeoutMs ?? TIMEOUT_MS;
  return {
    engine: 'llm',
    async answer(question: string, passages: readonly LlmPassage[]): Promise<LlmAnswer> {
      if (passages.length === 0) return { answer: '', found: false, cited: [] };
      const context = passages.map((p) => `[${p.id}] (${SPEAKER[p.speaker] ?? 'Speaker'}, ${p.start.toFixed(1)}s) ${p.text}`).join('\n');
      let body: { choices?: Array<{ message?: { content?: string | null } }> };
      try {
        const res = await fetchImpl(`${s.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: s.model,
            temperature: 0,
            messages: [
              { role: 'system', content: SYSTEM_PROMPT },
              { role: 'user', content: `Transcript passages:\n${context}\n\nQuestion: ${question}` },
            ],
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) {
          const detail = providerMessage(await res.json().catch(() => null));
          throw new LlmUnavailableError(`The language model answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`, res.status);
        }
        body = (await res.json()) as typeof body;
      } catch (e) {
        if (e instanceof LlmUnavailableError) throw e;
        if (e instanceof Error && e.name === 'TimeoutError') throw new LlmUnavailableError(`The language model did not answer within ${timeoutMs} ms`, 0);
        throw new LlmUnavailableError(`The language model could not be reached: ${e instanceof Error ? e.message : String(e)}`, 0);
      }
      if (!Array.isArray(body?.choices)) throw new LlmUnavailableError('The language model answered without choices', 0);
      const text = body.choices?.[0]?.message?.content?.trim() ?? '';
      if (text === '' || /^NOT_FOUND\b/.test(text)) return { answer: '', found: false, cited: [] };
      const known = new Set(passages.map((p) => p.id));
      const cited = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])).filter((n) => known.has(n)))];
      // An answer that cites nothing it was given is not grounded in the transcript: treated as not found.
      if (cited.length === 0) return { answer: '', found: false, cited: [] };
      return { answer: text.replace(/\s*\[\d+\]/g, '').trim(), found: true, cited };
    },
  };
}
