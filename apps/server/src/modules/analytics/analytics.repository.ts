/**
 * SQL of the reporting store (modules/analytics; tables `call_facts`, `call_attributions`,
 * the four `call_rollup_hour*` rollups, `analytics_exports`; docs/analytics.md). The only place these tables are
 * read or written.
 *
 * Aggregations run over one of two sources with the same measure columns:
 * - `facts`: one row per call (every filter and grouping);
 * - `rollup`: per company and UTC hour, alone or with one of number / traffic source / pool (migration
 *   0024), kept by a trigger; each grouping set is served by the narrowest rollup that has its
 *   dimensions and the filter's (analytics.reports.ts decides whether rollups may answer at all).
 */
import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';
import { offsetSegments } from './analytics.time.js';

type OffsetSegment = ReturnType<typeof offsetSegments>[number];

export type FactRow = Row<'call_facts'>;
export type NewFact = NewRow<'call_facts'>;
export type AttributionRow = Row<'call_attributions'>;
export type ExportRow = Row<'analytics_exports'>;

/** A text filter value after the spec's wildcard rule (spec 001 §5): `exact` for the equals operator. */
export type TextMatch = { value: string; exact: boolean };

/** Resolved filters over facts or rollups. Times UTC, [from, to). */
export type FactFilter = {
  companyIds: readonly number[];
  from: Date;
  to: Date;
  numberIds?: readonly number[];
  tagIds?: readonly number[];
  answerStatus?: readonly number[];
  minDuration?: number;
  isFirstContact?: boolean;
  answeredBy?: readonly number[];
  geo?: readonly TextMatch[];
  /** First-touch attribution: traffic source filters and groupings read the first touch. */
  firstTouch?: boolean;
  trafficSource?: readonly TextMatch[];
  outcomes?: readonly string[];
  departments?: readonly string[];
  isQualified?: boolean;
  isLead?: boolean;
  dniPools?: readonly number[];
  extensionLabels?: readonly TextMatch[];
  dniSessionId?: string;
};

/** Dimensions an aggregation can group by. Local ones use the query's time zone. */
export type Dim = 'day' | 'hour' | 'hour_bucket' | 'weekday' | 'number' | 'answered_by' | 'tag' | 'traffic_source' | 'dni_pool' | 'geo';

/** One aggregated row: the dims of its grouping set (others null), the set's index and raw measures. */
export type AggRow = {
  set: number;
  day: string | null;
  hour: number | null;
  hour_bucket: string | null;
  weekday: number | null;
  number: number | null;
  answered_by: number | null;
  tag: number | null;
  traffic_source: string | null;
  dni_pool: number | null;
  geo: string | null;
  calls: number;
  answered: number;
  missed: number;
  voicemails: number;
  blocked: number;
  first_time: number;
  unique_callers: number | null;
  qualified: number;
  leads: number;
  duration_s: number;
  answered_duration_s: number;
  answer_time_s: number;
  answer_time_n: number;
};

/** `%`/`_`/`\` escaped for LIKE; inner `*` become `%` (spec 001 §5 "Surrounding asterisks are stripped"). */
function likePattern(value: string): string {
  const core = value.replace(/^\*+|\*+$/g, '');
  return `%${core.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%')}%`;
}

function textCondition(column: RawBuilder<unknown>, matches: readonly TextMatch[]): RawBuilder<unknown> {
  const parts = matches.map((m) =>
    m.exact ? sql`lower(${column}) = lower(${m.value.replace(/^\*+|\*+$/g, '')})` : sql`${column} ilike ${likePattern(m.value)}`,
  );
  return sql`(${sql.join(parts, sql` or `)})`;
}

const ids = (values: readonly number[]) => sql`${sql.val([...values])}::bigint[]`;
/** `column = id` for one company (keeps the index order of (company_id, started_at)), `= any(ids)` otherwise. */
const companyIs = (column: string, companyIds: readonly number[]) =>
  companyIds.length === 1 ? sql`${sql.ref(column)} = ${companyIds[0]}` : sql`${sql.ref(column)} = any(${ids(companyIds)})`;

/** WHERE conditions over `call_facts f`. */
function factConditions(f: FactFilter): RawBuilder<unknown> {
  const c: RawBuilder<unknown>[] = [companyIs('f.company_id', f.companyIds), sql`f.started_at >= ${f.from}`, sql`f.started_at < ${f.to}`];
  if (f.numberIds?.length) c.push(sql`f.number_id = any(${ids(f.numberIds)})`);
  if (f.tagIds?.length) c.push(sql`f.tag_ids && ${ids(f.tagIds)}`);
  if (f.answerStatus?.length) c.push(sql`f.answer_status = any(${sql.val([...f.answerStatus])}::smallint[])`);
  if (f.minDuration !== undefined) c.push(sql`f.duration_s >= ${f.minDuration}`);
  if (f.isFirstContact !== undefined) c.push(sql`f.is_first_contact = ${f.isFirstContact}`);
  if (f.answeredBy?.length) c.push(sql`f.answered_by = any(${ids(f.answeredBy)})`);
  if (f.geo?.length) c.push(textCondition(sql.ref('f.geo'), f.geo));
  if (f.trafficSource?.length) c.push(textCondition(f.firstTouch ? sql.ref('f.first_traffic_source') : sql.ref('f.traffic_source'), f.trafficSource));
  if (f.outcomes?.length) c.push(sql`f.outcome = any(${sql.val([...f.outcomes])}::text[])`);
  if (f.departments?.length) c.push(sql`f.department = any(${sql.val([...f.departments])}::text[])`);
  if (f.isQualified !== undefined) c.push(sql`f.is_qualified = ${f.isQualified}`);
  if (f.isLead !== undefined) c.push(sql`f.is_lead = ${f.isLead}`);
  if (f.dniPools?.length) c.push(sql`f.dni_pool_id = any(${ids(f.dniPools)})`);
  if (f.extensionLabels?.length) c.push(textCondition(sql.ref('f.extension_label'), f.extensionLabels));
  if (f.dniSessionId !== undefined) c.push(sql`f.dni_session_id = ${f.dniSessionId}`);
  return sql.join(c, sql` and `);
}

