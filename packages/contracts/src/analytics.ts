/**
 * zod schemas of analytics, dashboard and exports (spec 001 "Analytics, activity and calls", spec 002
 * "Dashboard", §9 constants): HTTP payloads and live events. Decisions where the spec says "not shown"
 * are in docs/analytics.md.
 *
 * Conventions:
 * - Query arrays arrive as bracket arrays (`number_ids[]=1&number_ids[]=2`), a single value or a comma list.
 * - Flags arrive as `1`/`0`/`true`/`false`.
 * - `dates` is `{from, to}` (bracket object `dates[from]=…`, a JSON text, or `from,to`): each a local
 *   calendar day `YYYY-MM-DD` in the chosen time zone (`to` inclusive) or an ISO timestamp (`to` exclusive).
 * - Answers carry times as ISO-8601 UTC; days (`YYYY-MM-DD`) and hours (0-23) are the chosen time zone's.
 * - Durations in seconds; percentages as numbers (12.5 = 12.5 %).
 */
import { z } from 'zod';
import { Id, Timestamp, isRealTimestampText, queryArray, queryFlag, queryList } from './common.js';
import { CALL_OUTCOMES, DEPARTMENT_TYPES } from './calls.js';

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------

/** Call status by number (spec 001 §3 "Call (analysis view)"): none 0, answered 1, missed 2, voicemail 3, blocked 4. */
export const ANSWER_STATUS = { none: 0, answered: 1, missed: 2, voicemail: 3, blocked: 4 } as const;
export const ANSWER_STATUS_NAMES = ['none', 'answered', 'missed', 'voicemail', 'blocked'] as const;
export type AnswerStatusName = (typeof ANSWER_STATUS_NAMES)[number];

/** Department types and call outcomes (spec 002 §3 "Other enumerations") are `DEPARTMENT_TYPES` and `CALL_OUTCOMES` of calls.ts. */
export type DepartmentType = (typeof DEPARTMENT_TYPES)[number];
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** Attribution models of a call's source (docs/analytics.md): the visit's first touch or its last (default). */
export const ATTRIBUTION_MODELS = ['last_touch', 'first_touch'] as const;
export type AttributionModel = (typeof ATTRIBUTION_MODELS)[number];

/**
 * Groupings of `GET /analytics/calls` (spec 001 §7): by number and day; answered_by and day; number; tag
 * and day; day and hour; hour and day; trafficSource and day; dniPool and day; geo.
 */
export const CALL_REPORT_GROUPS = [
  'number_day',
  'answered_by_day',
  'number',
  'tag_day',
  'day_hour',
  'hour_day',
  'traffic_source_day',
  'dni_pool_day',
  'geo',
] as const;
export type CallReportGroup = (typeof CALL_REPORT_GROUPS)[number];

/**
 * What a report counts as each row's `value` (the chart's measure; every row carries every measure
 * anyway): calls, answered, missed calls, voicemails, unique callers, first-time callers, total talk
 * time in seconds (docs/analytics.md "target").
 */
export const CALL_REPORT_TARGETS = ['calls', 'answered', 'missed', 'voicemails', 'unique_callers', 'first_time_callers', 'duration'] as const;
export type CallReportTarget = (typeof CALL_REPORT_TARGETS)[number];

/**
 * Comparison periods (spec 002 §9): the same-length range before (default), or the same range a month,
 * 3 months, 6 months or a year ago.
 */
export const COMPARISON_PERIODS = ['previous', 'month', '3_months', '6_months', 'year'] as const;
export type ComparisonPeriod = (typeof COMPARISON_PERIODS)[number];

/** Dashboard time-series buckets. */
export const DASHBOARD_GROUP_BY = ['day', 'hour'] as const;

/** Cache lifetimes (spec 002 §9 "Dashboard cache 15 s", spec 001 §9 "Analytics activity cache 5 s"), ms. */
export const DASHBOARD_CACHE_MS = 15_000;
export const ANALYTICS_ACTIVITY_CACHE_MS = 5_000;

