/**
 * DNI reports (spec 002 "DNI": `POST /dni/reports/calls`, `GET /dni/reports`; docs/tracking.md
 * "Reports", "Pool health"). Any active member of the company reads them.
 *
 * - Calls report: the period's calls (attributed inbound calls) and sessions grouped by a marketing
 *   dimension under the first-touch or last-touch model (spec 001 `attributionModel`); calls per
 *   session is the conversion rate. Answered = statuses Received, Answered Already, Connected;
 *   missed = Voicemail, No Answer, Rejected, Missed.
 * - Pool report: per pool, utilisation over time (buckets of an hour up to 3 days, else a day, in
 *   `tz`), exhaustion episodes, fallback sessions, the peak of concurrent sessions and the pool size
 *   that traffic needs (`recommendedPoolSize`).
 */
import { TRAFFIC_SOURCE_LABELS, type DniCallsReportBody, type DniCallsReportInput, type DniPoolReport, type TrafficSource } from '@switchboard/contracts';
import { CALL_STATUS, isValidTimeZone, zonedToInstant } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { fieldError } from '../../platform/http/errors.js';
import { assertCompanyAccess } from '../companies/companies.service.js';
import { recommendedPoolSize } from './classify.js';
import { trackingRepository } from './tracking.repository.js';

const DAY_MS = 86_400_000;
const ANSWERED = [CALL_STATUS.RECEIVED, CALL_STATUS.ANSWERED_ALREADY, CALL_STATUS.CONNECTED];
const MISSED = [CALL_STATUS.VOICEMAIL, CALL_STATUS.NO_ANSWER, CALL_STATUS.NO_ANSWER_8, CALL_STATUS.REJECTED, CALL_STATUS.MISSED];

/** A zone name safe to write into SQL text (a valid IANA zone made of these characters only). */
function checkedZone(tz: string, field = 'tz'): string {
  if (!isValidTimeZone(tz) || !/^[A-Za-z0-9_+\-/]+$/.test(tz)) throw fieldError(field, 'The time zone is not valid.');
  return tz;
}

/**
 * An instant from a date or timestamp text: with a zone (Z, ±hh:mm) as written; without, as local
 * time in `tz`. A date alone is its local midnight; `endOfDay` makes it the next local midnight
 * (an inclusive end date).
 */
export function instantOf(text: string, tz: string, endOfDay = false): Date {
  if (/(Z|[+-]\d\d(:?\d\d)?)$/.test(text) && text.length > 10) return new Date(text);
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d))?)?/.exec(text)!;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (m[4] === undefined) return new Date(zonedToInstant(y, mo, d + (endOfDay ? 1 : 0), 0, tz));
  return new Date(zonedToInstant(y, mo, d, Number(m[4]) * 60 + Number(m[5]), tz) + Number(m[6] ?? 0) * 1000);
}

/** SQL of a grouping key over calls (`a`) or sessions (`s`) under the model. */
function keyExpr(group: DniCallsReportInput['group_by'], model: DniCallsReportInput['attribution_model'], alias: 'a' | 's', tz: string): string {
  const touch = (field: string) => (model === 'first_touch' ? `${alias}.first_touch->>'${field}'` : `${alias}.${field}`);
  switch (group) {
    case 'traffic_source':
      return touch('traffic_source');
    case 'source':
    case 'medium':
    case 'campaign':
    case 'keyword':
      return touch(group);
    case 'landing_page':
      return `${alias}.landing_page`;
    case 'pool':
      return `${alias}.pool_id::text`;
    default:
      return `to_char(${alias}.started_at at time zone '${tz}', 'YYYY-MM-DD')`;
  }
}

/**
 * `POST /dni/reports/calls` (any member of `company_id`). Rows sorted by calls, then sessions.
 * @throws ValidationError 422 `tz`, `to` (before `from`).
 */
