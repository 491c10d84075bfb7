/**
 * Time ranges of reports (docs/analytics.md "Time zones" and "Comparison periods"): local days of an
 * IANA zone turned into UTC instants (right across daylight-saving changes), the default range, the
 * comparison period (spec 002 §9: the same-length range before by default; month, 3 months, 6 months,
 * year ago), and the series buckets. Pure functions (no I/O).
 */
import type { ComparisonPeriod, DateRangeInput } from '@switchboard/contracts';
import { zonedDateTime } from '@switchboard/domain';

/** A range: UTC instants [from, to) and the local days it covers (`toDate` inclusive); `dayAligned` when both ends are local midnights. */
export type Range = { from: Date; to: Date; fromDate: string; toDate: string; dayAligned: boolean };

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const MS_HOUR = 3_600_000;

/** Offset of `timeZone` from UTC at `instant`, milliseconds (wall clock − UTC). */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  const z = zonedDateTime(instant, timeZone);
  const wall = Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute, z.second);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The UTC instant of local midnight starting `date` (`YYYY-MM-DD`) in `timeZone` (a day starting in a DST gap starts at the first valid instant). */
export function localDayStart(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const off1 = zoneOffsetMs(new Date(guess), timeZone);
  let t = guess - off1;
  const off2 = zoneOffsetMs(new Date(t), timeZone);
  if (off2 !== off1) {
    const t2 = guess - off2;
    if (zoneOffsetMs(new Date(t2), timeZone) === off2) t = t2;
  }
  return new Date(t);
}

/** `date` plus `days` calendar days (negative allowed), as `YYYY-MM-DD`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** `date` minus `months` calendar months, the day clamped to the month's length (Mar 31 − 1 month = Feb 28/29). */
export function subtractMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

/** Number of calendar days from `a` to `b` (`YYYY-MM-DD`), b − a. */
export function daysBetween(a: string, b: string): number {
  const [ya, ma, da] = a.split('-').map(Number) as [number, number, number];
  const [yb, mb, db] = b.split('-').map(Number) as [number, number, number];
  return Math.round((Date.UTC(yb, mb - 1, db) - Date.UTC(ya, ma - 1, da)) / 86_400_000);
}

/** The local date of an instant. */
export function localDate(instant: Date, timeZone: string): string {
  return zonedDateTime(instant, timeZone).date;
}

/** A range of whole local days [fromDate, toDate] (inclusive). */
export function dayRange(fromDate: string, toDate: string, timeZone: string): Range {
  return { from: localDayStart(fromDate, timeZone), to: localDayStart(addDays(toDate, 1), timeZone), fromDate, toDate, dayAligned: true };
}

/** Thrown for a range that ends before it starts or spans more than `maxDays`. */
export class RangeInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Resolves a `DateRange` input in `timeZone`: days are local midnights (`to` inclusive), timestamps
 * are instants (`to` exclusive). Missing `to`: today; missing `from`: `defaultDays` days ending at `to`.
 * @throws RangeInputError when `to` is before `from` or the range is longer than `maxDays`.
 */
