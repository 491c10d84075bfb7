/**
 * Dates and times as people read them, in a company's time zone and display settings (spec 000 §9 "Time
 * format h:mm A", "Date format MMM D, or MMM D, YYYY when the year differs"; spec 002 "General settings";
 * docs/workspace.md "Dates and times"). The one formatter of the web (apps/web/src/lib/dates.ts) and of the
 * server's printed documents (fax cover page), so a time reads the same on every screen and paper.
 *
 *   displayDateTime('2026-11-28T21:29:00Z', { timeZone: 'America/New_York', dateFormat: 'DD/MM/YYYY', timeFormat: '24h' })
 *   // → "28/11/2026 16:29"
 */
import { DEFAULT_TIME_ZONE, resolveTimeZone, zonedDateTime } from './timezone.js';

/** Date display choices of General settings; `MMM D, YYYY` is the specification's own (the year only when it differs). */
export const DATE_DISPLAY_FORMATS = ['MMM D, YYYY', 'MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD'] as const;
/** A date display choice. */
export type DateDisplayFormat = (typeof DATE_DISPLAY_FORMATS)[number];
/** Clock display choices of General settings: `12h` is the specification's "h:mm A", `24h` is "HH:mm". */
export const TIME_DISPLAY_FORMATS = ['12h', '24h'] as const;
/** A clock display choice. */
export type TimeDisplayFormat = (typeof TIME_DISPLAY_FORMATS)[number];

/** How to show instants: the zone whose wall clock is read, and the company's date and clock formats. */
export interface DateDisplay {
  /** IANA zone (the company's); an unknown name reads as UTC. */
  timeZone: string;
  dateFormat: DateDisplayFormat;
  timeFormat: TimeDisplayFormat;
}

/** The specification's formats, in UTC (until a company's zone is known). */
export const DEFAULT_DATE_DISPLAY: DateDisplay = { timeZone: DEFAULT_TIME_ZONE, dateFormat: 'MMM D, YYYY', timeFormat: '12h' };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

function instantOf(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A calendar day in a date format: `MMM D, YYYY` gives "Nov 28" ("Nov 28, 2025" when `year` differs from
 * `currentYear`), the numeric formats always carry the year ("11/28/2026", "28/11/2026", "2026-11-28").
 *
 * @param year four digits; @param month 1 to 12; @param day 1 to 31
 * @param currentYear the year of "now" in the same zone (only `MMM D, YYYY` uses it)
 */
export function displayCalendarDay(year: number, month: number, day: number, dateFormat: DateDisplayFormat, currentYear: number): string {
  switch (dateFormat) {
    case 'MM/DD/YYYY':
      return `${pad(month)}/${pad(day)}/${year}`;
    case 'DD/MM/YYYY':
      return `${pad(day)}/${pad(month)}/${year}`;
    case 'YYYY-MM-DD':
      return `${year}-${pad(month)}-${pad(day)}`;
    default: {
      const text = `${MONTHS[month - 1]} ${day}`;
      return year === currentYear ? text : `${text}, ${year}`;
    }
  }
}

/** A wall-clock time "h:mm A" (`12h`: "9:05 PM", "12:00 AM") or "HH:mm" (`24h`: "21:05", "00:00"). */
export function displayClock(hour: number, minute: number, timeFormat: TimeDisplayFormat): string {
  if (timeFormat === '24h') return `${pad(hour)}:${pad(minute)}`;
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${hour12}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * The date of an instant in `display.timeZone`, e.g. "Nov 28", "Nov 28, 2025", "28/11/2026".
 *
 * @param value a Date, ISO text or epoch milliseconds; null, undefined, "" or an invalid date give ""
 * @param now the reference for "the year differs" (default: the current time), read in the same zone
 */
export function displayDate(value: Date | string | number | null | undefined, display: DateDisplay, now: Date = new Date()): string {
  const instant = instantOf(value);
  if (!instant) return '';
  const zone = resolveTimeZone(display.timeZone);
  const z = zonedDateTime(instant, zone);
  return displayCalendarDay(z.year, z.month, z.day, display.dateFormat, zonedDateTime(now, zone).year);
}

/** The time of day of an instant in `display.timeZone`, e.g. "9:29 PM" or "21:29"; "" for no or an invalid date. */
export function displayTime(value: Date | string | number | null | undefined, display: DateDisplay): string {
  const instant = instantOf(value);
  if (!instant) return '';
  const z = zonedDateTime(instant, resolveTimeZone(display.timeZone));
  return displayClock(z.hour, z.minute, display.timeFormat);
}

/**
 * Date and time of an instant in `display.timeZone`: "Nov 28, 9:29 PM" with the specification's formats (a comma
 * after the month-name date), "28/11/2026 21:29" with a numeric date format; "" for no or an invalid date.
 */
export function displayDateTime(value: Date | string | number | null | undefined, display: DateDisplay, now: Date = new Date()): string {
  const date = displayDate(value, display, now);
  if (!date) return '';
  const separator = display.dateFormat === 'MMM D, YYYY' ? ', ' : ' ';
  return `${date}${separator}${displayTime(value, display)}`;
}

/**
 * The compact stamp of list rows: the time when the instant falls on today's date in the zone, the date otherwise.
 */
export function displayStamp(value: Date | string | number | null | undefined, display: DateDisplay, now: Date = new Date()): string {
  const instant = instantOf(value);
  if (!instant) return '';
  const zone = resolveTimeZone(display.timeZone);
  return zonedDateTime(instant, zone).date === zonedDateTime(now, zone).date ? displayTime(instant, display) : displayDate(instant, display, now);
}