/** Longest reporting range a request may ask for (days), so a typo cannot scan a decade. */
export const MAX_REPORT_RANGE_DAYS = 800;

// ---------------------------------------------------------------------------------------------
// Query pieces
// ---------------------------------------------------------------------------------------------

const toArray = queryArray;
const list = queryList;
const optFlag = queryFlag;
/** A flag with a default. */
const flag = (def: boolean) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? def : v === 1 ? true : v === 0 ? false : v),
    z.union([z.boolean(), z.enum(['1', '0', 'true', 'false'])]).transform((v) => v === true || v === '1' || v === 'true'),
  );

/** A JSON-encoded object or a bracket object (`filters[x]=…`); non-JSON text is left for the schema to refuse (422). */
function jsonObject(v: unknown): unknown {
  if (v === undefined || v === null || v === '') return {};
  if (typeof v === 'string') {
    try {
      return JSON.parse(v);
    } catch (error) {
      if (error instanceof SyntaxError) return v;
      throw error;
    }
  }
  return v;
}

/** A local day `YYYY-MM-DD` or an ISO timestamp (a real calendar date; 422 otherwise). */
export const ReportDateText = z.string().max(40).refine(isRealTimestampText, 'The date is not a real date.');

/**
 * A date range: `from`/`to` local days (`to` inclusive) or ISO timestamps (`to` exclusive). Missing
 * `from`: 30 days before `to`; missing `to`: today. Accepts `{from, to}`, a JSON text or `from,to`.
 */
export const DateRange = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '') return undefined;
    if (Array.isArray(v)) return { from: v[0], to: v[1] };
    if (typeof v === 'string') {
      const parsed = jsonObject(v);
      if (typeof parsed === 'object' && parsed !== null) return parsed;
      const [from, to] = v.split(',');
      return { from: from || undefined, to: to || undefined };
    }
    return v;
  },
  z.object({ from: ReportDateText.optional(), to: ReportDateText.optional() }).optional(),
);
export type DateRangeInput = z.infer<typeof DateRange>;

/** Text filter operators (spec 001 §5: text searches wrap the value in wildcards unless the operator is equals). */
export const TEXT_OPERATORS = ['contains', 'equals'] as const;

/**
 * One text filter value: a string (contains) or `{value, operator}`. Surrounding asterisks are stripped
 * and the value wrapped in wildcards unless the operator is `equals` (spec 001 §5); case-insensitive.
 */
export const TextFilterValue = z.union([z.string().max(200), z.object({ value: z.string().max(200), operator: z.enum(TEXT_OPERATORS).default('contains') })]);
export type TextFilterValue = z.infer<typeof TextFilterValue>;

const answerStatusValue = z.preprocess(
  (v) => (typeof v === 'string' && /^\d$/.test(v) ? ANSWER_STATUS_NAMES[Number(v)] : typeof v === 'number' ? ANSWER_STATUS_NAMES[v] : v),
  z.enum(ANSWER_STATUS_NAMES),
);

/**
 * The report filters (spec 001 §7 "GET /analytics/calls"), shared by the call report, the dashboard, the
 * KPIs, the call export and the activity feed. Every list filter matches any of its values; filters
 * combine with AND. `companies`/`businessUnits` widen the report to those companies (only the ones the
 * user may see: 403 otherwise).
 */
