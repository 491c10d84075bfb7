/**
 * Display labels of the report enumerations (spec 001 §7 groupings, spec 002 §3 department types and
 * call outcomes, answer statuses). The API values are the spec's; these are the words people read.
 */
import type { AnswerStatusName, AttributionModel, CallOutcome, CallReportGroup, CallReportTarget, DepartmentType } from '@switchboard/contracts';

export const GROUP_LABELS: Record<CallReportGroup, string> = {
  number_day: 'Number by day',
  answered_by_day: 'Answered by, by day',
  number: 'Number',
  tag_day: 'Tag by day',
  day_hour: 'Day and hour',
  hour_day: 'Hour of day',
  traffic_source_day: 'Traffic source by day',
  dni_pool_day: 'Tracking pool by day',
  geo: 'Caller location',
};

export const TARGET_LABELS: Record<CallReportTarget, string> = {
  calls: 'Calls',
  answered: 'Answered calls',
  missed: 'Missed calls',
  voicemails: 'Voicemails',
  unique_callers: 'Unique callers',
  first_time_callers: 'First-time callers',
  duration: 'Talk time',
};

export const ANSWER_STATUS_LABELS: Record<AnswerStatusName, string> = {
  none: 'No status',
  answered: 'Answered',
  missed: 'Missed',
  voicemail: 'Voicemail',
  blocked: 'Blocked',
};

export const OUTCOME_LABELS: Record<CallOutcome, string> = {
  appt_booked: 'Appointment booked',
  vehicle_ordered: 'Vehicle ordered',
  parts_ordered: 'Parts ordered',
  get_back_commitment: 'Get-back commitment',
  not_opportunity: 'Not an opportunity',
  opportunity: 'Opportunity',
  unknown: 'Unknown',
};

export const DEPARTMENT_LABELS: Record<DepartmentType, string> = {
  sales: 'Sales',
  service: 'Service',
  parts: 'Parts',
  trade: 'Trade',
  credit: 'Credit',
  body_shop: 'Body shop',
  admin: 'Admin',
  accessories: 'Accessories',
  hr: 'HR',
  custom_shop: 'Custom shop',
  rentals: 'Rentals',
  unknown: 'Unknown',
  quick_lube: 'Quick lube',
};

export const ATTRIBUTION_LABELS: Record<AttributionModel, string> = {
  last_touch: 'Last touch',
  first_touch: 'First touch',
};

/** Seconds as "1h 02m", "4m 05s" or "35s" (talk time, averages). */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
