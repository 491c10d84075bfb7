/**
 * Call intelligence contracts (spec 001 §7 "GET /calls/search", "POST /calls/{id}/converse", "PATCH /calls/{id}"
 * `recalculateAiAttributes`; spec 001 "Call (analysis view)": speakers mixed 0, agent 1, client 2, qualification
 * qualified 1, not qualified 2, lead 3; spec 002 §3 call outcomes and department types; docs/call-intelligence.md).
 * Times: `started_at` UTC ISO, `local_started_at` in the request's zone, passage times in seconds from the start of
 * the recording, durations in seconds.
 */
import { z } from 'zod';
import { ANSWER_STATUS_NAMES, DateRange } from './analytics.js';
import { CALL_OUTCOMES, DEPARTMENT_TYPES } from './calls.js';
import { Id, PageMeta, Timestamp, queryFlag, queryList } from './common.js';

const list = queryList;
const optFlag = queryFlag;

/** Speakers of a transcript (spec 001): the search's `speaker` takes a code or a name; 0 / `any` = every speaker. */
export const SEARCH_SPEAKERS = { any: 0, mixed: 0, agent: 1, client: 2 } as const;
const speakerValue = z.preprocess(
  (v) => (typeof v === 'string' && v in SEARCH_SPEAKERS ? SEARCH_SPEAKERS[v as keyof typeof SEARCH_SPEAKERS] : v === '' ? undefined : v),
  z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n === 1 || n === 2, 'The speaker must be any (0), agent (1) or client (2).')
    .optional(),
);
const answerStatusValue = z.preprocess(
  (v) => (typeof v === 'string' && /^\d$/.test(v) ? ANSWER_STATUS_NAMES[Number(v)] : typeof v === 'number' ? ANSWER_STATUS_NAMES[v] : v),
  z.enum(ANSWER_STATUS_NAMES),
);

/**
 * `GET /api/calls/search` (spec 001 §7). `q`: words (all must match, stemmed, English), `"quoted phrases"`, `or`,
 * `-word` (PostgreSQL `websearch_to_tsquery`); empty = every transcribed call, newest first. `dates`: local days of
 * `tz` (`to` inclusive) or ISO timestamps; absent = all time. `speaker`: whose words must match (and whose
 * passages are shown). `callers`: outside parties (E.164 or national digits). `format=csv` streams the results as
 * CSV; with `async=1` it is an export job (202) whose file arrives by `export ready`.
 */
export const CallSearchQuery = z.object({
  company_id: Id,
  format: z.enum(['json', 'csv']).default('json'),
  async: optFlag,
  q: z.string().max(500).optional(),
  numbers: list(Id),
  companies: list(Id, 1000),
  businessUnits: list(Id, 100),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  dates: DateRange,
  speaker: speakerValue,
  isQualified: optFlag,
  /** Seconds. */
  minDuration: z.coerce.number().int().min(0).max(86_400).optional(),
  tag_ids: list(Id),
  callers: list(z.string().trim().min(1).max(40), 200),
  answerStatus: list(answerStatusValue, 5),
  answered_by: list(Id),
  tz: z.string().max(64).optional(),
});
export type CallSearchQuery = z.infer<typeof CallSearchQuery>;
export type CallSearchQueryInput = z.input<typeof CallSearchQuery>;