export const CallReportFilters = z.object({
  dates: DateRange,
  number_ids: list(Id),
  tagIds: list(Id),
  companies: list(Id, 1000),
  businessUnits: list(Id, 100),
  /** Names or codes 0-4 of ANSWER_STATUS. */
  answerStatus: list(answerStatusValue, 5),
  /** Seconds. */
  minDuration: z.coerce.number().int().min(0).max(86_400).optional(),
  isFirstContact: optFlag,
  /** IANA time zone of days and hours (default: the company's). 422 for an unknown zone. */
  timezone: z.string().max(64).optional(),
  /** User ids who answered (in-app calling). */
  answered_by: list(Id),
  /** Caller's state (two-letter US/CA code), text rule. */
  geo: list(TextFilterValue, 60),
  attributionModel: z.enum(ATTRIBUTION_MODELS).optional(),
  trafficSource: list(TextFilterValue, 50),
  outcomes: list(z.enum(CALL_OUTCOMES), 10),
  departments: list(z.enum(DEPARTMENT_TYPES), 20),
  isQualified: optFlag,
  isLead: optFlag,
  /** Tracking pool ids. */
  dniPools: list(Id),
  extensionLabels: list(TextFilterValue, 50),
});
export type CallReportFilters = z.infer<typeof CallReportFilters>;
export type CallReportFiltersInput = z.input<typeof CallReportFilters>;

// ---------------------------------------------------------------------------------------------
// Export columns
// ---------------------------------------------------------------------------------------------

/** A column of an export: its key (sent in `columns`) and its CSV header. */
export interface ExportColumn {
  key: string;
  label: string;
}

/** Columns of a call export (one row per call), in default order. */
export const CALL_EXPORT_COLUMNS = [
  { key: 'id', label: 'Call ID' },
  { key: 'started_at', label: 'Start time' },
  { key: 'company', label: 'Company' },
  { key: 'number', label: 'Tracking number' },
  { key: 'number_label', label: 'Number name' },
  { key: 'from', label: 'Caller' },
  { key: 'to', label: 'Called' },
  { key: 'direction', label: 'Direction' },
  { key: 'status', label: 'Status' },
  { key: 'answer_status', label: 'Answer status' },
  { key: 'duration_s', label: 'Duration (s)' },
  { key: 'answer_time_s', label: 'Time to answer (s)' },
  { key: 'answered_by', label: 'Answered by' },
  { key: 'contact_name', label: 'Contact' },
  { key: 'first_contact', label: 'First-time caller' },
  { key: 'tags', label: 'Tags' },
  { key: 'qualification', label: 'Qualification' },
  { key: 'outcome', label: 'Outcome' },
  { key: 'department', label: 'Department' },
  { key: 'extension_label', label: 'Extension' },
  { key: 'geo', label: 'Caller state' },
  { key: 'traffic_source', label: 'Traffic source' },
  { key: 'source', label: 'Source' },
  { key: 'medium', label: 'Medium' },
  { key: 'campaign', label: 'Campaign' },
  { key: 'keyword', label: 'Keyword' },
  { key: 'dni_pool', label: 'Tracking pool' },
] as const satisfies readonly ExportColumn[];

/** Columns of a message export (one row per text message). */
export const MESSAGE_EXPORT_COLUMNS = [
  { key: 'id', label: 'Message ID' },
  { key: 'created_at', label: 'Time' },
  { key: 'number', label: 'Number' },
  { key: 'number_label', label: 'Number name' },
  { key: 'from', label: 'From' },
  { key: 'to', label: 'To' },
  { key: 'direction', label: 'Direction' },
  { key: 'content', label: 'Message' },
  { key: 'media_count', label: 'Attachments' },
  { key: 'delivery_state', label: 'Delivery state' },
  { key: 'error_code', label: 'Error code' },
  { key: 'contact_name', label: 'Contact' },
] as const satisfies readonly ExportColumn[];

/** Columns of a voicemail export (one row per voicemail). */
export const VOICEMAIL_EXPORT_COLUMNS = [
  { key: 'id', label: 'Voicemail ID' },
  { key: 'created_at', label: 'Time' },
  { key: 'number', label: 'Number' },
  { key: 'number_label', label: 'Number name' },
  { key: 'from', label: 'Caller' },
  { key: 'duration_s', label: 'Length (s)' },
  { key: 'is_read', label: 'Listened' },
  { key: 'recording_url', label: 'Recording' },
  { key: 'contact_name', label: 'Contact' },
] as const satisfies readonly ExportColumn[];