/** The hourly rollups (migration 0024) by the one dimension each is keyed by besides company and UTC hour. */
const ROLLUP_TABLES = {
  none: 'call_rollup_hours',
  number: 'call_rollup_hour_numbers',
  traffic_source: 'call_rollup_hour_sources',
  dni_pool: 'call_rollup_hour_pools',
} as const;
export type RollupTable = (typeof ROLLUP_TABLES)[keyof typeof ROLLUP_TABLES];
/** The per-UTC-day rollup (migration 0027) beside each hourly one. */
const DAY_TABLE_OF: Readonly<Record<RollupTable, string>> = {
  call_rollup_hours: 'call_rollup_days',
  call_rollup_hour_numbers: 'call_rollup_day_numbers',
  call_rollup_hour_sources: 'call_rollup_day_sources',
  call_rollup_hour_pools: 'call_rollup_day_pools',
};
const KEYED_DIMS = ['number', 'traffic_source', 'dni_pool'] as const;
/** Dimensions read in the query's zone: they need the hourly rows (a local day is not a UTC day). */
const LOCAL_TIME_DIMS: readonly Dim[] = ['day', 'hour', 'hour_bucket', 'weekday'];
const DAY_MS = 86_400_000;

/** WHERE conditions over rollup `f` (company, [from, to) on its time column, and the table's own dimension). */
function rollupConditions(f: FactFilter, table: RollupTable, time: 'hour' | 'day' = 'hour', from = f.from, to = f.to): RawBuilder<unknown> {
  const t = sql.ref(`f.${time}`);
  const c: RawBuilder<unknown>[] = [companyIs('f.company_id', f.companyIds), sql`${t} >= ${from}`, sql`${t} < ${to}`];
  if (table === ROLLUP_TABLES.number && f.numberIds?.length) c.push(sql`f.number_id = any(${ids(f.numberIds)})`);
  if (table === ROLLUP_TABLES.traffic_source && f.trafficSource?.length) c.push(textCondition(sql.ref('f.traffic_source'), f.trafficSource));
  if (table === ROLLUP_TABLES.dni_pool && f.dniPools?.length) c.push(sql`f.dni_pool_id = any(${ids(f.dniPools)})`);
  return sql.join(c, sql` and `);
}

/**
 * The whole UTC days inside [from, to): [first UTC midnight at or after `from`, last one at or
 * before `to`), or null when there is none (the range is then read from the hours alone).
 */
export function wholeUtcDays(from: Date, to: Date): { from: Date; to: Date } | null {
  const d1 = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const d2 = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  return d1 < d2 ? { from: new Date(d1), to: new Date(d2) } : null;
}

/**
 * The rows of `table` over the filter's range as one relation `f` (columns of the hourly rollup):
 * the whole UTC days from the day rollup, the edge hours before and after them from the hourly one
 * (three index-only scans, UNION ALL). Only for sets without a local-time dimension.
 */
function splitRollupRelation(f: FactFilter, table: RollupTable, days: { from: Date; to: Date }): RawBuilder<unknown> {
  const dim =
    table === ROLLUP_TABLES.none
      ? sql``
      : sql`${sql.ref(table === ROLLUP_TABLES.number ? 'f.number_id' : table === ROLLUP_TABLES.traffic_source ? 'f.traffic_source' : 'f.dni_pool_id')}, `;
  const cols = sql`f.company_id, ${dim}f.calls, f.answered, f.missed, f.voicemails, f.blocked, f.first_time, f.qualified, f.leads, f.duration_s,
    f.answered_duration_s, f.answer_time_s, f.answer_time_n`;
  const parts = [sql`select ${cols} from ${sql.table(DAY_TABLE_OF[table])} f where ${rollupConditions(f, table, 'day', days.from, days.to)}`];
  if (f.from < days.from) parts.push(sql`select ${cols} from ${sql.table(table)} f where ${rollupConditions(f, table, 'hour', f.from, days.from)}`);
  if (days.to < f.to) parts.push(sql`select ${cols} from ${sql.table(table)} f where ${rollupConditions(f, table, 'hour', days.to, f.to)}`);
  return sql`(${sql.join(parts, sql` union all `)}) f`;
}

/**
 * The rollup that answers `f` grouped by `set`: the one keyed by the only number / traffic source /
 * pool dimension the filter and the set use (the totals' rollup when none); null when the facts must
 * answer (a filter or dimension no rollup has, or two of those dimensions at once).
 */
export function rollupTableFor(f: FactFilter, set: readonly Dim[]): RollupTable | null {
  if (!rollupCanServe(f, set)) return null;
  const keyed = new Set<(typeof KEYED_DIMS)[number]>(KEYED_DIMS.filter((d) => set.includes(d)));
  if (f.numberIds?.length) keyed.add('number');
  if (f.trafficSource?.length) keyed.add('traffic_source');
  if (f.dniPools?.length) keyed.add('dni_pool');
  if (keyed.size > 1) return null;
  const [only] = [...keyed];
  return ROLLUP_TABLES[only ?? 'none'];
}

/**
 * Whether rollups can answer `f` grouped by `dims` (set by set: each set may need its own rollup,
 * and a set no rollup serves falls back to the facts inside `aggregate`). Filters on answer status,
 * first contact, tags, duration, who answered, state, first touch, outcome, department,
 * qualification, extension or session, and the who-answered / tag / state groupings need the facts.
 */
