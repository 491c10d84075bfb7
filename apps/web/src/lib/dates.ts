/**
 * The web's one formatter of dates and times (docs/workspace.md "Dates and times"): every instant is read in the
 * selected company's time zone (its settings, GET /api/companies) and shown in the company's General settings
 * (date format, 12- or 24-hour clock; GET /api/general-settings), the specification's `MMM D` / `MMM D, YYYY` and
 * `h:mm A` being the defaults (spec 000 §9). The rules themselves are `@switchboard/domain` date-display, shared
 * with the server's printed documents.
 *
 * The settings live in a small external store filled by `useDateDisplaySync()` (called once by the signed-in
 * shell, which re-renders the page when they change), so plain functions can format without a hook:
 *
 *   formatDateTime(call.started_at)   // "Nov 28, 9:29 PM", or "28/11/2026 21:29" with DD/MM/YYYY and 24-hour
 */
import type { CompanyList, GeneralSettingsBody, Infer } from '@switchboard/contracts';
import {
  CACHE_MS,
  DEFAULT_DATE_DISPLAY,
  displayCalendarDay,
  displayDate,
  displayDateTime,
  displayStamp,
  displayTime,
  localTimeZone,
  resolveTimeZone,
  zonedDateTime,
  type DateDisplay,
} from '@switchboard/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { http } from './http';
import { useCompanyId } from './session';

type Instant = string | number | Date | null | undefined;

// Until the company is known: the specification's formats in the browser's zone.
let display: DateDisplay = { ...DEFAULT_DATE_DISPLAY, timeZone: localTimeZone() };
const listeners = new Set<() => void>();

/** The display in force (non-reactive; for plain functions). */
export function getDateDisplay(): DateDisplay {
  return display;
}

/** Replaces the display in force (the sync hook; tests). Listeners run only when something changed. */
export function setDateDisplay(next: DateDisplay): void {
  if (next.timeZone === display.timeZone && next.dateFormat === display.dateFormat && next.timeFormat === display.timeFormat) return;
  display = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** React: the display in force; the component re-renders when the company or its settings change. */
export function useDateDisplay(): DateDisplay {
  return useSyncExternalStore(subscribe, getDateDisplay, getDateDisplay);
}

/**
 * The selected company's IANA zone (the company switcher's cached list, one request for both), the browser's
 * until the list is known; `ready` once it is. Reports, filters and exports use it for "today" and local days.
 */
export function useCompanyTimeZone(): { timezone: string; ready: boolean } {
  const companyId = useCompanyId();
  const companies = useQuery({ queryKey: ['companies'], queryFn: () => http.get<CompanyList>('/api/companies'), staleTime: CACHE_MS.company });
  const zone = companies.data?.data.find((c) => c.id === companyId)?.timezone;
  return { timezone: zone ? resolveTimeZone(zone) : localTimeZone(), ready: Boolean(zone) };
}

/**
 * Keeps the store on the selected company: its zone and its General settings (the General settings screen's own
 * query key, so saving there refreshes every screen at once). Called once, by the signed-in shell; returns the
 * display so the shell re-renders its page when it changes.
 */
export function useDateDisplaySync(): DateDisplay {
  const companyId = useCompanyId();
  const { timezone } = useCompanyTimeZone();
  const settings = useQuery({
    queryKey: ['general-settings', 'company', companyId],
    // Silent: a refusal here must not toast on every screen; the formats then stay the defaults.
    queryFn: () => http.get<Infer<typeof GeneralSettingsBody>>('/api/general-settings', { params: { companyId }, silent: true }),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
  const s = settings.data?.data.settings;
  const dateFormat = s?.date_format ?? DEFAULT_DATE_DISPLAY.dateFormat;
  const timeFormat = s?.time_format ?? DEFAULT_DATE_DISPLAY.timeFormat;
  useEffect(() => setDateDisplay({ timeZone: timezone, dateFormat, timeFormat }), [timezone, dateFormat, timeFormat]);
  return useDateDisplay();
}

/** "Nov 28" / "Nov 28, 2025" / "28/11/2026": the date of an instant in the company's zone; "" for none. */
export function formatDate(value: Instant, options: { timeZone?: string } = {}): string {
  return displayDate(value, options.timeZone ? { ...display, timeZone: options.timeZone } : display);
}

/** "9:29 PM" / "21:29": the time of an instant in the company's zone; "" for none. */
export function formatTime(value: Instant): string {
  return displayTime(value, display);
}

/** "Nov 28, 9:29 PM" / "28/11/2026 21:29": date and time in the company's zone; "" for none. */
export function formatDateTime(value: Instant): string {
  return displayDateTime(value, display);
}

/** The compact stamp of list rows: the time when the instant is today in the company's zone, else the date. */
export function formatStamp(value: Instant): string {
  return displayStamp(value, display);
}

/**
 * A calendar day given as "YYYY-MM-DD" (a holiday, a billing period's day: no time, no zone) in the company's date
 * format; the text itself when it is no such day.
 */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return day;
  const currentYear = zonedDateTime(new Date(), resolveTimeZone(display.timeZone)).year;
  return displayCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]), display.dateFormat, currentYear);
}
