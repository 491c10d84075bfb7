/**
 * Call reports, the dashboard and KPIs (spec 001 §7 "GET /analytics/calls"; spec 002 "Dashboard",
 * §9 comparison period and cache lifetime; docs/analytics.md).
 *
 * Scope: the company of the request, or the `companies` / `businessUnits` it names (only companies
 * the user is an active member of: 403 otherwise). Time zone: `timezone`/`tz`, else the company's.
 * Each answer is one or two statements over the reporting store: the hourly rollups when the filters
 * and grouping allow it and the zone's hours are whole UTC hours over the range, else the facts.
 */
import {
  ANSWER_STATUS_NAMES,
  DASHBOARD_CACHE_MS,
  MAX_REPORT_RANGE_DAYS,
  type CallMeasures,
  type CallReportBody,
  type CallReportFilters,
  type CallReportGroup,
  type CallReportQuery,
  type CallReportRow,
  type CallReportTarget,
  type DashboardBody,
  type DashboardQuery,
  type Kpi,
  type KpiBody,
  type KpiQuery,
  type TextFilterValue,
} from '@switchboard/contracts';
import { isValidTimeZone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { fieldError, ForbiddenError } from '../../platform/http/errors.js';
import { tagNamesOf } from '../calls/calls.service.js';
import { assertCompanyAccess, companyTimeZone, listUserCompanies } from '../companies/companies.service.js';
import { countMessagesAndFaxes, messageCountsByBucket } from '../conversations/conversations.service.js';
import { countFaxes } from '../fax/fax.reporting.js';
import { activeNumbersOf } from '../numbers/numbers.reporting.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { poolNamesOf } from '../tracking/tracking.service.js';
import { getUserNames } from '../users/users.service.js';
import { analyticsRepository, rollupCanServe, type AggRow, type Dim, type FactFilter, type TextMatch } from './analytics.repository.js';
import { cached } from './analytics.live.js';
import { buckets, comparisonRange, RangeInputError, resolveRange, wholeHourAligned, type Range } from './analytics.time.js';

/** Dimensions of each grouping, in sort order (spec 001 §7 groupings). */
export const GROUP_DIMS: Readonly<Record<CallReportGroup, readonly Dim[]>> = {
  number_day: ['number', 'day'],
  answered_by_day: ['answered_by', 'day'],
  number: ['number'],
  tag_day: ['tag', 'day'],
  day_hour: ['day', 'hour'],
  hour_day: ['hour', 'day'],
  traffic_source_day: ['traffic_source', 'day'],
  dni_pool_day: ['dni_pool', 'day'],
  geo: ['geo'],
};

/** The companies a report covers, its time zone and the resolved filter. */
export type Scope = { companyIds: number[]; timeZone: string };

/**
 * The companies of a report: `companyId` (access checked), or the `companies` it names, or the
 * user's companies in the named `businessUnits`.
 * @throws ForbiddenError (403) for a company the user may not read, or business units with none of theirs.
 */
export async function resolveScope(
  ctx: AppContext,
  userId: number,
  companyId: number,
  filters: Pick<CallReportFilters, 'companies' | 'businessUnits'> | undefined,
): Promise<number[]> {
  await assertCompanyAccess(ctx, userId, companyId);
  const wanted = filters?.companies ?? [];
  const units = filters?.businessUnits ?? [];
  if (wanted.length === 0 && units.length === 0) return [companyId];
  const mine = await listUserCompanies(ctx, userId);
  const readable = new Map(mine.map((c) => [Number(c.id), c.organization_id === null ? null : Number(c.organization_id)]));
  let ids = wanted.length > 0 ? [...new Set(wanted)] : [...readable.keys()];
  if (ids.some((id) => !readable.has(id))) throw new ForbiddenError();
  if (units.length > 0) {
    ids = ids.filter((id) => units.includes(readable.get(id) ?? -1));
    if (ids.length === 0) throw new ForbiddenError();
  }
  return ids.sort((a, b) => a - b);
}

/** The report's IANA zone: the given one (422 on `field` when unknown), else the company's. */
export async function resolveZone(ctx: AppContext, companyId: number, given: string | undefined, field: string): Promise<string> {
  if (given !== undefined && given !== '') {
    if (!isValidTimeZone(given)) throw fieldError(field, 'The timezone must be a valid zone.');
    return given;
  }
  return companyTimeZone(ctx, companyId);
}

/** The spec's wildcard rule (spec 001 §5) for a text filter value. */
function textMatch(v: TextFilterValue): TextMatch {
  return typeof v === 'string' ? { value: v, exact: false } : { value: v.value, exact: v.operator === 'equals' };
}

/** A range from the request, 422 on `field` when it ends before it starts or is too long. */
export function rangeOf(input: CallReportFilters['dates'], timeZone: string, field: string, now = new Date()): Range {
  try {
    return resolveRange(input, timeZone, now, 30, MAX_REPORT_RANGE_DAYS, field);
  } catch (error) {
    if (error instanceof RangeInputError) throw fieldError(error.field, error.message);
    throw error;
  }
}

/** The repository filter of the request's report filters over `companyIds` in `range`. */
export function factFilterOf(filters: CallReportFilters | undefined, companyIds: number[], range: Pick<Range, 'from' | 'to'>): FactFilter {
  const f = filters ?? ({} as CallReportFilters);
  return {
    companyIds,
    from: range.from,
    to: range.to,
    numberIds: f.number_ids,
    tagIds: f.tagIds,
    answerStatus: f.answerStatus?.map((s) => ANSWER_STATUS_NAMES.indexOf(s)),
    minDuration: f.minDuration,
    isFirstContact: f.isFirstContact,
    answeredBy: f.answered_by,
    geo: f.geo?.map(textMatch),
    firstTouch: f.attributionModel === 'first_touch',
    trafficSource: f.trafficSource?.map(textMatch),
    outcomes: f.outcomes,
    departments: f.departments,
    isQualified: f.isQualified,
    isLead: f.isLead,
    dniPools: f.dniPools,
    extensionLabels: f.extensionLabels?.map(textMatch),
  };
}

/** Which source answers: rollups when they can serve the filter and dims and the zone is whole-hour over the range. */
export function sourceFor(
  filter: FactFilter,
  dims: readonly Dim[],
  range: Pick<Range, 'from' | 'to'>,
  timeZone: string,
  needUnique: boolean,
): 'facts' | 'rollup' {
  if (needUnique || process.env.ANALYTICS_SOURCE === 'facts') return 'facts';
  return rollupCanServe(filter, dims) && wholeHourAligned(range, timeZone) ? 'rollup' : 'facts';
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The contract's measures of an aggregated row. */
export function measuresOf(r: AggRow | undefined): CallMeasures {
  if (!r) {
    return {
      calls: 0,
      answered: 0,
      missed: 0,
      voicemails: 0,
      blocked: 0,
      firstTimeCallers: 0,
      uniqueCallers: 0,
      qualified: 0,
      leads: 0,
      totalDurationS: 0,
      avgDurationS: null,
      avgAnswerTimeS: null,
      missedPct: null,
    };
  }
  return {
    calls: r.calls,
    answered: r.answered,
    missed: r.missed,
    voicemails: r.voicemails,
    blocked: r.blocked,
    firstTimeCallers: r.first_time,
    uniqueCallers: r.unique_callers,
    qualified: r.qualified,
    leads: r.leads,
    totalDurationS: r.duration_s,
    avgDurationS: r.answered > 0 ? round1(r.answered_duration_s / r.answered) : null,
    avgAnswerTimeS: r.answer_time_n > 0 ? round1(r.answer_time_s / r.answer_time_n) : null,
    missedPct: r.calls > 0 ? round1((r.missed / r.calls) * 100) : null,
  };
}

function targetValue(m: CallMeasures, target: CallReportTarget): number {
  switch (target) {
    case 'calls':
      return m.calls;
    case 'answered':
      return m.answered;
    case 'missed':
      return m.missed;
    case 'voicemails':
      return m.voicemails;
    case 'unique_callers':
      return m.uniqueCallers ?? 0;
    case 'first_time_callers':
      return m.firstTimeCallers;
    case 'duration':
      return m.totalDurationS;
  }
}

/** Numbers by id (labels), across the scope's companies, released ones included (history keeps its labels). */
async function numberNames(ctx: AppContext, companyIds: number[], ids: number[]): Promise<Map<number, { number: string; label: string }>> {
  const out = new Map<number, { number: string; label: string }>();
  if (ids.length === 0) return out;
  for (const companyId of companyIds) {
    for (const n of await getCompanyNumbers(ctx, companyId, ids, { includeReleased: true })) out.set(n.id, { number: n.number, label: n.label });
  }
  return out;
}

async function poolNames(ctx: AppContext, companyIds: number[], ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (ids.length === 0) return out;
  for (const companyId of companyIds) for (const [id, name] of await poolNamesOf(ctx, companyId, ids)) out.set(id, name);
  return out;
}

/**
 * `GET /analytics/calls` (json): rows of the grouping with every measure, `value` = the target's,
 * and totals. Sorted by the grouping's keys (days and hours ascending, names alphabetically).
 * @throws ForbiddenError (403), ValidationError (422: timezone, dates).
 */
export async function callReport(ctx: AppContext, userId: number, q: CallReportQuery): Promise<CallReportBody> {
  const companyIds = await resolveScope(ctx, userId, q.company_id, q);
  const timeZone = await resolveZone(ctx, q.company_id, q.timezone, 'timezone');
  const range = rangeOf(q.dates, timeZone, 'dates');
  const filter = factFilterOf(q, companyIds, range);
  const dims = GROUP_DIMS[q.group];
  const needUnique = q.target === 'unique_callers';
  const source = sourceFor(filter, dims, range, timeZone, needUnique);
  const key = JSON.stringify({ ...q, companyIds, timeZone, range });
  return cached(ctx, companyIds, `report:${key}`, DASHBOARD_CACHE_MS, async () => {
    // The tag grouping counts a call once per tag: its totals come from a second set without tags.
    const rows = dims.includes('tag')
      ? [
          ...(await analyticsRepository.aggregate(ctx.db, { source, filter, timeZone, sets: [dims] })),
          ...(await analyticsRepository.aggregate(ctx.db, { source, filter, timeZone, sets: [[]] })).map((r) => ({ ...r, set: 1 })),
        ]
      : await analyticsRepository.aggregate(ctx.db, { source, filter, timeZone, sets: [dims, []] });
    const grouped = rows.filter((r) => r.set === 0);
    const totals = rows.find((r) => r.set === 1);

    const [numbers, users, tags, pools] = await Promise.all([
      dims.includes('number') ? numberNames(ctx, companyIds, [...new Set(grouped.map((r) => r.number!).filter((n) => n !== null))]) : new Map(),
      dims.includes('answered_by')
        ? getUserNames(ctx, [...new Set(grouped.map((r) => r.answered_by).filter((n): n is number => n !== null))])
        : new Map<number, string>(),
      dims.includes('tag') ? tagNamesOf(ctx, companyIds) : new Map<number, string>(),
      dims.includes('dni_pool')
        ? poolNames(ctx, companyIds, [...new Set(grouped.map((r) => r.dni_pool).filter((n): n is number => n !== null))])
        : new Map<number, string>(),
    ]);
    const out: CallReportRow[] = grouped.map((r) => {
      const m = measuresOf(r);
      const row: CallReportRow = { ...m, value: targetValue(m, q.target) };
      for (const d of dims) {
        if (d === 'day') row.day = r.day ?? '';
        if (d === 'hour') row.hour = r.hour ?? 0;
        if (d === 'number') {
          row.numberId = r.number;
          const n = r.number !== null ? numbers.get(r.number) : undefined;
          row.number = n?.number ?? '';
          row.numberLabel = n?.label ?? '';
        }
        if (d === 'answered_by') {
          row.answeredBy = r.answered_by;
          row.answeredByName = r.answered_by !== null ? (users.get(r.answered_by) ?? '') : '';
        }
        if (d === 'tag') {
          row.tagId = r.tag;
          row.tagName = r.tag !== null ? (tags.get(r.tag) ?? '') : '';
        }
        if (d === 'traffic_source') row.trafficSource = r.traffic_source ?? '';
        if (d === 'dni_pool') {
          row.dniPoolId = r.dni_pool;
          row.dniPoolName = r.dni_pool !== null ? (pools.get(r.dni_pool) ?? '') : '';
        }
        if (d === 'geo') row.geo = r.geo ?? '';
      }
      return row;
    });
    out.sort((a, b) => compareRows(a, b, dims));
    return {
      data: {
        group: q.group,
        target: q.target,
        timezone: timeZone,
        range: rangeOut(range),
        rows: out,
        totals: measuresOf(totals),
      },
    };
  });
}

function sortKey(r: CallReportRow, d: Dim): string | number {
  switch (d) {
    case 'day':
      return r.day ?? '';
    case 'hour':
      return r.hour ?? 0;
    case 'number':
      return `${r.numberLabel || r.number || ''}\u0000${r.numberId ?? ''}`;
    case 'answered_by':
      return r.answeredBy === null ? '\uffff' : `${r.answeredByName ?? ''}\u0000${r.answeredBy}`;
    case 'tag':
      return r.tagId === null ? '\uffff' : `${r.tagName ?? ''}\u0000${r.tagId}`;
    case 'traffic_source':
      return r.trafficSource === '' ? '\uffff' : (r.trafficSource ?? '');
    case 'dni_pool':
      return r.dniPoolId === null ? '\uffff' : `${r.dniPoolName ?? ''}\u0000${r.dniPoolId}`;
    case 'geo':
      return r.geo === '' ? '\uffff' : (r.geo ?? '');
    default:
      return '';
  }
}

function compareRows(a: CallReportRow, b: CallReportRow, dims: readonly Dim[]): number {
  for (const d of dims) {
    const x = sortKey(a, d);
    const y = sortKey(b, d);
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

function rangeOut(r: Range) {
  return { from: r.from.toISOString(), to: r.to.toISOString(), fromDate: r.fromDate, toDate: r.toDate };
}

/** A KPI beside its comparison value: change in % (one decimal; null when the previous value is 0) and the arrow. */
export function kpi(value: number, previous: number): Kpi {
  const changePct = previous === 0 ? null : round1(((value - previous) / previous) * 100);
  return { value, previous, changePct, direction: value > previous ? 'up' : value < previous ? 'down' : 'flat' };
}

type KpiFigures = { m: CallMeasures; messages: number; faxes: number };

async function kpiFigures(ctx: AppContext, filter: FactFilter, range: Range, timeZone: string): Promise<KpiFigures> {
  const source = sourceFor(filter, [], range, timeZone, false);
  const [rows, counts, faxes] = await Promise.all([
    analyticsRepository.aggregate(ctx.db, { source, filter, timeZone, sets: [[]] }),
    countMessagesAndFaxes(ctx, { companyIds: filter.companyIds, from: range.from, to: range.to, numberIds: filter.numberIds }),
    countFaxes(ctx, { companyIds: filter.companyIds, from: range.from, to: range.to, numberIds: filter.numberIds }),
  ]);
  return { m: measuresOf(rows[0]), ...counts, faxes };
}

function kpisOf(cur: KpiFigures, prev: KpiFigures): KpiBody['data']['kpis'] {
  return {
    totalCalls: kpi(cur.m.calls, prev.m.calls),
    answered: kpi(cur.m.answered, prev.m.answered),
    missed: kpi(cur.m.missed, prev.m.missed),
    voicemails: kpi(cur.m.voicemails, prev.m.voicemails),
    firstTimeCallers: kpi(cur.m.firstTimeCallers, prev.m.firstTimeCallers),
    avgAnswerTimeS: kpi(cur.m.avgAnswerTimeS ?? 0, prev.m.avgAnswerTimeS ?? 0),
    avgDurationS: kpi(cur.m.avgDurationS ?? 0, prev.m.avgDurationS ?? 0),
    messages: kpi(cur.messages, prev.messages),
    faxes: kpi(cur.faxes, prev.faxes),
  };
}

/**
 * `GET /companies/{companyId}/calls/kpi` (spec 002): KPIs of `currentRange` beside `previousRange`
 * (or the comparison period's range when absent).
 * @throws ForbiddenError (403), ValidationError (422).
 */
export async function callKpis(ctx: AppContext, userId: number, companyId: number, q: KpiQuery): Promise<KpiBody> {
  const companyIds = await resolveScope(ctx, userId, companyId, q.filters);
  const timeZone = await resolveZone(ctx, companyId, q.tz ?? q.filters?.timezone, 'tz');
  const current = rangeOf(q.currentRange ?? q.filters?.dates, timeZone, 'currentRange');
  const previous = q.previousRange ? rangeOf(q.previousRange, timeZone, 'previousRange') : comparisonRange(current, q.comparison, timeZone);
  const key = JSON.stringify({ q, companyIds, timeZone, current, previous });
  return cached(ctx, companyIds, `kpi:${key}`, DASHBOARD_CACHE_MS, async () => {
    const [cur, prev] = await Promise.all([
      kpiFigures(ctx, factFilterOf(q.filters, companyIds, current), current, timeZone),
      kpiFigures(ctx, factFilterOf(q.filters, companyIds, previous), previous, timeZone),
    ]);
    return {
      data: { timezone: timeZone, comparison: q.comparison, currentRange: rangeOut(current), previousRange: rangeOut(previous), kpis: kpisOf(cur, prev) },
    };
  });
}

/** Series bucket dims: local day or local hour bucket. */
const SERIES_DIM = { day: 'day', hour: 'hour_bucket' } as const;

/**
 * `GET /dashboard` (spec 002: tz, groupBy, filters): KPIs with the comparison period, the time series
 * of both ranges, calls by source, by number and by hour of the week, missed calls by number. Two
 * aggregation statements (one per range, grouping sets) plus message counts; cached 15 s (spec 002 §9)
 * and dropped when the company's figures change.
 * @throws ForbiddenError (403), ValidationError (422).
 */
export async function dashboard(ctx: AppContext, userId: number, q: DashboardQuery): Promise<DashboardBody> {
  const companyIds = await resolveScope(ctx, userId, q.company_id, q.filters);
  const timeZone = await resolveZone(ctx, q.company_id, q.tz ?? q.filters?.timezone, 'tz');
  const current = rangeOf(q.filters?.dates, timeZone, 'filters.dates');
  const previous = comparisonRange(current, q.comparison, timeZone);
  const groupBy = q.groupBy ?? (current.to.getTime() - current.from.getTime() <= 2 * 86_400_000 + 3_600_000 ? 'hour' : 'day');
  if (groupBy === 'hour' && current.to.getTime() - current.from.getTime() > 62 * 86_400_000) {
    throw fieldError('groupBy', 'Group by hour is available for ranges of up to 62 days.');
  }
  const key = JSON.stringify({ q, companyIds, timeZone, current, previous, groupBy });
  return cached(ctx, companyIds, `dashboard:${key}`, DASHBOARD_CACHE_MS, async () => {
    const seriesDim = SERIES_DIM[groupBy];
    const curFilter = factFilterOf(q.filters, companyIds, current);
    const prevFilter = factFilterOf(q.filters, companyIds, previous);
    const curSets: Dim[][] = [[], [seriesDim], ['traffic_source'], ['number'], ['weekday', 'hour']];
    const dims: Dim[] = [seriesDim, 'traffic_source', 'number', 'weekday', 'hour'];
    const [cur, prev, curCounts, prevCounts, curMessages, prevMessages, curFaxes, prevFaxes] = await Promise.all([
      analyticsRepository.aggregate(ctx.db, { source: sourceFor(curFilter, dims, current, timeZone, false), filter: curFilter, timeZone, sets: curSets }),
      analyticsRepository.aggregate(ctx.db, {
        source: sourceFor(prevFilter, [seriesDim], previous, timeZone, false),
        filter: prevFilter,
        timeZone,
        sets: [[], [seriesDim]],
      }),
      countMessagesAndFaxes(ctx, { companyIds, from: current.from, to: current.to, numberIds: curFilter.numberIds }),
      countMessagesAndFaxes(ctx, { companyIds, from: previous.from, to: previous.to, numberIds: prevFilter.numberIds }),
      messageCountsByBucket(ctx, { companyIds, from: current.from, to: current.to, numberIds: curFilter.numberIds }, timeZone, groupBy),
      messageCountsByBucket(ctx, { companyIds, from: previous.from, to: previous.to, numberIds: prevFilter.numberIds }, timeZone, groupBy),
      countFaxes(ctx, { companyIds, from: current.from, to: current.to, numberIds: curFilter.numberIds }),
      countFaxes(ctx, { companyIds, from: previous.from, to: previous.to, numberIds: prevFilter.numberIds }),
    ]);
    // Faxes come from the fax module (docs/fax.md "Reports"), not from the thread items.
    const kpis = kpisOf(
      { m: measuresOf(cur.find((r) => r.set === 0)), ...curCounts, faxes: curFaxes },
      { m: measuresOf(prev.find((r) => r.set === 0)), ...prevCounts, faxes: prevFaxes },
    );
    const series = (rows: AggRow[], range: Range, messages: Map<string, number>) => {
      const byBucket = new Map(rows.filter((r) => r.set === 1).map((r) => [groupBy === 'day' ? r.day! : r.hour_bucket!, r]));
      return buckets(range, groupBy, timeZone).map(({ bucket, at }) => {
        const r = byBucket.get(bucket);
        return {
          bucket,
          at: at.toISOString(),
          calls: r?.calls ?? 0,
          answered: r?.answered ?? 0,
          missed: r?.missed ?? 0,
          voicemails: r?.voicemails ?? 0,
          firstTimeCallers: r?.first_time ?? 0,
          messages: messages.get(bucket) ?? 0,
        };
      });
    };
    const byNumberRows = cur.filter((r) => r.set === 3 && r.number !== null);
    const names = new Map<number, { number: string; label: string }>();
    for (const n of await activeNumbersOf(ctx, companyIds)) names.set(n.id, n);
    const missingNames = byNumberRows.map((r) => r.number!).filter((id) => !names.has(id));
    for (const [id, n] of await numberNames(ctx, companyIds, missingNames)) names.set(id, n);
    const numberOf = (id: number) => ({ numberId: id, number: names.get(id)?.number ?? '', label: names.get(id)?.label ?? '' });
    return {
      data: {
        timezone: timeZone,
        groupBy,
        comparison: q.comparison,
        currentRange: rangeOut(current),
        previousRange: rangeOut(previous),
        kpis,
        series: series(cur, current, curMessages),
        previousSeries: series(prev, previous, prevMessages),
        bySource: cur
          .filter((r) => r.set === 2)
          .map((r) => ({ source: r.traffic_source ?? '', calls: r.calls, answered: r.answered, missed: r.missed, firstTimeCallers: r.first_time }))
          .sort((a, b) => b.calls - a.calls || a.source.localeCompare(b.source)),
        byNumber: byNumberRows
          .map((r) => ({ ...numberOf(r.number!), calls: r.calls, answered: r.answered, missed: r.missed, voicemails: r.voicemails }))
          .sort((a, b) => b.calls - a.calls || a.numberId - b.numberId)
          .slice(0, 20),
        byHourOfWeek: cur
          .filter((r) => r.set === 4)
          .map((r) => ({ weekday: r.weekday ?? 0, hour: r.hour ?? 0, calls: r.calls }))
          .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour),
        missedByNumber: byNumberRows
          .map((r) => ({
            ...numberOf(r.number!),
            missed: r.missed + r.voicemails,
            calls: r.calls,
            missedPct: r.calls > 0 ? round1(((r.missed + r.voicemails) / r.calls) * 100) : null,
          }))
          .filter((r) => r.missed > 0)
          .sort((a, b) => b.missed - a.missed || a.numberId - b.numberId)
          .slice(0, 20),
      },
    };
  });
}