export async function callsReport(ctx: AppContext, userId: number, input: DniCallsReportInput): Promise<DniCallsReportBody> {
  await assertCompanyAccess(ctx, userId, input.company_id);
  const tz = checkedZone(input.tz);
  const from = instantOf(input.from, tz);
  const to = instantOf(input.to, tz, true);
  if (to <= from) throw fieldError('to', 'The end must be after the start.');
  const trafficCalls = input.attribution_model === 'first_touch' ? "a.first_touch->>'traffic_source'" : 'a.traffic_source';
  const trafficSessions = input.attribution_model === 'first_touch' ? "s.first_touch->>'traffic_source'" : 's.traffic_source';
  const [calls, sessions] = await Promise.all([
    trackingRepository.callGroups(
      ctx.db,
      input.company_id,
      from,
      to,
      keyExpr(input.group_by, input.attribution_model, 'a', tz),
      { poolIds: input.pool_ids, trafficSources: input.traffic_sources, trafficExpr: trafficCalls },
      ANSWERED,
      MISSED,
    ),
    trackingRepository.sessionCounts(ctx.db, input.company_id, from, to, keyExpr(input.group_by, input.attribution_model, 's', tz), {
      poolIds: input.pool_ids,
      trafficSources: input.traffic_sources,
      trafficExpr: trafficSessions,
    }),
  ]);
  const poolNames =
    input.group_by === 'pool'
      ? new Map(
          (
            await trackingRepository.poolNames(
              ctx.db,
              input.company_id,
              [...calls.map((c) => c.key), ...sessions.keys()].filter((k): k is string => k !== null).map(Number),
            )
          ).map((p) => [String(p.id), p.name]),
        )
      : new Map<string, string>();
  const label = (key: string | null): string => {
    if (key === null) return input.group_by === 'pool' ? 'No pool' : input.group_by === 'traffic_source' ? 'Untracked' : '(none)';
    if (input.group_by === 'traffic_source') return TRAFFIC_SOURCE_LABELS[key as TrafficSource] ?? key;
    if (input.group_by === 'pool') return poolNames.get(key) ?? `Deleted pool ${key}`;
    return key;
  };
  const keys = new Set<string | null>([...calls.map((c) => c.key), ...sessions.keys()]);
  const rows = [...keys].map((key) => {
    const c = calls.find((x) => x.key === key);
    const n = sessions.get(key) ?? 0;
    const callCount = c?.calls ?? 0;
    return {
      key: key ?? '',
      label: label(key),
      sessions: n,
      calls: callCount,
      first_time_callers: c?.first_time_callers ?? 0,
      answered: c?.answered ?? 0,
      missed: c?.missed ?? 0,
      avg_duration_s: c?.avg_duration_s === null || c?.avg_duration_s === undefined ? null : Math.round(c.avg_duration_s * 10) / 10,
      conversion_rate: n ? Math.round((callCount / n) * 10000) / 10000 : null,
    };
  });
  rows.sort((x, y) => y.calls - x.calls || y.sessions - x.sessions || x.label.localeCompare(y.label));
  const sum = (k: 'sessions' | 'calls' | 'first_time_callers' | 'answered' | 'missed') => rows.reduce((t, r) => t + r[k], 0);
  const answeredSeconds = calls.reduce((t, c) => t + (c.avg_duration_s ?? 0) * c.answered, 0);
  const totalSessions = sum('sessions');
  return {
    group_by: input.group_by,
    attribution_model: input.attribution_model,
    data: rows,
    totals: {
      sessions: totalSessions,
      calls: sum('calls'),
      first_time_callers: sum('first_time_callers'),
      answered: sum('answered'),
      missed: sum('missed'),
      avg_duration_s: sum('answered') ? Math.round((answeredSeconds / sum('answered')) * 10) / 10 : null,
      conversion_rate: totalSessions ? Math.round((sum('calls') / totalSessions) * 10000) / 10000 : null,
    },
  };
}

/**
 * `GET /dni/reports?company_id=` (any member): pool health over `from`..`to` (default the last 7
 * days), one pool with `pool_id`. @throws ValidationError 422 `tz`, `to`.
 */
export async function poolReport(
  ctx: AppContext,
  userId: number,
  q: { company_id: number; from?: string; to?: string; tz: string; pool_id?: number },
): Promise<{ from: string; to: string; data: DniPoolReport[] }> {
  await assertCompanyAccess(ctx, userId, q.company_id);
  const tz = checkedZone(q.tz);
  const to = q.to ? instantOf(q.to, tz, true) : new Date();
  const from = q.from ? instantOf(q.from, tz) : new Date(to.getTime() - 7 * DAY_MS);
  if (to <= from) throw fieldError('to', 'The end must be after the start.');
  if (to.getTime() - from.getTime() > 400 * DAY_MS) throw fieldError('from', 'The period can be at most 400 days.');
  const pools = (await trackingRepository.listPools(ctx.db, q.company_id)).filter((p) => q.pool_id === undefined || p.id === q.pool_id);
  const ids = pools.map((p) => p.id);
  const bucket = to.getTime() - from.getTime() <= 3 * DAY_MS ? 'hour' : 'day';
  const [numbers, exhaustion, peaks, sessions, calls] = await Promise.all([
    trackingRepository.poolNumbers(ctx.db, ids),
    trackingRepository.exhaustionStats(ctx.db, ids, from, to),
    trackingRepository.peakConcurrent(ctx.db, ids, from, to),
    trackingRepository.sessionsPerPool(ctx.db, ids, from, to),
    trackingRepository.callsPerPool(ctx.db, ids, from, to),
  ]);
  const data: DniPoolReport[] = [];
  for (const p of pools) {
    const ex = exhaustion.find((e) => e.pool_id === p.id);
    const peak = peaks.get(p.id) ?? 0;
    data.push({
      pool_id: p.id,
      pool_name: p.name,
      size: numbers.filter((n) => n.pool_id === p.id).length,
      sessions: sessions.get(p.id) ?? 0,
      calls: calls.get(p.id) ?? 0,
      peak_concurrent: peak,
      exhaustion_count: Number(ex?.episodes ?? 0),
      fallback_sessions: Number(ex?.fallback_sessions ?? 0),
      recommended_size: recommendedPoolSize(peak, p.session_duration_minutes, p.cool_down_minutes),
      bucket,
      utilisation: (await trackingRepository.utilisation(ctx.db, p.id, from, to, bucket, tz)).map((u) => ({
        at: u.at.toISOString(),
        peak_in_use: u.peak_in_use,
        sessions: u.sessions,
        fallback_sessions: u.fallback_sessions,
      })),
    });
  }
  return { from: from.toISOString(), to: to.toISOString(), data };
}
