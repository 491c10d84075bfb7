/**
 * IANA time-zone helpers built on `Intl.DateTimeFormat` only (foundation §3 "Current user: timezone:
 * if the stored name is not a known zone, a default zone is used"; §4 "Default schedule ... UTC if unavailable").
 */

/** Zone used when none is given or the stored name is unknown. */
export const DEFAULT_TIME_ZONE = 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Whether `tz` is an IANA time-zone name this runtime knows (e.g. "America/New_York", "UTC").
 *
 * @param tz any value; non-strings and blank strings are not valid
 */
export function isValidTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz.trim() === '') return false;
  try {
    formatterFor(tz);
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false; // Intl: an unknown time zone
    throw error;
  }
}

/**
 * The zone to use for a stored zone name (foundation §3): the name itself when known, else `fallback`.
 *
 * @param tz a stored IANA name, possibly empty or unknown
 * @param fallback the default zone, "UTC" unless given
 */
export function resolveTimeZone(tz: string | null | undefined, fallback: string = DEFAULT_TIME_ZONE): string {
  return isValidTimeZone(tz) ? tz : fallback;
}

/**
 * The runtime's own zone (the browser's zone on the web), or "UTC" when unavailable (foundation §4
 * "Default schedule: ... the browser's timezone (UTC if unavailable)").
 */
export function localTimeZone(): string {
  let zone: string | undefined;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    // A runtime without (full) Intl support: no zone of its own.
    if (!(error instanceof TypeError) && !(error instanceof RangeError) && !(error instanceof ReferenceError)) throw error;
    zone = undefined;
  }
  return currentZoneName(resolveTimeZone(zone));
}

/**
 * Old IANA names that ICU (so browsers and Node) still reports as canonical, with the names the
 * IANA database uses today: a person in India looks for "Kolkata", not "Calcutta".
 */
const CURRENT_ZONE_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/**
 * The name the IANA time-zone database uses today for `zone` (e.g. "Asia/Calcutta" →
 * "Asia/Kolkata"); any other name is returned as given. Both names denote the same zone.
 */
export function currentZoneName(zone: string): string {
  return CURRENT_ZONE_NAMES[zone] ?? zone;
}

/**
 * Every IANA zone this runtime knows, under today's names: "UTC" first, then the others sorted.
 * The list a time-zone picker offers (foundation §9 "Timezones").
 */
export function timeZoneNames(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = new Set(known.map(currentZoneName));
  names.delete('UTC');
  return ['UTC', ...[...names].sort()];
}

/** Wall-clock reading of an instant in a zone. */
export interface ZonedDateTime {
  /** Four-digit year. */
  year: number;
  /** Month 1 to 12. */
  month: number;
  /** Day of month 1 to 31. */
  day: number;
  /** Hour 0 to 23. */
  hour: number;
  /** Minute 0 to 59. */
  minute: number;
  /** Second 0 to 59. */
  second: number;
  /** Day of week, 0 = Sunday to 6 = Saturday (as `Date#getDay`). */
  dayOfWeek: number;
  /** Local date "YYYY-MM-DD". */
  date: string;
  /** Local time "HH:mm" (24-hour). */
  time: string;
}

/**
 * Reads the wall clock of `instant` in `timeZone` (correct across daylight-saving changes, since the
 * runtime's zone database does the conversion).
 *
 * @param instant the moment
 * @param timeZone an IANA zone; unknown names fall back to "UTC"
 * @throws RangeError when `instant` is an invalid date
 */
export function zonedDateTime(instant: Date, timeZone: string): ZonedDateTime {
  // The same zone and second as the previous read (every schedule of a call is evaluated at one
  // instant): reuse that answer, frozen, without formatting again.
  const second = Math.floor(instant.getTime() / 1000);
  const last = lastRead.get(timeZone);
  if (last && last.second === second) return last.value;
  const value = Object.freeze(readWallClock(instant, timeZone));
  if (!Number.isNaN(second)) lastRead.set(timeZone, { second, value });
  return value;
}

/** Per zone name: the last second read and its wall clock. */
const lastRead = new Map<string, { second: number; value: ZonedDateTime }>();

function readWallClock(instant: Date, timeZone: string): ZonedDateTime {
  const parts = formatterFor(resolveTimeZone(timeZone)).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  const year = get('year');
  const month = get('month');
  const day = get('day');
  const hour = get('hour') % 24;
  const minute = get('minute');
  const second = get('second');
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    dayOfWeek: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    date: `${pad(year, 4)}-${pad(month)}-${pad(day)}`,
    time: `${pad(hour)}:${pad(minute)}`,
  };
}