export function rollupCanServe(f: FactFilter, dims: readonly Dim[]): boolean {
  if (f.tagIds?.length || f.minDuration !== undefined || f.answeredBy?.length || f.geo?.length || f.firstTouch) return false;
  if (f.answerStatus?.length || f.isFirstContact !== undefined) return false;
  if (f.outcomes?.length || f.departments?.length || f.isQualified !== undefined || f.isLead !== undefined) return false;
  if (f.extensionLabels?.length || f.dniSessionId !== undefined) return false;
  return dims.every((d) => d !== 'answered_by' && d !== 'tag' && d !== 'geo');
}

/** A local-time dimension (the query's zone) of the instant `t`. */
function localDimExpression(d: 'day' | 'hour' | 'hour_bucket' | 'weekday', t: RawBuilder<unknown>, timeZone: string): RawBuilder<unknown> {
  const local = sql`timezone(${timeZone}::text, ${t})`;
  switch (d) {
    case 'day':
      return sql`to_char(${local}, 'YYYY-MM-DD')`;
    case 'hour':
      return sql`extract(hour from ${local})::int`;
    case 'hour_bucket':
      return sql`to_char(date_trunc('hour', ${local}), 'YYYY-MM-DD HH24:00')`;
    case 'weekday':
      return sql`extract(dow from ${local})::int`;
  }
}

const isLocalDim = (d: Dim): d is 'day' | 'hour' | 'hour_bucket' | 'weekday' => LOCAL_TIME_DIMS.includes(d);

/**
 * A local-time dimension of the rollup hour `f.hour` as an integer, from the zone's offset segments
 * over the range (analytics.time.ts `offsetSegments`: one CASE over the few DST changes, integer
 * arithmetic per row, no zone lookup per row): local day = days since 1970-01-01, local hour bucket
 * = hours since 1970-01-01 00:00 (local), hour 0-23, weekday 0-6 (1970-01-01 was a Thursday).
 */
function localDimInteger(
  d: 'day' | 'hour' | 'hour_bucket' | 'weekday',
  segments: readonly OffsetSegment[],
  t: RawBuilder<unknown> = sql.ref('f.hour'),
): RawBuilder<unknown> {
  const cases = segments.filter((s) => s.until !== null).map((s) => sql`when ${t} < ${s.until} then ${s.offsetS}`);
  const last = segments[segments.length - 1]!.offsetS;
  const offset = cases.length ? sql`(case ${sql.join(cases, sql` `)} else ${last} end)` : sql`${last}`;
  const local = sql`(extract(epoch from ${t})::bigint + ${offset}::bigint)`;
  switch (d) {
    case 'day':
      return sql`(${local} / 86400)::int`;
    case 'hour':
      return sql`(${local} / 3600 % 24)::int`;
    case 'hour_bucket':
      return sql`(${local} / 3600)::int`;
    case 'weekday':
      return sql`((${local} / 86400 + 4) % 7)::int`;
  }
}

/** The local day (days since 1970-01-01 in the zone) of the instant `t` (ms), from the range's offset segments. */
function localDayOf(t: number, segments: readonly OffsetSegment[]): number {
  const s = segments.find((x) => x.until === null || t < x.until.getTime())!;
  return Math.floor((t / 1000 + s.offsetS) / 86400);
}

/**
 * Local days from the day rollups (whole-hour zones): a UTC day's row is counted on its "anchor"
 * local day (the one holding its 12:00 UTC); the few hours of that UTC day that belong to the
 * neighbouring local day (the first 5 hours of each UTC day in New York) are read from the hourly
 * rollup twice, once subtracted from the anchor day and once added to their own day; the edge hours
 * outside the whole UTC days are read from the hours. For New York a year by source is ~2,900 day rows
 * and ~12,800 hour rows instead of ~61,000 hour rows. Column `ld` = the local day (integer).
 */
function localDaysRelation(f: FactFilter, table: RollupTable, days: { from: Date; to: Date }, segments: readonly OffsetSegment[]): RawBuilder<unknown> {
  const dim =
    table === ROLLUP_TABLES.none
      ? sql``
      : sql`${sql.ref(table === ROLLUP_TABLES.number ? 'f.number_id' : table === ROLLUP_TABLES.traffic_source ? 'f.traffic_source' : 'f.dni_pool_id')}, `;
  const measures = [
    'calls',
    'answered',
    'missed',
    'voicemails',
    'blocked',
    'first_time',
    'qualified',
    'leads',
    'duration_s',
    'answered_duration_s',
    'answer_time_s',
    'answer_time_n',
  ];
  const cols = (ld: RawBuilder<unknown>, sign: '' | '-') =>
    sql`f.company_id, ${dim}${ld} as ld, ${sql.join(measures.map((m) => sql`${sql.raw(sign)}${sql.ref(`f.${m}`)} as ${sql.ref(m)}`))}`;
  const HOUR = 3_600_000;
  // The hours of the whole UTC days that are not on their UTC day's anchor local day.
  const misplaced: Date[] = [];
  for (let day = days.from.getTime(); day < days.to.getTime(); day += DAY_MS) {
    const anchor = localDayOf(day + 12 * HOUR, segments);
    for (let h = day; h < day + DAY_MS; h += HOUR) if (localDayOf(h, segments) !== anchor) misplaced.push(new Date(h));
  }
  const anchorOf = (t: RawBuilder<unknown>) => localDimInteger('day', segments, sql`(${t} + interval '12 hours')`);
  const own = localDimInteger('day', segments, sql.ref('f.hour'));
  const hourTable = sql.table(table);
  const parts = [
    sql`select ${cols(anchorOf(sql.ref('f.day')), '')} from ${sql.table(DAY_TABLE_OF[table])} f where ${rollupConditions(f, table, 'day', days.from, days.to)}`,
  ];
  if (misplaced.length) {
    const inMisplaced = sql`${rollupConditions(f, table, 'hour', days.from, days.to)} and f.hour = any(${sql.val(misplaced)}::timestamptz[])`;
    parts.push(sql`select ${cols(anchorOf(sql`date_trunc('day', f.hour, 'UTC')`), '-')} from ${hourTable} f where ${inMisplaced}`);
    parts.push(sql`select ${cols(own, '')} from ${hourTable} f where ${inMisplaced}`);
  }
  if (f.from < days.from) parts.push(sql`select ${cols(own, '')} from ${hourTable} f where ${rollupConditions(f, table, 'hour', f.from, days.from)}`);
  if (days.to < f.to) parts.push(sql`select ${cols(own, '')} from ${hourTable} f where ${rollupConditions(f, table, 'hour', days.to, f.to)}`);
  return sql`(${sql.join(parts, sql` union all `)}) f`;
}

