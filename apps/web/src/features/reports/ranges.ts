/**
 * Date ranges of the dashboard and the call reports (spec 002 "Dashboard", §9 "Comparison period
 * defaults to the same-length range before; options: month, 3 months, 6 months, year ago").
 *
 * A range is two calendar days `YYYY-MM-DD`, both included, in the company's time zone: the server
 * turns them into instants with the `tz` it is given (docs/reports-screens.md "Ranges"). Everything
 * here is pure date arithmetic on calendar days (no clock but the `now` passed in), so it holds across
 * daylight-saving changes.
 */
import type { ComparisonPeriod } from '@switchboard/contracts';
import { formatDay as formatSettingsDay, getDateDisplay } from '../../lib/dates';

/** Calendar days, both included, `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

export type RangePreset = 'today' | '7d' | '30d' | '90d' | 'month' | 'custom';
export type ComparisonOption = ComparisonPeriod;

export const RANGE_PRESETS: Array<{ value: RangePreset; label: string }> = [
  { value: 'today', label: 'Today' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
  { value: 'month', label: 'This month' },
  { value: 'custom', label: 'Custom' },
];

/** The comparison options in the spec's order; `previous` (the same-length range before) is the default. */
export const COMPARISON_OPTIONS: Array<{ value: ComparisonOption; label: string }> = [
  { value: 'previous', label: 'Previous period' },
  { value: 'month', label: 'Month ago' },
  { value: '3_months', label: '3 months ago' },
  { value: '6_months', label: '6 months ago' },
  { value: 'year', label: 'Year ago' },
];

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real calendar day `YYYY-MM-DD` (2026-02-30 is not). */
export function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DAY.test(value)) return false;
  return toDayString(parseDay(value)) === value;
}

/** Midnight UTC of a calendar day (a day number carrier; never shown). */
function parseDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!));
}

function toDayString(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `day` plus `n` calendar days (negative goes back). */
export function addDays(day: string, n: number): string {
  return toDayString(new Date(parseDay(day).getTime() + n * DAY_MS));
}

/** `day` minus `months` calendar months, the day of month clamped to the target month (Mar 31 − 1 month = Feb 28). */
export function subtractMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const index = y! * 12 + (m! - 1) - months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return toDayString(new Date(Date.UTC(year, month, Math.min(d!, last))));
}

/** Number of days of a range, both ends included. */
export function rangeLength(range: DayRange): number {
  return Math.round((parseDay(range.to).getTime() - parseDay(range.from).getTime()) / DAY_MS) + 1;
}

/** Today's calendar day in `timeZone` (an IANA name) at instant `now`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The range of a preset ending today in the company's zone: today; the last 7, 30 or 90 days
 * (today included); this month (the 1st to today). `custom` keeps `custom` (or today when absent).
 */
export function presetRange(preset: RangePreset, today: string, custom?: DayRange | null): DayRange {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case '90d':
      return { from: addDays(today, -89), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'custom':
      return custom ?? { from: today, to: today };
  }
}

/**
 * The comparison period of `current`: `previous` = the same number of days just before it; the
 * others shift both ends back by 1, 3, 6 or 12 months (ends clamped to the month's last day).
 */
export function comparisonRange(current: DayRange, option: ComparisonOption): DayRange {
  if (option === 'previous') {
    const length = rangeLength(current);
    return { from: addDays(current.from, -length), to: addDays(current.from, -1) };
  }
  const months = { month: 1, '3_months': 3, '6_months': 6, year: 12 }[option];
  return { from: subtractMonths(current.from, months), to: subtractMonths(current.to, months) };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar day as the spec's date format: "MMM D", or "MMM D, YYYY" when not in `currentYear`; with a numeric
 * date format chosen in General settings, that format ("23/11/2026"; lib/dates.ts).
 */
export function formatDay(day: string, currentYear?: number): string {
  if (getDateDisplay().dateFormat !== 'MMM D, YYYY') return formatSettingsDay(day);
  const [y, m, d] = day.split('-').map(Number);
  const base = `${MONTHS[m! - 1]} ${d}`;
  return currentYear !== undefined && y === currentYear ? base : `${base}, ${y}`;
}

/** "Nov 1 – Nov 23, 2026" or "Nov 23, 2026" for one day. */
export function formatRange(range: DayRange): string {
  if (range.from === range.to) return formatDay(range.from);
  const sameYear = range.from.slice(0, 4) === range.to.slice(0, 4);
  return `${sameYear ? formatDay(range.from, Number(range.from.slice(0, 4))) : formatDay(range.from)} – ${formatDay(range.to)}`;
}

/**
 * Change from `previous` to `current` in percent, rounded to one decimal; null when there is
 * nothing to compare with (previous 0 or unknown): "new" rather than an infinite rise.
 */
export function changePercent(current: number | null | undefined, previous: number | null | undefined): number | null {
  if (current === null || current === undefined || previous === null || previous === undefined || previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}
