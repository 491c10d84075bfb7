/**
 * Public-holiday calendars used by the legal quiet-hours table (docs/quiet-hours.md "Holidays"):
 * the days on which a jurisdiction forbids or shortens marketing texts. Dates are local calendar
 * dates "YYYY-MM-DD" (no zone: the caller reads the recipient's local date).
 *
 * Conservative by design: a holiday that moves to a weekday when it falls on a weekend counts on
 * both days (the statute's date and the observed day), since statutes differ on which one counts.
 * Pure; no I/O.
 */

/** Calendars of {@link isHoliday}. */
export const HOLIDAY_CALENDARS = ['US', 'US-AL', 'US-LA', 'US-RI', 'US-UT', 'AU', 'FR'] as const;
/** A holiday calendar: US federal holidays, a state's legal holidays, or a country's national ones. */
export type HolidayCalendar = (typeof HOLIDAY_CALENDARS)[number];

const pad = (n: number): string => String(n).padStart(2, '0');
const key = (y: number, m: number, d: number): string => {
  const date = new Date(Date.UTC(y, m - 1, d));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
};

/** Day of month of the `n`th `weekday` (0 = Sunday) of a month; n = -1 for the last one. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return lastDay - ((last - weekday + 7) % 7);
}

/**
 * Western (Gregorian) Easter Sunday of a year (the anonymous Gregorian algorithm).
 *
 * @returns [month 1-12, day]
 */
export function easterSunday(year: number): [number, number] {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return [month, day];
}

/** A fixed-date holiday plus the weekday it is observed on when it falls on a weekend (Sat → Fri, Sun → Mon). */
function fixedWithObserved(year: number, month: number, day: number): string[] {
  const dow = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const out = [key(year, month, day)];
  if (dow === 6) out.push(key(year, month, day - 1));
  if (dow === 0) out.push(key(year, month, day + 1));
  return out;
}

/** A fixed-date holiday plus the following Monday when it falls on a weekend (the Australian rule). */
function weekendToMonday(year: number, month: number, day: number): string[] {
  const dow = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return dow === 6
    ? [key(year, month, day), key(year, month, day + 2)]
    : dow === 0
      ? [key(year, month, day), key(year, month, day + 1)]
      : [key(year, month, day)];
}

function usFederal(year: number): string[] {
  return [
    ...fixedWithObserved(year, 1, 1), // New Year's Day
    key(year, 1, nthWeekday(year, 1, 1, 3)), // Martin Luther King Jr. Day
    key(year, 2, nthWeekday(year, 2, 1, 3)), // Washington's Birthday
    key(year, 5, nthWeekday(year, 5, 1, -1)), // Memorial Day
    ...fixedWithObserved(year, 6, 19), // Juneteenth
    ...fixedWithObserved(year, 7, 4), // Independence Day
    key(year, 9, nthWeekday(year, 9, 1, 1)), // Labor Day
    key(year, 10, nthWeekday(year, 10, 1, 2)), // Columbus Day
    ...fixedWithObserved(year, 11, 11), // Veterans Day
    key(year, 11, nthWeekday(year, 11, 4, 4)), // Thanksgiving
    ...fixedWithObserved(year, 12, 25), // Christmas Day
    ...fixedWithObserved(year + 1, 1, 1).filter((d) => d.startsWith(`${year}-`)), // New Year's observed on Dec 31
  ];
}

function easterOffset(year: number, days: number): string {
  const [m, d] = easterSunday(year);
  return key(year, m, d + days);
}

function build(calendar: HolidayCalendar, year: number): string[] {
  switch (calendar) {
    case 'US':
      return usFederal(year);
    case 'US-AL': // Ala. Code § 1-3-8
      return [
        ...usFederal(year),
        easterOffset(year, -47), // Mardi Gras (Baldwin and Mobile counties)
        key(year, 4, nthWeekday(year, 4, 1, 4)), // Confederate Memorial Day
        key(year, 6, nthWeekday(year, 6, 1, 1)), // Jefferson Davis's birthday
      ];
    case 'US-LA': // La. R.S. 1:55 and the Louisiana PSC's do-not-call holidays
      return [...usFederal(year), easterOffset(year, -47), easterOffset(year, -2)]; // Mardi Gras, Good Friday
    case 'US-RI': // R.I. Gen. Laws § 25-1-1
      return [
        ...usFederal(year),
        ...fixedWithObserved(year, 5, 4), // Rhode Island Independence Day
        key(year, 8, nthWeekday(year, 8, 1, 2)), // Victory Day
        ...(year % 2 === 0 ? [key(year, 11, nthWeekday(year, 11, 1, 1) + 1)] : []), // election day
      ];
    case 'US-UT': // Utah Code § 63G-1-301
      return [...usFederal(year), ...fixedWithObserved(year, 7, 24)]; // Pioneer Day
    case 'AU': {
      // national public holidays (Telemarketing and Research Industry Standard 2017)
      const christmasDow = new Date(Date.UTC(year, 11, 25)).getUTCDay();
      return [
        ...weekendToMonday(year, 1, 1),
        ...weekendToMonday(year, 1, 26), // Australia Day
        easterOffset(year, -2), // Good Friday
        easterOffset(year, -1), // Easter Saturday
        easterOffset(year, 1), // Easter Monday
        key(year, 4, 25), // Anzac Day
        key(year, 12, 25),
        key(year, 12, 26), // Boxing Day
        // Substitute days when Christmas or Boxing Day falls on a weekend.
        ...([5, 6, 0].includes(christmasDow) ? [key(year, 12, 27), key(year, 12, 28)] : []),
      ];
    }
    case 'FR': // jours fériés, Code du travail art. L3133-1
      return [
        key(year, 1, 1),
        easterOffset(year, 1),
        key(year, 5, 1),
        key(year, 5, 8),
        easterOffset(year, 39),
        easterOffset(year, 50),
        key(year, 7, 14),
        key(year, 8, 15),
        key(year, 11, 1),
        key(year, 11, 11),
        key(year, 12, 25),
      ];
  }
}

const cache = new Map<string, ReadonlySet<string>>();

/**
 * The holidays of a calendar in a year, as "YYYY-MM-DD" local dates (observed days included).
 *
 * @param calendar e.g. "US-RI"
 * @param year e.g. 2030
 */
export function holidaysOf(calendar: HolidayCalendar, year: number): ReadonlySet<string> {
  const k = `${calendar}:${year}`;
  let set = cache.get(k);
  if (!set) {
    set = new Set(build(calendar, year));
    cache.set(k, set);
  }
  return set;
}

/**
 * Whether a local date is a holiday in a calendar.
 *
 * @param calendar e.g. "US"
 * @param date a local date "YYYY-MM-DD"
 */
export function isHoliday(calendar: HolidayCalendar, date: string): boolean {
  const year = Number(date.slice(0, 4));
  return Number.isInteger(year) && holidaysOf(calendar, year).has(date);
}