/** The text of a local dimension's integer (the output rows only): `YYYY-MM-DD`, `YYYY-MM-DD HH:00`, or the number. */
function localDimText(d: 'day' | 'hour' | 'hour_bucket' | 'weekday', v: RawBuilder<unknown>): RawBuilder<unknown> {
  if (d === 'day') return sql`to_char(date '1970-01-01' + ${v}, 'YYYY-MM-DD')`;
  if (d === 'hour_bucket') return sql`to_char(timestamp '1970-01-01' + ${v} * interval '1 hour', 'YYYY-MM-DD HH24:00')`;
  return v;
}

/**
 * A dimension's expression. Over the hourly rollups the local-time ones are integers computed from
 * the zone's offsets (`localDimInteger`: a zone lookup per row cost ~4 µs, a year by source is
 * ~61,000 rows), turned into text on the grouped rows only.
 */
function dimExpression(
  d: Dim,
  source: 'facts' | 'rollup',
  timeZone: string,
  firstTouch: boolean,
  segments: readonly OffsetSegment[] = [],
): RawBuilder<unknown> {
  if (source === 'rollup' && isLocalDim(d)) return localDimInteger(d, segments);
  switch (d) {
    case 'day':
    case 'hour':
    case 'hour_bucket':
    case 'weekday':
      return localDimExpression(d, sql.ref('f.started_at'), timeZone);
    case 'number':
      return sql`f.number_id`;
    case 'answered_by':
      return sql`f.answered_by`;
    case 'tag':
      return sql`tg.tag_id`;
    case 'traffic_source':
      return source === 'facts' && firstTouch ? sql`f.first_traffic_source` : sql`f.traffic_source`;
    case 'dni_pool':
      return source === 'facts' ? sql`f.dni_pool_id` : sql`nullif(f.dni_pool_id, 0)`;
    case 'geo':
      return sql`f.geo`;
  }
}

const ALL_DIMS: readonly Dim[] = ['day', 'hour', 'hour_bucket', 'weekday', 'number', 'answered_by', 'tag', 'traffic_source', 'dni_pool', 'geo'];

