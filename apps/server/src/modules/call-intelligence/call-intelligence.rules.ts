/**
 * AI attributes (docs/call-intelligence.md "AI attributes"): per-company rules that read a call's transcript and
 * set its qualification (spec 001: qualified 1, not qualified 2, lead 3), an outcome (spec 002 §3 call outcomes) or
 * a department (spec 002 §3 department types) — the latter two as values of a Call custom field the rule names.
 *
 * - A rule matches when any of its keywords or phrases is said (by its speaker, or anyone), case-insensitive, on
 *   word boundaries. Per target the first matching enabled rule (by position, then id) wins; a target no rule
 *   matches is left as it is (never cleared: a person's own choice stays).
 * - Run when a call's transcript completes, for numbers with AI attributes on (`ai_eav_enabled` on the number when
 *   the numbers module has it, else the company's general setting), and on PATCH /calls/{id} with
 *   `recalculateAiAttributes` (always: the person asked).
 * - CRUD: GET/POST /api/companies/{companyId}/ai-rules, PUT/DELETE /api/companies/{companyId}/ai-rules/{id}.
 */
import { AI_QUALIFICATION_VALUES, type AiRule, type AiRuleInput } from '@switchboard/contracts';
import { EAV_ENTITY_TYPES } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { SearchSegment } from '../../platform/db/schema-intelligence.js';
import { NotFoundError, fieldError } from '../../platform/http/errors.js';
import { applyAiAttributes } from '../calls/calls.service.js';
import { assertCompanyAccess } from '../companies/companies.service.js';
import { coerceEavValue, listAttributes } from '../custom-fields/custom-fields.service.js';
import { getCompanyNumber } from '../numbers/numbers.service.js';
import { getGeneralSettings } from '../settings/settings.service.js';
import { intelligenceRepository, type RuleRow } from './call-intelligence.repository.js';

function toRule(r: RuleRow): AiRule {
  return {
    id: Number(r.id),
    company_id: Number(r.company_id),
    name: r.name,
    target: r.target,
    value: r.value,
    attribute_id: r.attribute_id === null ? null : Number(r.attribute_id),
    keywords: r.keywords,
    speaker: r.speaker,
    position: r.position,
    enabled: r.enabled,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** GET: the company's rules in the order they are tried. */
export async function listRules(ctx: AppContext, userId: number, companyId: number): Promise<{ data: AiRule[] }> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: (await intelligenceRepository.listRules(ctx.db, companyId)).map(toRule) };
}

/** 422 on `attribute_id` unless it is a Call custom field of the company; 422 on `value` when the field refuses the value. */
async function checkAttribute(ctx: AppContext, userId: number, companyId: number, input: AiRuleInput): Promise<number | null> {
  if (input.target === 'qualification') return null;
  const fields = (await listAttributes(ctx, userId, { companyId, entityType: EAV_ENTITY_TYPES.Call })).data;
  const field = fields.find((f) => f.id === input.attribute_id);
  if (!field) throw fieldError('attribute_id', 'The selected custom field is not a call custom field of this company.');
  coerceEavValue(field, input.value, 'value');
  return field.id;
}

/** POST: a new rule. @throws ValidationError (422), ForbiddenError (403). */
export async function createRule(ctx: AppContext, userId: number, companyId: number, input: AiRuleInput): Promise<{ data: AiRule }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const attributeId = await checkAttribute(ctx, userId, companyId, input);
  const row = await intelligenceRepository.insertRule(ctx.db, {
    company_id: companyId,
    name: input.name,
    target: input.target,
    value: input.value,
    attribute_id: attributeId,
    keywords: JSON.stringify(input.keywords),
    speaker: input.speaker ?? null,
    position: input.position ?? 0,
    enabled: input.enabled ?? true,
    created_at: new Date(),
    updated_at: new Date(),
  });
  return { data: toRule(row) };
}

