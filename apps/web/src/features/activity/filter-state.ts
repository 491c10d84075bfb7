/**
 * The activity filter as URL search params (docs/reports-screens.md "Activity"): a link such as
 * `/activity?dniSessionId=abc` (from the tracking screens) or `/activity?answerStatus=missed&from=…`
 * opens the feed filtered. Type flags are written only when they differ from the spec's defaults
 * (calls, voicemails, messages, faxes on; notes off; call-tracking matches on).
 */
import { ANSWER_STATUS_NAMES, type AnswerStatusName } from '@switchboard/contracts';
import type { ActivityFilter, ActivityFilterBody, ActivityTypeFlags } from './types';

export const DEFAULT_FLAGS: ActivityTypeFlags = { calls: true, voicemails: true, messages: true, faxes: true, notes: false, trackingmatch: true };
const FLAG_KEYS = Object.keys(DEFAULT_FLAGS) as Array<keyof ActivityTypeFlags>;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const list = (v: string | null) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

export function readActivityFilter(params: URLSearchParams): ActivityFilter {
  const flags = { ...DEFAULT_FLAGS };
  for (const key of FLAG_KEYS) {
    const v = params.get(key);
    if (v === '1' || v === '0') flags[key] = v === '1';
  }
  const from = params.get('from');
  const to = params.get('to');
  const first = params.get('isFirstContact');
  const min = Number(params.get('minDuration'));
  return {
    ...flags,
    dniSessionId: params.get('dniSessionId')?.trim().slice(0, 100) || null,
    report: {
      from: from && DAY.test(from) ? from : null,
      to: to && DAY.test(to) ? to : null,
      number_ids: list(params.get('number_ids'))
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0),
      answerStatus: list(params.get('answerStatus')).filter((s): s is AnswerStatusName => (ANSWER_STATUS_NAMES as readonly string[]).includes(s)),
      isFirstContact: first === '1' ? true : first === '0' ? false : null,
      trafficSource: list(params.get('trafficSource')),
      minDuration: params.get('minDuration') && Number.isInteger(min) && min >= 0 ? min : null,
    },
  };
}

/** URL params of a filter (defaults left out). `page` and `per_page` are the caller's. */
export function activityParams(f: ActivityFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of FLAG_KEYS) if (f[key] !== DEFAULT_FLAGS[key]) out[key] = f[key] ? '1' : '0';
  if (f.dniSessionId) out.dniSessionId = f.dniSessionId;
  const r = f.report;
  if (r.from) out.from = r.from;
  if (r.to) out.to = r.to;
  if (r.number_ids.length) out.number_ids = r.number_ids.join(',');
  if (r.answerStatus.length) out.answerStatus = r.answerStatus.join(',');
  if (r.isFirstContact !== null) out.isFirstContact = r.isFirstContact ? '1' : '0';
  if (r.trafficSource.length) out.trafficSource = r.trafficSource.join(',');
  if (r.minDuration !== null) out.minDuration = String(r.minDuration);
  return out;
}

/** How many report filters are set (type flags and the visit aside). */
export function reportFilterCount(f: ActivityFilter): number {
  const r = f.report;
  return [r.from || r.to, r.number_ids.length, r.answerStatus.length, r.isFirstContact !== null, r.trafficSource.length, r.minDuration !== null].filter(Boolean)
    .length;
}

/**
 * The `filter` object of GET /api/activity: the type flags, the visit and the report filters (dates as
 * local days of `timezone`; an open end is left to the server: from = 30 days before, to = today).
 */
export function toActivityFilterBody(f: ActivityFilter, timezone: string): ActivityFilterBody {
  const r = f.report;
  const body: ActivityFilterBody = {
    calls: f.calls,
    voicemails: f.voicemails,
    messages: f.messages,
    faxes: f.faxes,
    notes: f.notes,
    trackingmatch: f.trackingmatch,
  };
  if (f.dniSessionId) body.dniSessionId = f.dniSessionId;
  if (r.from || r.to) body.dates = { from: r.from ?? undefined, to: r.to ?? undefined };
  if (r.from || r.to) body.timezone = timezone;
  if (r.number_ids.length) body.number_ids = r.number_ids;
  if (r.answerStatus.length) body.answerStatus = r.answerStatus;
  if (r.isFirstContact !== null) body.isFirstContact = r.isFirstContact;
  if (r.trafficSource.length) body.trafficSource = r.trafficSource;
  if (r.minDuration !== null) body.minDuration = r.minDuration;
  return body;
}