/** One aggregation statement over the facts (`table` null) or one rollup; `set` of a row = index in `sets`. */
async function aggregateOver(
  db: DbOrTx,
  table: RollupTable | null,
  filter: FactFilter,
  timeZone: string,
  sets: readonly (readonly Dim[])[],
  days: { from: Date; to: Date } | null = null,
  mode: 'split' | 'localDays' = 'split',
): Promise<AggRow[]> {
  const source = table === null ? 'facts' : 'rollup';
  const used = ALL_DIMS.filter((d) => sets.some((s) => s.includes(d)));
  const firstTouch = filter.firstTouch === true;
  const localDims = table !== null ? used.filter(isLocalDim) : [];
  const segments = localDims.length ? offsetSegments(filter.from, filter.to, timeZone) : [];
  const localDays = table !== null && days !== null && mode === 'localDays';
  const dimCols = used.map(
    (d) => sql`${localDays && d === 'day' ? sql.ref('f.ld') : dimExpression(d, source, timeZone, firstTouch, segments)} as ${sql.ref(`d_${d}`)}`,
  );
  const base =
    table === null
      ? sql`1 as calls, (f.answer_status = 1)::int as answered, (f.answer_status = 2)::int as missed,
          (f.answer_status = 3)::int as voicemails, (f.answer_status = 4)::int as blocked, f.is_first_contact::int as first_time,
          f.is_qualified::int as qualified, f.is_lead::int as leads, f.duration_s,
          case when f.answer_status = 1 then f.duration_s else 0 end as answered_duration_s,
          case when f.answer_status = 1 and f.answer_time_s is not null then f.answer_time_s else 0 end as answer_time_s,
          (f.answer_status = 1 and f.answer_time_s is not null)::int as answer_time_n, f.caller as caller`
      : sql`f.calls, f.answered, f.missed, f.voicemails, f.blocked, f.first_time, f.qualified, f.leads, f.duration_s,
          f.answered_duration_s, f.answer_time_s, f.answer_time_n`;
  const from =
    table === null
      ? used.includes('tag')
        ? sql`call_facts f cross join lateral unnest(case when cardinality(f.tag_ids) = 0 then array[null::bigint] else f.tag_ids end) as tg(tag_id)`
        : sql`call_facts f`
      : days
        ? localDays
          ? localDaysRelation(filter, table, days, segments)
          : splitRollupRelation(filter, table, days)
        : sql`${sql.table(table)} f`;
  const where = table === null ? factConditions(filter) : days ? sql`true` : rollupConditions(filter, table);
  const inner = sql`select ${sql.join([...dimCols, base])} from ${from} where ${where}`;
  const groupCols = (s: readonly Dim[]) => sql`(${s.length ? sql.join(s.map((d) => sql.ref(`d_${d}`))) : sql``})`;
  const grouping = used.length ? sql`grouping(${sql.join(used.map((d) => sql.ref(`d_${d}`)))})` : sql`0`;
  const outDims = used.map((d) =>
    localDims.includes(d as never) && isLocalDim(d) ? sql`${localDimText(d, sql.ref(`d_${d}`))} as ${sql.ref(`d_${d}`)}` : sql.ref(`d_${d}`),
  );
  const result = await sql<Record<string, unknown>>`
    select ${grouping}::int as g, ${outDims.length ? sql`${sql.join(outDims)},` : sql``}
      sum(calls)::bigint as calls, sum(answered)::bigint as answered, sum(missed)::bigint as missed,
      sum(voicemails)::bigint as voicemails, sum(blocked)::bigint as blocked, sum(first_time)::bigint as first_time,
      ${table === null ? sql`count(distinct caller)::bigint` : sql`null::bigint`} as unique_callers,
      sum(qualified)::bigint as qualified, sum(leads)::bigint as leads, sum(duration_s)::bigint as duration_s,
      sum(answered_duration_s)::bigint as answered_duration_s, sum(answer_time_s)::bigint as answer_time_s,
      sum(answer_time_n)::bigint as answer_time_n
    from (${inner}) b
    group by grouping sets (${sql.join(sets.map(groupCols))})`.execute(db);
  // grouping(): bit set (most significant = first dim) when the dim is NOT in the row's set.
  const maskOf = (s: readonly Dim[]) => used.reduce((m, d, i) => (s.includes(d) ? m : m | (1 << (used.length - 1 - i))), 0);
  const masks = sets.map(maskOf);
  const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
  return result.rows
    .filter((r) => Number(r.calls) > 0)
    .map((r) => {
      const row: AggRow = {
        set: masks.indexOf(Number(r.g)),
        day: null,
        hour: null,
        hour_bucket: null,
        weekday: null,
        number: null,
        answered_by: null,
        tag: null,
        traffic_source: null,
        dni_pool: null,
        geo: null,
        calls: num(r.calls),
        answered: num(r.answered),
        missed: num(r.missed),
        voicemails: num(r.voicemails),
        blocked: num(r.blocked),
        first_time: num(r.first_time),
        unique_callers: r.unique_callers === null ? null : Number(r.unique_callers),
        qualified: num(r.qualified),
        leads: num(r.leads),
        duration_s: num(r.duration_s),
        answered_duration_s: num(r.answered_duration_s),
        answer_time_s: num(r.answer_time_s),
        answer_time_n: num(r.answer_time_n),
      };
      for (const d of used) {
        const v = r[`d_${d}`];
        if (v === null || v === undefined) continue;
        if (d === 'day' || d === 'hour_bucket' || d === 'traffic_source' || d === 'geo') row[d] = String(v);
        else row[d] = Number(v);
      }
      return row;
    });
}

/** Text columns of a fact an export writes as they are (CSV-quoted, formula cells neutralised). */
export type FactTextColumn =
  | 'from_number'
  | 'to_number'
  | 'direction'
  | 'outcome'
  | 'department'
  | 'extension_label'
  | 'geo'
  | 'traffic_source'
  | 'source'
  | 'medium'
  | 'campaign'
  | 'keyword';

/**
 * One CSV cell of an export, formatted by PostgreSQL (`factsCsvPage`):
 * - `text`: the column's text, quoted and neutralised exactly as `platform/csv.ts` writes it;
 * - `int`: a whole number ('' when null);
 * - `localTime`: `started_at` in `localTime` (an IANA zone) as `YYYY-MM-DD HH:mm:ss`;
 * - `code`: the cell of a small code (`cells[code]`, '' when absent), already CSV-formatted;
 * - `lookup`: the cell of an id (`values`), already CSV-formatted ('' when absent);
 * - `yesNo`: `yes` / `no`.
 */
export type CsvCellSpec =
  | { text: FactTextColumn }
  | { int: 'call_id' | 'duration_s' | 'answer_time_s' }
  | { localTime: string }
  | { code: 'status' | 'answer_status' | 'qualification'; cells: readonly string[] }
  | { lookup: 'company_id' | 'number_id'; values: ReadonlyMap<number, string> }
  | { yesNo: 'is_first_contact' };

/**
 * The CSV cell of a text expression, the rule of platform/csv.ts (papaparse with FORMULA_TRIGGER):
 * a formula trigger first (`= + - @`, tab, CR) unless the whole cell is a signed integer: a leading
 * single quote and double quotes; else double quotes when it holds CR, LF, a double quote, a comma
 * or a byte-order mark, or starts or ends with a space. Double quotes inside are doubled.
 */
function csvTextCell(v: RawBuilder<unknown>): RawBuilder<unknown> {
  const quoted = sql`replace(${v}, '"', '""')`;
  return sql`(case when ${v} = '' then ''
    when ${v} ~ '^[=+@\t\r-]' and ${v} !~ '^[+-]?[0-9]+$' then '"''' || ${quoted} || '"'
    when ${v} ~ '[\r\n",\ufeff]' or ${v} like ' %' or ${v} like '% ' then '"' || ${quoted} || '"'
    else ${v} end)`;
}