/** Columns of a fax export (one row per fax, sent and received; docs/fax.md). */
export const FAX_EXPORT_COLUMNS = [
  { key: 'id', label: 'Fax ID' },
  { key: 'created_at', label: 'Time' },
  { key: 'number', label: 'Number' },
  { key: 'from', label: 'From' },
  { key: 'to', label: 'To' },
  { key: 'direction', label: 'Direction' },
  { key: 'pages', label: 'Pages' },
  { key: 'status', label: 'Status' },
] as const satisfies readonly ExportColumn[];

export const EXPORT_KINDS = ['calls', 'messages', 'fax', 'voicemails'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** Columns by export kind. */
export const EXPORT_COLUMNS: Readonly<Record<ExportKind, readonly ExportColumn[]>> = {
  calls: CALL_EXPORT_COLUMNS,
  messages: MESSAGE_EXPORT_COLUMNS,
  fax: FAX_EXPORT_COLUMNS,
  voicemails: VOICEMAIL_EXPORT_COLUMNS,
};

/** The result message of an export started in the background (spec 001 §7: "the result message is shown"). */
export const EXPORT_STARTED_MESSAGE = 'Your export has started. You will be notified when the file is ready to download.';
/** Shown when the file is ready (the `export ready` live event carries it). */
export const EXPORT_READY_MESSAGE = 'Your export is ready to download.';
/** Shown when an export failed. */
export const EXPORT_FAILED_MESSAGE = 'Your export could not be completed. Please try again.';

const columnsList = z.preprocess(toArray, z.array(z.string().max(40)).min(1).max(60).optional());

// ---------------------------------------------------------------------------------------------
// GET /analytics/calls
// ---------------------------------------------------------------------------------------------

/** A parameter value that is an object: a bracket object (`x[a]=1`), a list of them, or a JSON object text. */
function isObjectValue(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(isObjectValue);
  if (typeof v === 'object' && v !== null) return true;
  if (typeof v === 'string' && v.trimStart().startsWith('{')) {
    const parsed = jsonObject(v);
    return typeof parsed === 'object' && parsed !== null;
  }
  return false;
}

/**
 * A parameter the report does not know: a scalar or a list is ignored (dropped, as an HTTP query's extra parameters
 * are), but an object is refused (422). The report filters are top-level parameters (spec 001 §7 lists them beside `group` and
 * `target`; docs/analytics.md "Parameters"), so a nested `filters[…]` or `filter={…}` object (the dashboard's and the
 * activity feed's shapes) sent here by mistake is answered, not silently dropped.
 */
const UnknownScalar = z
  .unknown()
  .superRefine((v, c) => {
    if (isObjectValue(v))
      c.addIssue({
        code: 'custom',
        message: 'The report takes its filters as top-level parameters (e.g. dates[from]=…, number_ids[]=…), not in a nested object.',
      });
  })
  .transform(() => undefined);

/**
 * `GET /api/analytics/calls` (spec 001 §7): `company_id`, `group`, `target` and the report filters.
 * `format=csv` with `async=1` and `columns` starts an export job (202 ExportStartedBody); `format=csv`
 * without async streams the same file in the answer. 422 for an unknown column, and for an unknown
 * parameter holding an object ({@link UnknownScalar}).
 */
const CallReportQueryFields = CallReportFilters.extend({
  company_id: Id,
  group: z.enum(CALL_REPORT_GROUPS).default('number_day'),
  target: z.enum(CALL_REPORT_TARGETS).default('calls'),
  format: z.enum(['json', 'csv']).default('json'),
  async: flag(false),
  columns: columnsList,
});
export const CallReportQuery = CallReportQueryFields.catchall(UnknownScalar);
/** The parsed query (unknown scalar parameters are dropped: their keys are left undefined). */
export type CallReportQuery = z.infer<typeof CallReportQueryFields>;
export type CallReportQueryInput = z.input<typeof CallReportQueryFields>;

/** Measures every report row (and the totals) carries. */
export const CallMeasures = z.object({
  calls: z.number().int(),
  answered: z.number().int(),
  missed: z.number().int(),
  voicemails: z.number().int(),
  blocked: z.number().int(),
  firstTimeCallers: z.number().int(),
  /**
   * Distinct outside parties. Not additive across hours, so null when the answer came from the hourly
   * rollups; always a number with `target=unique_callers` (docs/analytics.md "Rollups").
   */
  uniqueCallers: z.number().int().nullable(),
  qualified: z.number().int(),
  leads: z.number().int(),
  /** Sum of call lengths, seconds. */
  totalDurationS: z.number().int(),
  /** Mean length of answered calls, seconds (null without answered calls). */
  avgDurationS: z.number().nullable(),
  /** Mean ring time of answered calls (start → answer), seconds. */
  avgAnswerTimeS: z.number().nullable(),
  /** missed / calls × 100, one decimal (null without calls). */
  missedPct: z.number().nullable(),
});
export type CallMeasures = z.infer<typeof CallMeasures>;

/**
 * One row of a grouped report. Only the keys of the grouping are present: `day` (local `YYYY-MM-DD`),
 * `hour` (local 0-23), `numberId`/`number`/`numberLabel`, `answeredBy`/`answeredByName` (null: nobody
 * in-app, e.g. forwarded or missed), `tagId`/`tagName` (null: untagged), `trafficSource` ('' unknown),
 * `dniPoolId`/`dniPoolName` (null: no pool), `geo` (state code, '' unknown). `value` is the target measure.
 */
export const CallReportRow = CallMeasures.extend({
  value: z.number(),
  day: z.string().optional(),
  hour: z.number().int().optional(),
  numberId: z.number().int().nullable().optional(),
  number: z.string().optional(),
  numberLabel: z.string().optional(),
  answeredBy: z.number().int().nullable().optional(),
  answeredByName: z.string().optional(),
  tagId: z.number().int().nullable().optional(),
  tagName: z.string().optional(),
  trafficSource: z.string().optional(),
  dniPoolId: z.number().int().nullable().optional(),
  dniPoolName: z.string().optional(),
  geo: z.string().optional(),
});
export type CallReportRow = z.infer<typeof CallReportRow>;

/** A resolved range: UTC instants (`to` exclusive) and the local days they cover. */
export const ResolvedRange = z.object({
  from: Timestamp,
  to: Timestamp,
  fromDate: z.string(),
  toDate: z.string(),
});
export type ResolvedRange = z.infer<typeof ResolvedRange>;

/** `GET /analytics/calls` answer (json). Rows sorted by their keys (days ascending, then names). */
export const CallReportBody = z.object({
  data: z.object({
    group: z.enum(CALL_REPORT_GROUPS),
    target: z.enum(CALL_REPORT_TARGETS),
    timezone: z.string(),
    range: ResolvedRange,
    rows: z.array(CallReportRow),
    totals: CallMeasures,
  }),
});
export type CallReportBody = z.infer<typeof CallReportBody>;

// ---------------------------------------------------------------------------------------------
// Exports
// ---------------------------------------------------------------------------------------------

/**
 * `POST /api/calls/export`, `/messages/export`, `/fax/export`, `/voicemails/export` (spec 002
 * "Dashboard": async, columns, tz). `filters` are the report filters (messages, faxes and voicemails use
 * dates, number_ids, companies and businessUnits). `async` defaults to 1; `async=0` answers the CSV itself.
 */
export const ExportInput = z.object({
  company_id: Id,
  async: flag(true),
  columns: columnsList,
  tz: z.string().max(64).optional(),
  filters: z.preprocess(jsonObject, CallReportFilters).optional(),
});
export type ExportInput = z.infer<typeof ExportInput>;
export type ExportInputBody = z.input<typeof ExportInput>;

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

/** An export job. `url` (the download, members of the company only) once `status` is done. */
export const ExportJob = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  kind: z.enum(EXPORT_KINDS),
  status: z.enum(EXPORT_STATUSES),
  columns: z.array(z.string()),
  rows: z.number().int().nullable(),
  fileName: z.string(),
  url: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: Timestamp,
  finishedAt: Timestamp.nullable(),
});
export type ExportJob = z.infer<typeof ExportJob>;