/** A matching passage: one transcript segment, its speaker and times (s), the words found wrapped in `<mark>` (the rest HTML-escaped). */
export const SearchPassage = z.object({
  speaker: z.number().int(),
  speaker_label: z.string(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  highlighted: z.string(),
});
export type SearchPassage = z.infer<typeof SearchPassage>;

export const CallSearchHit = z.object({
  call_id: z.number().int(),
  company_id: z.number().int(),
  number: z.object({ id: z.number().int(), number: z.string(), label: z.string() }),
  started_at: Timestamp,
  /** `YYYY-MM-DD HH:mm:ss` in the request's zone. */
  local_started_at: z.string(),
  duration_s: z.number().int(),
  direction: z.string(),
  caller: z.string(),
  answer_status: z.enum(ANSWER_STATUS_NAMES),
  answered_by: z.number().int().nullable(),
  qualification: z.number().int().nullable(),
  tag_ids: z.array(z.number().int()),
  /** PostgreSQL `ts_rank` of the match (0 without `q`). */
  rank: z.number(),
  /** Up to 3 matching passages, in time order (without `q`: the first passages). */
  passages: z.array(SearchPassage),
});
export type CallSearchHit = z.infer<typeof CallSearchHit>;

/**
 * The search counts at most this many hits: a `meta.total` of `CALL_SEARCH_COUNT_CAP + 1` means "more than the cap"
 * (shown "2,000+ calls"), and `last_page` follows it (docs/call-intelligence.md "Search at scale").
 */
export const CALL_SEARCH_COUNT_CAP = 2000;

/** `meta.total`: the number of hits, or `CALL_SEARCH_COUNT_CAP + 1` for more than the cap. */
export const CallSearchBody = z.object({ data: z.array(CallSearchHit), meta: PageMeta });
export type CallSearchBody = z.infer<typeof CallSearchBody>;

/** The CSV columns of a search export, in order. */
export const CALL_SEARCH_CSV_COLUMNS = ['Call ID', 'Started at', 'Number', 'Caller', 'Direction', 'Duration (s)', 'Answer status', 'Rank', 'Passages'] as const;

// ---------------------------------------------------------------------------------------------
// POST /calls/{id}/converse
// ---------------------------------------------------------------------------------------------

/** `POST /api/calls/{id}/converse` (spec 001 §7): a question about the call. */
export const ConverseInput = z.object({ message: z.string().trim().min(1, 'The message field is required.').max(1000) });
export type ConverseInput = z.infer<typeof ConverseInput>;

/** A transcript passage an answer rests on (times in seconds). */
export const ConverseSource = z.object({ speaker: z.number().int(), speaker_label: z.string(), start: z.number(), end: z.number(), text: z.string() });
export type ConverseSource = z.infer<typeof ConverseSource>;

/** Shown when the transcript does not say (never an answer beyond the transcript). */
export const CONVERSE_NOT_FOUND = 'The transcript does not contain the answer to this question.';
/** Shown when the call has no complete transcript. */
export const CONVERSE_NO_TRANSCRIPT = 'This call has no transcript yet, so there is nothing to answer from.';

/**
 * The answer: `found` false with {@link CONVERSE_NOT_FOUND} when the transcript does not contain it; `sources` the
 * passages it rests on; `engine` `offline` (wink-nlp retrieval and extraction) or `llm` (the configured model).
 */
export const ConverseBody = z.object({
  data: z.object({
    question: z.string(),
    answer: z.string(),
    found: z.boolean(),
    sources: z.array(ConverseSource),
    engine: z.enum(['offline', 'llm']),
  }),
});
export type ConverseBody = z.infer<typeof ConverseBody>;

// ---------------------------------------------------------------------------------------------
// AI attribute rules
// ---------------------------------------------------------------------------------------------

export const AI_RULE_TARGETS = ['qualification', 'outcome', 'department'] as const;
export type AiRuleTarget = (typeof AI_RULE_TARGETS)[number];
/** Qualification values a rule may set (spec 001: qualified 1, not qualified 2, lead 3). */
export const AI_QUALIFICATION_VALUES = { qualified: 1, not_qualified: 2, lead: 3 } as const;
export const AI_RULE_VALUES: Record<AiRuleTarget, readonly string[]> = {
  qualification: Object.keys(AI_QUALIFICATION_VALUES),
  outcome: CALL_OUTCOMES,
  department: DEPARTMENT_TYPES,
};

/**
 * A rule: when any of `keywords` (a word or a phrase, matched on word boundaries, case-insensitive) is said (by
 * `speaker`: 1 agent, 2 client, null anyone), set `target` to `value`. Outcome and department fill the call custom
 * field `attribute_id` (a Call field of the company); qualification sets the call's qualification. The first
 * matching enabled rule per target (by position, then id) wins.
 */
export const AiRuleInput = z
  .object({
    name: z.string().trim().min(1, 'The name field is required.').max(100),
    target: z.enum(AI_RULE_TARGETS),
    value: z.string().trim().min(1).max(60),
    attribute_id: Id.nullable().optional(),
    keywords: z.array(z.string().trim().min(1).max(100)).min(1, 'At least one keyword or phrase is required.').max(50),
    speaker: z
      .union([z.literal(1), z.literal(2)])
      .nullable()
      .optional(),
    position: z.number().int().min(0).max(10_000).optional(),
    enabled: z.boolean().optional(),
  })
  .superRefine((r, c) => {
    if (!AI_RULE_VALUES[r.target].includes(r.value)) {
      c.addIssue({ code: 'custom', path: ['value'], message: `The value must be one of: ${AI_RULE_VALUES[r.target].join(', ')}.` });
    }
    if (r.target !== 'qualification' && !r.attribute_id) {
      c.addIssue({ code: 'custom', path: ['attribute_id'], message: 'Choose the call custom field this rule fills.' });
    }
  });
export type AiRuleInput = z.infer<typeof AiRuleInput>;

export const AiRule = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  target: z.enum(AI_RULE_TARGETS),
  value: z.string(),
  attribute_id: z.number().int().nullable(),
  keywords: z.array(z.string()),
  speaker: z.number().int().nullable(),
  position: z.number().int(),
  enabled: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type AiRule = z.infer<typeof AiRule>;
export const AiRuleBody = z.object({ data: AiRule });
export const AiRuleListBody = z.object({ data: z.array(AiRule) });
export const CompanyRuleParams = z.object({ companyId: Id, id: Id });