/** The SQL of each cell and the joins its lookups need, for `factsCsvPage`. */
export function csvCells(specs: readonly CsvCellSpec[]): { cells: RawBuilder<unknown>[]; joins: RawBuilder<unknown> } {
  const joins: RawBuilder<unknown>[] = [];
  const cells = specs.map((c, i) => {
    if ('text' in c) return csvTextCell(sql`coalesce(${sql.ref(`f.${c.text}`)}, '')`);
    if ('int' in c) return sql`coalesce(${sql.ref(`f.${c.int}`)}::text, '')`;
    if ('localTime' in c) return sql`to_char(timezone(${c.localTime}::text, f.started_at), 'YYYY-MM-DD HH24:MI:SS')`;
    if ('code' in c) return sql`coalesce((${sql.val([...c.cells])}::text[])[${sql.ref(`f.${c.code}`)} + 1], '')`;
    if ('yesNo' in c) return sql`(case when ${sql.ref(`f.${c.yesNo}`)} then 'yes' else 'no' end)`;
    const alias = `lk${i}`;
    joins.push(
      sql`left join unnest(${sql.val([...c.values.keys()])}::bigint[], ${sql.val([...c.values.values()])}::text[]) as ${sql.raw(alias)}(id, v)
        on ${sql.ref(`${alias}.id`)} = ${sql.ref(`f.${c.lookup}`)}`,
    );
    return sql`coalesce(${sql.ref(`${alias}.v`)}, '')`;
  });
  return { cells, joins: sql.join(joins, sql` `) };
}