/** 202 answer of an export started in the background: the spec's result message and the job. */
export const ExportStartedBody = z.object({ message: z.string(), data: ExportJob });
export type ExportStartedBody = z.infer<typeof ExportStartedBody>;

/** `GET /api/analytics/exports/{id}`: one export of the current user. */
export const ExportJobBody = z.object({ data: ExportJob });
/** `GET /api/analytics/exports?company_id=`: the current user's recent exports of a company (newest first, 20). */
export const ExportListQuery = z.object({ company_id: Id });
export const ExportListBody = z.object({ data: z.array(ExportJob) });
// Download: `GET /api/analytics/exports/{id}/download` answers text/csv (attachment) to members of the company.

// ---------------------------------------------------------------------------------------------
// Dashboard and KPIs
// ---------------------------------------------------------------------------------------------

/** One KPI beside its comparison value; `changePct` null when the previous value is 0. */
export const Kpi = z.object({
  value: z.number(),
  previous: z.number(),
  /** (value − previous) / previous × 100, one decimal. */
  changePct: z.number().nullable(),
  /** The arrow: up, down or flat. */
  direction: z.enum(['up', 'down', 'flat']),
});
export type Kpi = z.infer<typeof Kpi>;

/** KPIs of the dashboard (spec 002 "Dashboard"; issue: total, answered, missed, voicemails, first-time callers, average answer time and duration, messages, faxes). */
export const DashboardKpis = z.object({
  totalCalls: Kpi,
  answered: Kpi,
  missed: Kpi,
  voicemails: Kpi,
  firstTimeCallers: Kpi,
  /** Seconds. */
  avgAnswerTimeS: Kpi,
  /** Seconds (answered calls). */
  avgDurationS: Kpi,
  messages: Kpi,
  faxes: Kpi,
});
export type DashboardKpis = z.infer<typeof DashboardKpis>;

