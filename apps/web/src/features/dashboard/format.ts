/** Figures of the dashboard as people read them: counts with separators, seconds as "1m 05s". */
import { formatDay, getDateDisplay } from '../../lib/dates';

/** 1234 → "1,234". */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Seconds as "35s", "4m 05s" or "1h 02m"; "—" when there is no value. */
export function formatSecondsShort(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** "12am" … "11pm"; "00:00" … "23:00" with the 24-hour clock of General settings. */
export function formatHour(hour: number): string {
  if (getDateDisplay().timeFormat === '24h') return `${String(hour).padStart(2, '0')}:00`;
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}${hour < 12 ? 'am' : 'pm'}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A series bucket (`YYYY-MM-DD` or `YYYY-MM-DD HH:00`) as "Nov 3" or "Nov 3 2pm". */
export function formatBucket(bucket: string): string {
  const [day, time] = bucket.split(' ');
  const [, m, d] = (day ?? '').split('-').map(Number);
  const date = getDateDisplay().dateFormat === 'MMM D, YYYY' ? `${MONTHS[(m ?? 1) - 1]} ${d}` : formatDay(day ?? '');
  return time ? `${date} ${formatHour(Number(time.slice(0, 2)))}` : date;
}
