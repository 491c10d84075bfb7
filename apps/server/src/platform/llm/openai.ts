/**
 * OpenAI-compatible chat-completions adapter of the language-model port (POST {baseUrl}/chat/completions with
 * `Authorization: Bearer`, documented REST API; works with OpenAI and compatible servers). The model sees only the
 * numbered passages, is told to answer from them alone, to cite them as [n], and to reply NOT_FOUND otherwise.
 */
import type { LanguageModel, LlmAnswer, LlmPassage } from './llm.port.js';

const SPEAKER = ['Speaker', 'Agent', 'Client'];
const SYSTEM_PROMPT =
  'You answer questions about one phone call using ONLY the numbered transcript passages given. ' +
  'Never use outside knowledge and never guess. Answer in one or two short sentences and cite the passages you used as [n]. ' +
  'If the passages do not contain the answer, reply exactly NOT_FOUND.';

/** Timeout of one request (ms). */
const TIMEOUT_MS = 20_000;

export function openAiCompatibleModel(s: { apiKey: string; baseUrl: string; model: string }, fetchImpl: typeof fetch = fetch): LanguageModel {
  return {
    engine: 'llm',
    async answer(question: string, passages: readonly LlmPassage[]): Promise<LlmAnswer> {
      if (passages.length === 0) return { answer: '', found: false, cited: [] };
      const context = passages.map((p) => `[${p.id}] (${SPEAKER[p.speaker] ?? 'Speaker'}, ${p.start.toFixed(1)}s) ${p.text}`).join('\n');
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
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`The language model answered HTTP ${res.status}`);
      const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
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