export function resolveRange(input: DateRangeInput | undefined, timeZone: string, now: Date, defaultDays = 30, maxDays = 800, field = 'dates'): Range {
  const fromText = input?.from;
  const toText = input?.to;
  const today = localDate(now, timeZone);
  const bothDays = (fromText === undefined || DAY_ONLY.test(fromText)) && (toText === undefined || DAY_ONLY.test(toText));
  let range: Range;
  if (bothDays) {
    const toDate = toText ?? (fromText && fromText > today ? fromText : today);
    const fromDate = fromText ?? addDays(toDate, -(defaultDays - 1));
    if (toDate < fromDate) throw new RangeInputError(`${field}.to`, 'The end date must be a date after or equal to the start date.');
    range = dayRange(fromDate, toDate, timeZone);
  } else {
    const instant = (text: string | undefined, end: boolean): Date =>
      text === undefined
        ? end
          ? localDayStart(addDays(today, 1), timeZone)
          : new Date(0)
        : DAY_ONLY.test(text)
          ? localDayStart(end ? addDays(text, 1) : text, timeZone)
          : new Date(/[zZ]|[+-]\d\d(:?\d\d)?$/.test(text.slice(10)) ? text : `${text.replace(' ', 'T')}Z`);
    const to = instant(toText, true);
    const from = fromText === undefined ? new Date(to.getTime() - defaultDays * 86_400_000) : instant(fromText, false);
    if (to.getTime() <= from.getTime()) throw new RangeInputError(`${field}.to`, 'The end date must be a date after the start date.');
    range = { from, to, fromDate: localDate(from, timeZone), toDate: localDate(new Date(to.getTime() - 1), timeZone), dayAligned: false };
  }
  if (range.to.getTime() - range.from.getTime() > maxDays * 86_400_000 + 2 * MS_HOUR) {
    throw new RangeInputError(field, `The range may not be longer than ${maxDays} days.`);
  }
  return range;
}

/**
 * The comparison range of `current` (spec 002 §9): `previous` = the same number of local days (or the
 * same length) just before; `month`, `3_months`, `6_months`, `year` = the same days that many months
 * earlier (day of month clamped).
 */
export function comparisonRange(current: Range, period: ComparisonPeriod, timeZone: string): Range {
  if (current.dayAligned) {
    if (period === 'previous') {
      const days = daysBetween(current.fromDate, current.toDate) + 1;
      return dayRange(addDays(current.fromDate, -days), addDays(current.fromDate, -1), timeZone);
    }
    const months = { month: 1, '3_months': 3, '6_months': 6, year: 12 }[period];
    return dayRange(subtractMonths(current.fromDate, months), subtractMonths(current.toDate, months), timeZone);
  }
  const length = current.to.getTime() - current.from.getTime();
  let from: Date;
  let to: Date;
  if (period === 'previous') {
    from = new Date(current.from.getTime() - length);
    to = new Date(current.from);
  } else {
    const months = { month: 1, '3_months': 3, '6_months': 6, year: 12 }[period];
    from = new Date(current.from);
    from.setUTCMonth(from.getUTCMonth() - months);
    to = new Date(current.to);
    to.setUTCMonth(to.getUTCMonth() - months);
  }
  return { from, to, fromDate: localDate(from, timeZone), toDate: localDate(new Date(to.getTime() - 1), timeZone), dayAligned: false };
}

/**
 * Whether every local hour of `timeZone` within [from, to) is a whole UTC hour (offsets of whole
 * hours at the ends and every 15 days between, and both ends on UTC hours): then hourly UTC rollups
 * give exact local days and hours. False for zones such as Asia/Kolkata (+5:30).
 */
export function wholeHourAligned(range: Pick<Range, 'from' | 'to'>, timeZone: string): boolean {
  if (range.from.getTime() % MS_HOUR !== 0 || range.to.getTime() % MS_HOUR !== 0) return false;
  for (let t = range.from.getTime(); ; t = Math.min(t + 15 * 86_400_000, range.to.getTime())) {
    if (zoneOffsetMs(new Date(t), timeZone) % MS_HOUR !== 0) return false;
    if (t >= range.to.getTime()) return true;
  }
}

/**
 * The zone's offset from UTC over [from, to) as constant segments: `offsetS` (seconds, wall − UTC)
 * holds for the UTC instants before `until` (null: to the end). Sampled every 6 hours, each change
 * located to its UTC hour by bisection (a few dozen zone reads for a year, whatever the range).
 * For whole-hour-aligned ranges (`wholeHourAligned`), where offsets change on whole UTC hours.
 */
