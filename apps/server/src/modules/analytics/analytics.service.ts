/**
 * The analytics module's published functions for other modules (docs/analytics.md): call counts and
 * the latest call per number for the alerts' monitors, and the activity feed's report filters. No
 * access check: callers have checked the tenant. The module's own use cases live in files named for
 * what they do:
 * - `analytics.facts.ts`: building the reporting store from domain events and the reconcile job;
 * - `analytics.reports.ts`: GET /analytics/calls, GET /dashboard, the KPIs;
 * - `analytics.exports.ts`: the exports and their job;
 * - `analytics.live.ts`: the answers cache and `analytics updated`;
 * - `analytics.time.ts`: local days, comparison periods and buckets.
 */
import { ANSWER_STATUS_NAMES, type CallReportFilters } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { activeNumbersOf } from '../numbers/numbers.reporting.js';
import { analyticsRepository } from './analytics.repository.js';
import { factFilterOf, rangeOf } from './analytics.reports.js';

/**
 * Calls of a company that started in [from, to) (UTC), optionally on one number: all of them,
 * answered, missed (nobody answered and no voicemail) and voicemails (spec 001 §3 "Call status by
 * number"). Reads the reporting store (facts are written within ~150 ms of a call's change).
 */
export async function countCalls(
  ctx: AppContext,
  q: { companyId: number; from: Date; to: Date; numberId?: number },
): Promise<{ total: number; answered: number; missed: number; voicemails: number }> {
  return analyticsRepository.countCalls(ctx.db, q);
}

/**
 * The start (UTC) of the latest call of every active number of the company; null for a number that
 * never had a call. Keys are number ids.
 */
export async function lastCallAtByNumber(ctx: AppContext, companyId: number): Promise<Map<number, Date | null>> {
  const numbers = (await activeNumbersOf(ctx, [companyId])).map((n) => n.id);
  const last = await analyticsRepository.lastCallAt(ctx.db, companyId, numbers);
  return new Map(numbers.map((id) => [id, last.get(id) ?? null]));
}

/** Whether any report filter that narrows calls is set (the activity feed then reads call ids from the store). */
export function hasCallReportFilters(f: Partial<CallReportFilters>): boolean {
  return (
    (f.number_ids?.length ?? 0) > 0 ||
    (f.tagIds?.length ?? 0) > 0 ||
    (f.answerStatus?.length ?? 0) > 0 ||
    f.minDuration !== undefined ||
    f.isFirstContact !== undefined ||
    (f.answered_by?.length ?? 0) > 0 ||
    (f.geo?.length ?? 0) > 0 ||
    (f.trafficSource?.length ?? 0) > 0 ||
    (f.outcomes?.length ?? 0) > 0 ||
    (f.departments?.length ?? 0) > 0 ||
    f.isQualified !== undefined ||
    f.isLead !== undefined ||
    (f.dniPools?.length ?? 0) > 0 ||
    (f.extensionLabels?.length ?? 0) > 0 ||
    f.dates !== undefined
  );
}

/**
 * Ids of the company's calls matching the report filters (newest first, at most `limit`) and their
 * count: the activity feed's report filters (spec 001 §7 "GET /activity"). `dniSessionId` narrows to
 * one tracked visit. Days of `dates` are local to `timeZone`; no dates: every call.
 * @throws ValidationError (422 on `filter.dates`).
 */
export async function callIdsMatching(
  ctx: AppContext,
  companyId: number,
  filters: Partial<CallReportFilters> & { dniSessionId?: string },
  timeZone: string,
  limit: number,
): Promise<{ ids: number[]; total: number }> {
  const range = filters.dates ? rangeOf(filters.dates, timeZone, 'filter.dates') : { from: new Date(0), to: new Date('9999-01-01T00:00:00Z') };
  const filter = { ...factFilterOf(filters as CallReportFilters, [companyId], range), dniSessionId: filters.dniSessionId };
  return analyticsRepository.matchingCallIds(ctx.db, filter, limit);
}

export { flushFactRebuilds, reconcileFacts, rebuildFacts } from './analytics.facts.js';
export { cached as cachedCompanyAnswer } from './analytics.live.js';
export { rangeOf as rangeOfDates } from './analytics.reports.js';

/** The reporting fields of calls for the activity feed: answer status name, first contact, last-touch traffic source ('' → null). */
export async function callFactSummaries(
  ctx: AppContext,
  callIds: readonly number[],
): Promise<Map<number, { answerStatus: (typeof ANSWER_STATUS_NAMES)[number]; isFirstContact: boolean; trafficSource: string | null }>> {
  const rows = await analyticsRepository.factsOf(ctx.db, [...new Set(callIds)]);
  return new Map(
    rows.map((r) => [
      Number(r.call_id),
      {
        answerStatus: ANSWER_STATUS_NAMES[r.answer_status] ?? 'none',
        isFirstContact: r.is_first_contact,
        trafficSource: r.traffic_source === '' ? null : r.traffic_source,
      },
    ]),
  );
}
