/**
 * Kysely table types of modules/analytics (the reporting store; migration 0018, docs/analytics.md).
 * Part of `DB` (schema.ts); every table is listed in `modules/ownership.ts` TABLE_OWNERS under its owner.
 * Times are `timestamptz` (UTC); durations in seconds.
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T, string | T>;

/** modules/analytics: one row per call, every reporting dimension (rebuilt from the calls module). */
export interface CallFactsTable {
  call_id: number;
  company_id: number;
  /** The company's business unit (organization) when the fact was built. */
  organization_id: number | null;
  number_id: number;
  started_at: Timestamp;
  direction: string;
  /** CALL_STATUS code. */
  status: number;
  /** ANSWER_STATUS: none 0, answered 1, missed 2, voicemail 3, blocked 4. */
  answer_status: number;
  duration_s: number;
  /** Start → answer, seconds (answered calls). */
  answer_time_s: number | null;
  answered_by: number | null;
  from_number: string;
  to_number: string;
  /** The outside party (caller of an inbound call, callee of an outbound one), E.164. */
  caller: string;
  contact_id: number | null;
  /** Caller's state or province code, '' unknown. */
  geo: string;
  tag_ids: ColumnType<number[], number[] | undefined, number[]>;
  qualification: number | null;
  is_qualified: boolean;
  is_lead: boolean;
  outcome: string | null;
  department: string | null;
  extension_label: string;
  is_first_contact: boolean;
  /** Last touch ('' unknown / not tracked). */
  traffic_source: string;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  first_traffic_source: string;
  first_source: string | null;
  first_medium: string | null;
  first_campaign: string | null;
  first_keyword: string | null;
  dni_pool_id: number | null;
  dni_session_id: string | null;
  lead_id: number | null;
  updated_at: Timestamp;
}

/** modules/analytics: call tracking's attribution of a call (`call.attributed`), kept for rebuilds. */
export interface CallAttributionsTable {
  call_id: number;
  company_id: number;
  is_first_contact: boolean;
  lead_id: number | null;
  method: string;
  pool_id: number | null;
  session_id: string | null;
  traffic_source: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  first_traffic_source: string | null;
  first_source: string | null;
  first_medium: string | null;
  first_campaign: string | null;
  first_keyword: string | null;
  created_at: Generated<Date>;
}

/** Measures of a rollup row (migration 0024): counts, and sums in seconds. */
interface CallRollupMeasures {
  calls: number;
  answered: number;
  missed: number;
  voicemails: number;
  blocked: number;
  first_time: number;
  qualified: number;
  leads: number;
  duration_s: ColumnType<string | number, number, number>;
  answered_duration_s: ColumnType<string | number, number, number>;
  answer_time_s: ColumnType<string | number, number, number>;
  answer_time_n: number;
}

/** modules/analytics: per company and UTC hour, maintained by a trigger on call_facts. */
export interface CallRollupHoursTable extends CallRollupMeasures {
  company_id: number;
  hour: Timestamp;
}

/** modules/analytics: per company, UTC hour and number. */
export interface CallRollupHourNumbersTable extends CallRollupHoursTable {
  number_id: number;
}

/** modules/analytics: per company, UTC hour and last-touch traffic source ('' = untracked). */
export interface CallRollupHourSourcesTable extends CallRollupHoursTable {
  traffic_source: string;
}

/** modules/analytics: per company, UTC hour and DNI pool (0 = none). */
export interface CallRollupHourPoolsTable extends CallRollupHoursTable {
  dni_pool_id: number;
}

/** modules/analytics: per company and UTC day (`day` = UTC midnight; migration 0027), maintained by the same trigger. */
export interface CallRollupDaysTable extends CallRollupMeasures {
  company_id: number;
  day: Timestamp;
}

/** modules/analytics: per company, UTC day and number. */
export interface CallRollupDayNumbersTable extends CallRollupDaysTable {
  number_id: number;
}

/** modules/analytics: per company, UTC day and last-touch traffic source ('' = untracked). */
export interface CallRollupDaySourcesTable extends CallRollupDaysTable {
  traffic_source: string;
}

/** modules/analytics: per company, UTC day and DNI pool (0 = none). */
export interface CallRollupDayPoolsTable extends CallRollupDaysTable {
  dni_pool_id: number;
}

/** modules/analytics: export jobs and their files. */
export interface AnalyticsExportsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  /** calls | messages | fax | voicemails */
  kind: string;
  /** queued | running | done | failed */
  status: Generated<string>;
  columns: Json<string[]>;
  params: Json<Record<string, unknown>>;
  rows: number | null;
  blob_key: string | null;
  file_name: string;
  error: string | null;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

/** modules/analytics: the last run of a periodic job (the reconcile pass). */
export interface AnalyticsJobRunsTable {
  name: string;
  last_run_at: Timestamp;
}

/** modules/analytics: calls whose fact waits for a rebuild (the `analytics.facts` consumer's durable queue). */
/** analytics (0082): leases of background passes (`facts-flush`: one flusher of the pending set per deployment). */
export interface AnalyticsLeasesTable {
  name: string;
  holder: string;
  until: Timestamp;
}

export interface CallFactsPendingTable {
  call_id: number;
  queued_at: Generated<Timestamp>;
}

export interface AnalyticsTables {
  call_facts: CallFactsTable;
  call_facts_pending: CallFactsPendingTable;
  call_attributions: CallAttributionsTable;
  call_rollup_hours: CallRollupHoursTable;
  call_rollup_hour_numbers: CallRollupHourNumbersTable;
  call_rollup_hour_sources: CallRollupHourSourcesTable;
  call_rollup_hour_pools: CallRollupHourPoolsTable;
  call_rollup_days: CallRollupDaysTable;
  call_rollup_day_numbers: CallRollupDayNumbersTable;
  call_rollup_day_sources: CallRollupDaySourcesTable;
  call_rollup_day_pools: CallRollupDayPoolsTable;
  analytics_exports: AnalyticsExportsTable;
  analytics_job_runs: AnalyticsJobRunsTable;
  analytics_leases: AnalyticsLeasesTable;
}