/**
 * `GET /api/companies/{companyId}/calls/kpi` (spec 002): `currentRange` and `previousRange` (each a
 * DateRange); without `previousRange` the `comparison` period decides (default: same length before).
 */
export const KpiQuery = z.object({
  currentRange: DateRange,
  previousRange: DateRange,
  comparison: z.enum(COMPARISON_PERIODS).default('previous'),
  tz: z.string().max(64).optional(),
  filters: z.preprocess(jsonObject, CallReportFilters).optional(),
});
export type KpiQuery = z.infer<typeof KpiQuery>;
export type KpiQueryInput = z.input<typeof KpiQuery>;

export const KpiBody = z.object({
  data: z.object({
    timezone: z.string(),
    comparison: z.enum(COMPARISON_PERIODS),
    currentRange: ResolvedRange,
    previousRange: ResolvedRange,
    kpis: DashboardKpis,
  }),
});
export type KpiBody = z.infer<typeof KpiBody>;

/**
 * `GET /api/dashboard` (spec 002: tz, groupBy, filters). `filters.dates` is the range (default the last 30
 * days); `comparison` picks the comparison period; `groupBy` the series bucket (default: hour for a range
 * of up to 2 days, otherwise day).
 */
export const DashboardQuery = z.object({
  company_id: Id,
  tz: z.string().max(64).optional(),
  groupBy: z.enum(DASHBOARD_GROUP_BY).optional(),
  comparison: z.enum(COMPARISON_PERIODS).default('previous'),
  filters: z.preprocess(jsonObject, CallReportFilters).optional(),
});
export type DashboardQuery = z.infer<typeof DashboardQuery>;
export type DashboardQueryInput = z.input<typeof DashboardQuery>;