export const analyticsRepository = {
  /** Records calls whose fact must be rebuilt (`call_facts_pending`; a call queued again gets the newer time). */
  async queuePending(db: DbOrTx, callIds: readonly number[]): Promise<void> {
    if (callIds.length === 0) return;
    await sql`insert into call_facts_pending (call_id) select unnest(${[...callIds]}::bigint[])
      on conflict (call_id) do update set queued_at = excluded.queued_at`.execute(db);
  },
  /** The oldest `limit` pending calls with the time each was queued. */
  async pendingFacts(db: DbOrTx, limit: number): Promise<Array<{ call_id: number; queued_at: string }>> {
    // The time as PostgreSQL's text (microseconds): a JavaScript Date keeps milliseconds, and the clear below compared
    // the stored time with a truncated one, found it later, and left every pending call pending (each flush rebuilt
    // the same calls again, forever).
    const { rows } = await sql<{ call_id: number; queued_at: string }>`select call_id, queued_at::text as queued_at from call_facts_pending
      order by call_facts_pending.queued_at limit ${limit}`.execute(db);
    return rows;
  },
  /**
   * Takes or renews the lease `name` for `holder` until `ms` from now: true when `holder` holds it now (it was free,
   * expired or already its own), false when another holder's lease runs.
   */
  async takeLease(db: DbOrTx, name: string, holder: string, ms: number): Promise<boolean> {
    const { rows } = await sql`insert into analytics_leases as l (name, holder, until) values (${name}, ${holder}, now() + ${`${ms} milliseconds`}::interval)
      on conflict (name) do update set holder = excluded.holder, until = excluded.until
      where l.holder = excluded.holder or l.until < now()
      returning 1 as ok`.execute(db);
    return rows.length > 0;
  },
  /** Ends `holder`'s lease `name` (nothing when another holds it). */
  async releaseLease(db: DbOrTx, name: string, holder: string): Promise<void> {
    await sql`update analytics_leases set until = now() where name = ${name} and holder = ${holder}`.execute(db);
  },
  /** Removes pending calls rebuilt since they were queued (a call queued again meanwhile, with a newer time, stays). */
  async clearPending(db: DbOrTx, rows: ReadonlyArray<{ call_id: number; queued_at: string }>): Promise<void> {
    if (rows.length === 0) return;
    await sql`delete from call_facts_pending p using unnest(${rows.map((r) => r.call_id)}::bigint[], ${rows.map((r) => r.queued_at)}::timestamptz[]) as x(call_id, queued_at)
      where p.call_id = x.call_id and p.queued_at <= x.queued_at`.execute(db);
  },
  /** Inserts or replaces facts (idempotent; the rollup trigger follows). */
  async upsertFacts(db: DbOrTx, rows: NewFact[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('call_facts')
      .values(rows)
      .onConflict((oc) =>
        oc.column('call_id').doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const k of Object.keys(rows[0]!)) if (k !== 'call_id') set[k] = eb.ref(`excluded.${k}` as 'excluded.company_id');
          set.updated_at = sql`now()`;
          return set;
        }),
      )
      .execute();
  },

  /** Stores call tracking's attribution of a call (the latest word wins). */
  /** Inserts or replaces call tracking's attributions (one row per call; the last of a call in `rows` wins). */
  async upsertAttributions(db: DbOrTx, rows: ReadonlyArray<NewRow<'call_attributions'>>): Promise<void> {
    const byCall = new Map(rows.map((r) => [r.call_id, r]));
    if (byCall.size === 0) return;
    await db
      .insertInto('call_attributions')
      .values([...byCall.values()])
      .onConflict((oc) =>
        oc.column('call_id').doUpdateSet((eb) => ({
          company_id: eb.ref('excluded.company_id'),
          is_first_contact: eb.ref('excluded.is_first_contact'),
          lead_id: eb.ref('excluded.lead_id'),
          method: eb.ref('excluded.method'),
          pool_id: eb.ref('excluded.pool_id'),
          session_id: eb.ref('excluded.session_id'),
          traffic_source: eb.ref('excluded.traffic_source'),
          source: eb.ref('excluded.source'),
          medium: eb.ref('excluded.medium'),
          campaign: eb.ref('excluded.campaign'),
          keyword: eb.ref('excluded.keyword'),
          first_traffic_source: eb.ref('excluded.first_traffic_source'),
          first_source: eb.ref('excluded.first_source'),
          first_medium: eb.ref('excluded.first_medium'),
          first_campaign: eb.ref('excluded.first_campaign'),
          first_keyword: eb.ref('excluded.first_keyword'),
        })),
      )
      .execute();
  },

  async attributionsOf(db: DbOrTx, callIds: readonly number[]): Promise<AttributionRow[]> {
    if (callIds.length === 0) return [];
    return db
      .selectFrom('call_attributions')
      .selectAll()
      .where('call_id', 'in', [...callIds])
      .execute();
  },

  /** The ids among `callIds` that have a fact. */
  async factIdsAmong(db: DbOrTx, callIds: readonly number[]): Promise<Set<number>> {
    if (callIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('call_facts')
      .select('call_id')
      .where('call_id', 'in', [...callIds])
      .execute();
    return new Set(rows.map((r) => Number(r.call_id)));
  },

  /** The earliest fact (start, call id) of the company with each outside party among `callers`. One index probe per caller. */
  async earliestByCaller(db: DbOrTx, companyId: number, callers: readonly string[]): Promise<Map<string, { startedAt: Date; callId: number }>> {
    if (callers.length === 0) return new Map();
    const result = await sql<{ caller: string; started_at: Date; call_id: string }>`
      select p.caller, e.started_at, e.call_id from unnest(${sql.val([...new Set(callers)])}::text[]) as p(caller)
      cross join lateral (select f.started_at, f.call_id from call_facts f where f.company_id = ${companyId} and f.caller = p.caller
        order by f.started_at, f.call_id limit 1) e`.execute(db);
    return new Map(result.rows.map((r) => [r.caller, { startedAt: new Date(r.started_at), callId: Number(r.call_id) }]));
  },

  /** How many facts have a call id in [lo, hi]. */
  async factCountBetween(db: DbOrTx, lo: number, hi: number): Promise<number> {
    const r = await db
      .selectFrom('call_facts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('call_id', '>=', lo)
      .where('call_id', '<=', hi)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },

  async factsOf(db: DbOrTx, callIds: readonly number[]): Promise<FactRow[]> {
    if (callIds.length === 0) return [];
    return db
      .selectFrom('call_facts')
      .selectAll()
      .where('call_id', 'in', [...callIds])
      .execute();
  },

  /**
   * Aggregates over `sets` (grouping sets of dims; `[[]]` = totals). Over the facts: one statement,
   * one scan. Over the rollups: one statement per rollup the sets need (in parallel), a set no rollup
   * serves over the facts. A rollup whose sets have no local day, hour or weekday reads the range's
   * whole UTC days from its per-day twin and only the edge hours from the hourly one; otherwise the
   * hours. The tag dimension expands a call into one row per tag (untagged: one row with tag null).
   * `set` of each row is the index of its set in `sets`.
   */
  async aggregate(db: DbOrTx, q: { source: 'facts' | 'rollup'; filter: FactFilter; timeZone: string; sets: readonly (readonly Dim[])[] }): Promise<AggRow[]> {
    if (q.source === 'facts') return aggregateOver(db, null, q.filter, q.timeZone, q.sets);
    const byTable = new Map<RollupTable | null, number[]>();
    q.sets.forEach((s, i) => {
      const t = rollupTableFor(q.filter, s);
      byTable.set(t, [...(byTable.get(t) ?? []), i]);
    });
    const parts = await Promise.all(
      [...byTable].map(async ([table, idx]) => {
        const sets = idx.map((i) => q.sets[i]!);
        const local = sets.flatMap((set) => set.filter((d) => LOCAL_TIME_DIMS.includes(d)));
        // No local time: whole UTC days + edge hours. Local days only: anchored day rows + moved hours. Else the hours.
        const mode = local.length === 0 ? 'split' : local.every((d) => d === 'day') ? 'localDays' : null;
        const days = table !== null && mode !== null ? wholeUtcDays(q.filter.from, q.filter.to) : null;
        const rows = await aggregateOver(db, table, q.filter, q.timeZone, sets, days, mode ?? 'split');
        return rows.map((r) => ({ ...r, set: idx[r.set]! }));
      }),
    );
    return parts.flat();
  },

  /** Calls, answered, missed (status missed) and voicemails of a company in [from, to), optionally of one number. */
  async countCalls(
    db: DbOrTx,
    q: { companyId: number; from: Date; to: Date; numberId?: number },
  ): Promise<{ total: number; answered: number; missed: number; voicemails: number }> {
    let query = db
      .selectFrom('call_facts')
      .select((eb) => [
        eb.fn.countAll<string>().as('total'),
        sql<string>`count(*) filter (where answer_status = 1)`.as('answered'),
        sql<string>`count(*) filter (where answer_status = 2)`.as('missed'),
        sql<string>`count(*) filter (where answer_status = 3)`.as('voicemails'),
      ])
      .where('company_id', '=', q.companyId)
      .where('started_at', '>=', q.from)
      .where('started_at', '<', q.to);
    if (q.numberId !== undefined) query = query.where('number_id', '=', q.numberId);
    const r = await query.executeTakeFirstOrThrow();
    return { total: Number(r.total), answered: Number(r.answered), missed: Number(r.missed), voicemails: Number(r.voicemails) };
  },

  /** The latest call start per number among `numberIds` (numbers with no call are absent). One index probe per number. */
  async lastCallAt(db: DbOrTx, companyId: number, numberIds: readonly number[]): Promise<Map<number, Date>> {
    if (numberIds.length === 0) return new Map();
    const result = await sql<{ number_id: string; last: Date }>`
      select n.id as number_id, l.last from unnest(${ids(numberIds)}) as n(id)
      cross join lateral (select max(f.started_at) as last from call_facts f where f.number_id = n.id and f.company_id = ${companyId}) l
      where l.last is not null`.execute(db);
    return new Map(result.rows.map((r) => [Number(r.number_id), new Date(r.last)]));
  },

  /** A page of facts matching `f`, ordered by (started_at, call_id), after the keyset `after`. */
  async factsPage(
    db: DbOrTx,
    f: FactFilter,
    after: { startedAt: Date; callId: number } | null,
    limit: number,
    columns: readonly (keyof FactRow)[] = [],
  ): Promise<FactRow[]> {
    // Only the columns asked for (and the keyset's): fewer values to send and parse per row.
    const cols = columns.length ? [...new Set<string>(['call_id', 'started_at', 'company_id', ...columns])].map((c) => sql.ref(`f.${c}`)) : [sql`f.*`];
    // The separate `started_at >=` lets the (company_id, started_at) index start at the keyset, not at the range's start.
    const keyset = after ? sql`and f.started_at >= ${after.startedAt} and (f.started_at, f.call_id) > (${after.startedAt}, ${after.callId})` : sql``;
    const result = await sql<FactRow>`
      select ${sql.join(cols)} from call_facts f where ${factConditions(f)} ${keyset}
      order by f.started_at, f.call_id limit ${limit}`.execute(db);
    return result.rows;
  },

  /**
   * A page of facts matching `f` as CSV text, formatted by PostgreSQL (the exports' fast path,
   * analytics.exports.ts): `cells` are one SQL expression per column, each already a CSV cell;
   * lines joined by CRLF, no trailing line break. The keyset of the page's last row comes back
   * exactly (`startedAt` as PostgreSQL's text, microseconds kept). Null when no row is left.
   */
  async factsCsvPage(
    db: DbOrTx,
    f: FactFilter,
    after: { startedAt: string; callId: number } | null,
    limit: number,
    cells: readonly RawBuilder<unknown>[],
    joins: RawBuilder<unknown> = sql``,
  ): Promise<{ text: string; rows: number; last: { startedAt: string; callId: number } } | null> {
    const keyset = after
      ? sql`and f.started_at >= ${after.startedAt}::timestamptz and (f.started_at, f.call_id) > (${after.startedAt}::timestamptz, ${after.callId})`
      : sql``;
    const line = sql.join(cells, sql` || ',' || `);
    const result = await sql<{ text: string; rows: number; started_at: string; call_id: string }>`
      with p as (select f.started_at, f.call_id, ${line} as line from call_facts f ${joins}
        where ${factConditions(f)} ${keyset} order by f.started_at, f.call_id limit ${limit})
      select (select string_agg(line, chr(13) || chr(10) order by started_at, call_id) from p) as text, (select count(*)::int from p) as rows,
        l.started_at::text as started_at, l.call_id
      from (select started_at, call_id from p order by started_at desc, call_id desc limit 1) l`.execute(db);
    const r = result.rows[0];
    if (!r) return null;
    return { text: r.text, rows: Number(r.rows), last: { startedAt: r.started_at, callId: Number(r.call_id) } };
  },

  /** Ids of the numbers with calls of `companyIds` in [from, to) (a superset: whole UTC days of the day rollup). */
  async numberIdsWithCalls(db: DbOrTx, companyIds: readonly number[], from: Date, to: Date): Promise<number[]> {
    const result = await sql<{ number_id: string }>`
      select distinct f.number_id from call_rollup_day_numbers f
      where ${companyIs('f.company_id', companyIds)} and f.day >= date_trunc('day', ${from}::timestamptz, 'UTC') and f.day < ${to}`.execute(db);
    return result.rows.map((r) => Number(r.number_id));
  },

  /** Call ids of facts matching `f` (newest first, at most `limit`): the activity feed's report filters. */
  async matchingCallIds(db: DbOrTx, f: FactFilter, limit: number): Promise<{ ids: number[]; total: number }> {
    const [rows, count] = await Promise.all([
      sql<{ call_id: string }>`select f.call_id from call_facts f where ${factConditions(f)} order by f.started_at desc, f.call_id desc limit ${limit}`.execute(
        db,
      ),
      sql<{ n: string }>`select count(*) as n from call_facts f where ${factConditions(f)}`.execute(db),
    ]);
    return { ids: rows.rows.map((r) => Number(r.call_id)), total: Number(count.rows[0]?.n ?? 0) };
  },

  /** Records a run of job `name` unless one was recorded less than `minGapMs` ago. @returns whether this run may go ahead. */
  async claimJobRun(db: DbOrTx, name: string, minGapMs: number): Promise<boolean> {
    const r = await sql<{ name: string }>`
      insert into analytics_job_runs as r (name, last_run_at) values (${name}, now())
      on conflict (name) do update set last_run_at = now()
      where r.last_run_at < now() - make_interval(secs => ${minGapMs / 1000})
      returning r.name`.execute(db);
    return r.rows.length > 0;
  },

  // ------------------------------------------------------------------ exports

  async insertExport(db: DbOrTx, row: NewRow<'analytics_exports'>): Promise<ExportRow> {
    return db.insertInto('analytics_exports').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async findExport(db: DbOrTx, id: number): Promise<ExportRow | undefined> {
    return db.selectFrom('analytics_exports').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async listExports(db: DbOrTx, userId: number, companyId: number, limit: number): Promise<ExportRow[]> {
    return db
      .selectFrom('analytics_exports')
      .selectAll()
      .where('user_id', '=', userId)
      .where('company_id', '=', companyId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /** Claims a queued (or interrupted running) export for a run; undefined when it is done or failed. */
  async claimExport(db: DbOrTx, id: number): Promise<ExportRow | undefined> {
    return db
      .updateTable('analytics_exports')
      .set({ status: 'running' })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
  },

  async finishExport(
    db: DbOrTx,
    id: number,
    patch: { status: 'done' | 'failed'; rows?: number; blob_key?: string | null; error?: string | null },
  ): Promise<ExportRow> {
    return db
      .updateTable('analytics_exports')
      .set({ ...patch, finished_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};
