/**
 * The language-model port's factory (docs/call-intelligence.md "Configuration"): `LLM_API_KEY` set → the
 * OpenAI-compatible adapter (`LLM_BASE_URL`, default https://api.openai.com/v1; `LLM_MODEL`, default gpt-4o-mini);
 * otherwise the offline engine. Read from the environment once per process.
 */
import type { LanguageModel } from './llm.port.js';
import { offlineModel } from './offline.js';
import { openAiCompatibleModel } from './openai.js';

export type { LanguageModel, LlmAnswer, LlmPassage } from './llm.port.js';
export { ENTITY_TYPES, offlineModel, questionKind, type QuestionKind } from './offline.js';
export { entitiesOf, termsOf, tokensOf, type Entity, type Token } from './nlp.js';

/** The language-model settings of the environment (empty key: offline). */
export function llmSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): { apiKey: string; baseUrl: string; model: string } {
  return {
    apiKey: env.LLM_API_KEY ?? '',
    baseUrl: (env.LLM_BASE_URL || 'https://api.openai.com/v1').replace(/\/+$/, ''),
    model: env.LLM_MODEL || 'gpt-4o-mini',
  };
}

let cached: LanguageModel | null = null;
/** The configured model (the offline engine without `LLM_API_KEY`). */
export function languageModel(env: NodeJS.ProcessEnv = process.env): LanguageModel {
  if (cached) return cached;
  const s = llmSettingsFromEnv(env);
  cached = s.apiKey ? openAiCompatibleModel(s) : offlineModel;
  return cached;
}
