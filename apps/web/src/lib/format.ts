/**
 * Display formatters. Dates and times come from lib/dates.ts (the company's zone and General settings, the
 * specification's "MMM D" and "h:mm A" by default); re-exported here for the screens that import them from this file.
 * Phone display uses the domain's formatPhone.
 */
export { formatDate, formatDateTime, formatStamp, formatTime } from './dates';

/** Seconds as "m:ss" (call and voicemail durations). */
export function formatDuration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '';
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