/** One bucket of the dashboard's time series: `bucket` = local `YYYY-MM-DD` (day) or `YYYY-MM-DD HH:00` (hour). */
export const DashboardPoint = z.object({
  bucket: z.string(),
  /** The bucket's start, UTC. */
  at: Timestamp,
  calls: z.number().int(),
  answered: z.number().int(),
  missed: z.number().int(),
  voicemails: z.number().int(),
  firstTimeCallers: z.number().int(),
  messages: z.number().int(),
});
export type DashboardPoint = z.infer<typeof DashboardPoint>;

export const DashboardBody = z.object({
  data: z.object({
    timezone: z.string(),
    groupBy: z.enum(DASHBOARD_GROUP_BY),
    comparison: z.enum(COMPARISON_PERIODS),
    currentRange: ResolvedRange,
    previousRange: ResolvedRange,
    kpis: DashboardKpis,
    /** Current range, one point per bucket (empty buckets included). */
    series: z.array(DashboardPoint),
    /** Comparison range, aligned by position with `series` (may be shorter or longer by a bucket across DST or month lengths). */
    previousSeries: z.array(DashboardPoint),
    /** Calls by traffic source ('' = no tracking source: direct calls to the number), most calls first. */
    bySource: z.array(
      z.object({ source: z.string(), calls: z.number().int(), answered: z.number().int(), missed: z.number().int(), firstTimeCallers: z.number().int() }),
    ),
    /** Calls by number, most calls first (top 20). */
    byNumber: z.array(
      z.object({
        numberId: z.number().int(),
        number: z.string(),
        label: z.string(),
        calls: z.number().int(),
        answered: z.number().int(),
        missed: z.number().int(),
        voicemails: z.number().int(),
      }),
    ),
    /** The heat map: calls by local weekday (0 Sunday … 6 Saturday) and hour (0-23); only non-empty cells. */
    byHourOfWeek: z.array(z.object({ weekday: z.number().int(), hour: z.number().int(), calls: z.number().int() })),
    /** Missed calls (voicemails included) by number, most missed first (top 20). */
    missedByNumber: z.array(
      z.object({
        numberId: z.number().int(),
        number: z.string(),
        label: z.string(),
        missed: z.number().int(),
        calls: z.number().int(),
        missedPct: z.number().nullable(),
      }),
    ),
  }),
});
export type DashboardBody = z.infer<typeof DashboardBody>;

// ---------------------------------------------------------------------------------------------
// Live events
// ---------------------------------------------------------------------------------------------

/** `analytics updated`: a company's figures changed (debounced ~2 s); open dashboards and reports refetch. */
export const AnalyticsUpdatedEvent = z.object({ companyId: z.number().int(), at: Timestamp });
/** `export ready`: an export of the user finished; `url` downloads it. */
export const ExportReadyEvent = z.object({
  message: z.string(),
  export: ExportJob,
});
/** `export failed`: an export of the user failed. */
export const ExportFailedEvent = z.object({ message: z.string(), export: ExportJob });

/** Live events of this area on `company.{companyId}` (event name → payload schema); merged into LIVE_EVENTS. */
export const ANALYTICS_COMPANY_EVENTS = {
  'analytics updated': AnalyticsUpdatedEvent,
} as const;

/** Live events of this area on `user.{userId}` (e.g. an export of theirs is ready); merged into LIVE_EVENTS. */
export const ANALYTICS_USER_EVENTS = {
  'export ready': ExportReadyEvent,
  'export failed': ExportFailedEvent,
} as const;
