/**
 * Kysely table types added for call-intelligence (transcript search documents, AI attribute rules, search exports);
 * migration 0031_call_intelligence. Part of `DB` (schema.ts); every table is listed in `modules/ownership.ts`
 * TABLE_OWNERS under its owner. Times UTC, durations in seconds.
 */
import type { ColumnType, Generated } from 'kysely';

type Json<T> = ColumnType<T, string | T, string | T>;
type Time = ColumnType<Date, Date | string | undefined, Date | string>;
type TimeOrNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** One passage of a transcript as the search shows it (speaker 0 mixed, 1 agent, 2 client; times s). */
export type SearchSegment = { speaker: number; start: number; end: number; text: string };

/** The search read model: one row per call with a complete transcript (docs/call-intelligence.md "Search"). */
export interface CallSearchDocsTable {
  call_id: number;
  company_id: number;
  number_id: number;
  transcript_id: number;
  started_at: Time;
  duration_s: number;
  direction: string;
  /** The outside party, E.164. */
  caller: string;
  /** Spec 001 "Call status by number": none 0, answered 1, missed 2, voicemail 3, blocked 4. */
  answer_status: number;
  answered_by: number | null;
  /** qualified 1, not qualified 2, lead 3. */
  qualification: number | null;
  tag_ids: ColumnType<number[], number[] | undefined, number[]>;
  segments: Json<SearchSegment[]>;
  /** Written with `to_tsvector('english', …)` (raw SQL); never read as text. */
  tsv_all: ColumnType<string, unknown, unknown>;
  tsv_agent: ColumnType<string, unknown, unknown>;
  tsv_client: ColumnType<string, unknown, unknown>;
  indexed_at: Time;
}

/** A company's AI attribute rule: keywords or phrases → a qualification, outcome or department. */
export interface AiAttributeRulesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  target: 'qualification' | 'outcome' | 'department';
  value: string;
  /** The call custom field filled (outcome, department); null for qualification. */
  attribute_id: number | null;
  keywords: Json<string[]>;
  /** Only this speaker's words (1 agent, 2 client); null any. */
  speaker: number | null;
  position: Generated<number>;
  enabled: Generated<boolean>;
  created_at: Time;
  updated_at: Time;
}

/** A CSV export job of a transcript search. */
export interface CallSearchExportsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  params: Json<Record<string, unknown>>;
  status: Generated<'queued' | 'running' | 'done' | 'failed'>;
  rows: number | null;
  blob_key: string | null;
  file_name: string;
  error: string | null;
  created_at: Time;
  finished_at: TimeOrNull;
}

export interface IntelligenceTables {
  call_search_docs: CallSearchDocsTable;
  ai_attribute_rules: AiAttributeRulesTable;
  call_search_exports: CallSearchExportsTable;
}
