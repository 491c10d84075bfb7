/**
 * The language-model port's factory (docs/call-intelligence.md "Configuration"): `llm.apiKey` set (LLM_API_KEY) →
 * the OpenAI-compatible adapter (`LLM_BASE_URL`, default https://api.openai.com/v1; `LLM_MODEL`, default
 * gpt-4o-mini; `LLM_TIMEOUT_MS`, default 20000); otherwise the offline engine. The settings are read by
 * `loadConfig` (platform/config.ts `llm`).
 */
import type { Config } from '../config.js';
import type { LanguageModel } from './llm.port.js';
import { offlineModel } from './offline.js';
import { openAiCompatibleModel } from './openai.js';

export type { LanguageModel, LlmAnswer, LlmPassage } from './llm.port.js';
export { ENTITY_TYPES, offlineModel, questionKind, type QuestionKind } from './offline.js';
export { entitiesOf, termsOf, tokensOf, type Entity, type Token } from './nlp.js';
export { LlmUnavailableError, openAiCompatibleModel, type OpenAiCompatibleSettings } from './openai.js';

const models = new WeakMap<Config['llm'], LanguageModel>();

/** The configured model: the hosted one when `config.llm.apiKey` is set, else the offline engine (one per config). */
export function languageModel(config: Pick<Config, 'llm'>): LanguageModel {
  const s = config.llm;
  let model = models.get(s);
  if (!model) {
    model = s.apiKey ? openAiCompatibleModel(s) : offlineModel;
    models.set(s, model);
  }
  return model;
}