export function offsetSegments(from: Date, to: Date, timeZone: string): Array<{ until: Date | null; offsetS: number }> {
  const step = 6 * MS_HOUR;
  const offsetAt = (t: number) => zoneOffsetMs(new Date(t), timeZone) / 1000;
  const out: Array<{ until: Date | null; offsetS: number }> = [];
  let t = Math.floor(from.getTime() / MS_HOUR) * MS_HOUR;
  let current = offsetAt(t);
  while (t < to.getTime()) {
    const next = Math.min(t + step, Math.ceil(to.getTime() / MS_HOUR) * MS_HOUR);
    const o = offsetAt(next);
    if (o !== current) {
      // The first whole hour in (t, next] with the new offset.
      let lo = t;
      let hi = next;
      while (hi - lo > MS_HOUR) {
        const mid = lo + Math.floor((hi - lo) / 2 / MS_HOUR) * MS_HOUR;
        if (offsetAt(mid) === current) lo = mid;
        else hi = mid;
      }
      out.push({ until: new Date(hi), offsetS: current });
      current = offsetAt(hi);
      t = hi;
      continue;
    }
    t = next;
  }
  out.push({ until: null, offsetS: current });
  return out;
}

/** The start of the local wall-clock hour holding `t` (ms) in `timeZone`: `t` minus its local minutes, seconds and milliseconds. */
function localHourStart(t: number, timeZone: string): number {
  const z = zonedDateTime(new Date(t), timeZone);
  return t - (z.minute * 60 + z.second) * 1000 - (((t % 1000) + 1000) % 1000);
}

/** Every zone offset (and every offset change) is a multiple of 15 minutes. */
const MS_QUARTER = 15 * 60_000;

/**
 * The series buckets of a range (spec 002 "Dashboard"; docs/analytics.md "Time zones"): local days
 * `YYYY-MM-DD`, or local hours `YYYY-MM-DD HH:00`, each with `at` = the UTC instant its local day or
 * hour starts (the range's start for a first bucket that begins before it).
 *
 * Hours are stepped by LOCAL wall-clock hours, not by UTC hours, so zones whose offset is not a whole
 * hour (Australia/Adelaide +9:30/+10:30, Asia/Kolkata +5:30, Asia/Kathmandu +5:45, Australia/Eucla
 * +8:45) get their local hours starting at :30 or :45 UTC, and no extra first bucket from the local
 * hour before the range. Across a daylight-saving change, the skipped hour has no bucket and the
 * repeated hour (01:00 twice in the autumn) is one bucket, as the SQL grouping by local wall hour
 * makes them; a change of 30 minutes (Australia/Lord_Howe) is found by 15-minute steps.
 * At most 1,000 days or 24 × 62 hours.
 */
export function buckets(range: Range, unit: 'day' | 'hour', timeZone: string): Array<{ bucket: string; at: Date }> {
  const out: Array<{ bucket: string; at: Date }> = [];
  if (unit === 'day') {
    for (let d = range.fromDate; d <= range.toDate; d = addDays(d, 1)) {
      const at = localDayStart(d, timeZone);
      out.push({ bucket: d, at: at < range.from ? range.from : at });
      if (out.length > 1000) break;
    }
    return out;
  }
  const from = range.from.getTime();
  const to = range.to.getTime();
  const labelOf = (t: number) => {
    const z = zonedDateTime(new Date(t), timeZone);
    return `${z.date} ${String(z.hour).padStart(2, '0')}:00`;
  };
  const seen = new Set<string>();
  // t: the first instant of a local hour (or the range's start inside the first one).
  let t = from;
  while (t < to && out.length < 24 * 62) {
    const bucket = labelOf(t);
    if (!seen.has(bucket)) {
      seen.add(bucket);
      out.push({ bucket, at: new Date(t) });
    }
    // The next local hour starts one hour after this one unless the offset changes within it: then
    // walk quarter hours (on UTC quarter-hour instants) until the local hour label changes.
    const start = localHourStart(t, timeZone);
    const next = start + MS_HOUR;
    if (zoneOffsetMs(new Date(next), timeZone) === zoneOffsetMs(new Date(start), timeZone)) {
      t = next;
      continue;
    }
    let q = Math.floor(t / MS_QUARTER) * MS_QUARTER + MS_QUARTER;
    while (q < to && labelOf(q) === bucket) q += MS_QUARTER;
    t = q;
  }
  return out;
}