/** PUT: replaces a rule. @throws NotFoundError (another company's or unknown id), ValidationError. */
export async function updateRule(ctx: AppContext, userId: number, companyId: number, id: number, input: AiRuleInput): Promise<{ data: AiRule }> {
  await assertCompanyAccess(ctx, userId, companyId);
  if (!(await intelligenceRepository.findRule(ctx.db, companyId, id))) throw new NotFoundError('Rule');
  const attributeId = await checkAttribute(ctx, userId, companyId, input);
  const row = await intelligenceRepository.updateRule(ctx.db, companyId, id, {
    name: input.name,
    target: input.target,
    value: input.value,
    attribute_id: attributeId,
    keywords: JSON.stringify(input.keywords),
    speaker: input.speaker ?? null,
    position: input.position ?? 0,
    enabled: input.enabled ?? true,
  });
  if (!row) throw new NotFoundError('Rule');
  return { data: toRule(row) };
}

/** DELETE. @throws NotFoundError. */
export async function deleteRule(ctx: AppContext, userId: number, companyId: number, id: number): Promise<{ message: string }> {
  await assertCompanyAccess(ctx, userId, companyId);
  if (!(await intelligenceRepository.deleteRule(ctx.db, companyId, id))) throw new NotFoundError('Rule');
  return { message: 'The rule was deleted.' };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A keyword or phrase as a case-insensitive pattern on word boundaries (any run of spaces between words). */
export function keywordPattern(keyword: string): RegExp {
  const words = keyword.trim().split(/\s+/).map(escapeRegExp).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'iu');
}

/** What the rules set for a transcript: per target, the first matching rule (rules already in order). */
export function matchRules(rules: readonly RuleRow[], segments: readonly SearchSegment[]): Map<string, RuleRow> {
  const won = new Map<string, RuleRow>();
  for (const rule of rules) {
    if (!rule.enabled || won.has(rule.target)) continue;
    const text = segments
      .filter((s) => rule.speaker === null || s.speaker === rule.speaker)
      .map((s) => s.text)
      .join('\n');
    if (rule.keywords.some((k) => keywordPattern(k).test(text))) won.set(rule.target, rule);
  }
  return won;
}

/** Whether AI attributes run for a number: its own `ai_eav_enabled` when the numbers module has it, else the company's setting. */
async function aiEnabledFor(ctx: AppContext, companyId: number, numberId: number): Promise<boolean> {
  try {
    const n = (await getCompanyNumber(ctx, companyId, numberId)) as unknown as { ai_eav_enabled?: boolean | null };
    if (typeof n.ai_eav_enabled === 'boolean') return n.ai_eav_enabled;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error; // a released number: the company's setting decides
  }
  return (await getGeneralSettings(ctx, companyId)).ai_eav_enabled;
}

/**
 * Applies the company's rules to the call's indexed transcript. `force`: run whatever the number's setting
 * (recalculation asked for). Returns what was set (target → value), empty when nothing matched or AI attributes are off.
 */
export async function applyRulesOnTranscript(ctx: AppContext, callId: number, companyId: number, force: boolean): Promise<Record<string, string>> {
  const segments = await intelligenceRepository.segmentsOf(ctx.db, callId);
  if (!segments) return {};
  const rules = await intelligenceRepository.listRules(ctx.db, companyId);
  if (rules.length === 0) return {};
  if (!force) {
    const [doc] = await intelligenceRepository.docNumbersOf(ctx.db, [callId]);
    if (!doc || !(await aiEnabledFor(ctx, companyId, doc.number_id))) return {};
  }
  const won = matchRules(rules, segments);
  if (won.size === 0) return {};
  const q = won.get('qualification');
  const eav = [...won.values()]
    .filter((r) => r.target !== 'qualification' && r.attribute_id !== null)
    .map((r) => ({ attribute_id: Number(r.attribute_id), value: r.value }));
  await applyAiAttributes(ctx, callId, companyId, {
    ...(q ? { qualification: AI_QUALIFICATION_VALUES[q.value as keyof typeof AI_QUALIFICATION_VALUES] } : {}),
    eavAttributeValues: eav,
  });
  return Object.fromEntries([...won].map(([target, r]) => [target, r.value]));
}

/** The `recalculateAiAttributes` hook of PATCH /calls/{id} (registered in the module's setup). */
export async function recalculateAiAttributes(ctx: AppContext, call: { id: number; company_id: number }): Promise<void> {
  await applyRulesOnTranscript(ctx, call.id, call.company_id, true);
}
