/**
 * Display formatters built on the domain's formats (foundation §9: time "h:mm A", date "MMM D" or
 * "MMM D, YYYY"). Phone display uses the domain's formatPhone.
 */
import { formatDate, formatTime } from '@switchboard/domain';

/** "Mar 8, 9:05 AM" (date with year only when it differs from now). */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  const date = formatDate(value);
  return date ? `${date}, ${formatTime(value)}` : '';
}

/** Time today, date otherwise: the compact stamp of list rows. */
export function formatStamp(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return d.toDateString() === new Date().toDateString() ? formatTime(d) : formatDate(d);
}

/** Seconds as "m:ss" (call and voicemail durations). */
export function formatDuration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '';
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
