/**
 * Legal quiet hours of marketing texts by the recipient's country and region (docs/quiet-hours.md):
 * one table of the windows the law allows, by day of week and on holidays, and the rules that apply
 * to a number, the zones it may be in, and when a text to it may be sent.
 *
 * - The country comes from the number (libphonenumber-js); for North American numbers the state or
 *   province and the zones come from the area code ({@link areaCodeInfo}, {@link areaCodeTimeZones}).
 * - Every rule that may apply is applied: in the US the federal window and the state's, and when the
 *   state is unknown (a toll-free or unlisted area code) every state's.
 * - Where a number's zone is uncertain (an area code or a country that spans several zones) the text
 *   goes out only when every zone it may be in is inside its window (the strictest window).
 * - The company may narrow the window (its quiet-hours setting) but never widen it past the law.
 *
 * Times are local wall-clock "HH:mm"; instants are `Date` (UTC). Pure; no I/O.
 */
import { getCountry } from 'countries-and-timezones';
import { ParseError, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { areaCodeTimeZones } from './area-code-zones.js';
import { areaCodeInfo } from './area-codes.js';
import { type HolidayCalendar, isHoliday } from './holidays.js';
import { areaCodeOf } from './phone.js';
import { type SendingWindow, zonedToInstant } from './quiet-hours.js';
import { timeToMinutes } from './schedule.js';
import { DEFAULT_TIME_ZONE, isValidTimeZone, resolveTimeZone, zonedDateTime } from './timezone.js';

/** Sending windows of one day: local "HH:mm" ranges, start inclusive, end exclusive; `[]` = no texts that day. */
export type DayWindows = ReadonlyArray<Readonly<SendingWindow>>;

/** One row of the legal table: when marketing texts may be sent in a jurisdiction. */
export interface LegalQuietHoursRule {
  /** "DEFAULT", a country ("US", "CA", "AU", "FR") or a US state ("US-FL"). */
  id: string;
  /** Display name, e.g. "Texas". */
  name: string;
  /** Monday to Friday. */
  weekdays: DayWindows;
  saturday: DayWindows;
  sunday: DayWindows;
  /** Holidays of `calendar` use `windows` instead of the day's. */
  holidays?: { calendar: HolidayCalendar; windows: DayWindows };
  /** The statute or rule the row comes from (docs/quiet-hours.md has the notes). */
  source: string;
}

const w = (...ranges: string[]): DayWindows =>
  Object.freeze(
    ranges.map((range) => {
      const [start, end] = range.split('-') as [string, string];
      return Object.freeze({ start, end });
    }),
  );
const NONE: DayWindows = Object.freeze([]);

function rule(
  id: string,
  name: string,
  days: { weekdays: DayWindows; saturday?: DayWindows; sunday?: DayWindows; holidays?: { calendar: HolidayCalendar; windows: DayWindows } },
  source: string,
): Readonly<LegalQuietHoursRule> {
  return Object.freeze({
    id,
    name,
    weekdays: days.weekdays,
    saturday: days.saturday ?? days.weekdays,
    sunday: days.sunday ?? days.weekdays,
    ...(days.holidays ? { holidays: Object.freeze(days.holidays) } : {}),
    source,
  });
}

/**
 * The legal table (docs/quiet-hours.md lists each row's source and notes). US state rows apply on
 * top of the federal row; "DEFAULT" applies to every country without a row of its own.
 */
export const LEGAL_QUIET_HOURS: Readonly<Record<string, Readonly<LegalQuietHoursRule>>> = Object.freeze(
  Object.fromEntries(
    [
      rule('DEFAULT', 'Other countries', { weekdays: w('08:00-20:00') }, 'No statutory window known: conservative default'),
      rule('US', 'United States (federal)', { weekdays: w('08:00-21:00') }, '47 U.S.C. § 227(c); 47 C.F.R. § 64.1200(c)(1); 16 C.F.R. § 310.4(c)'),
      rule(
        'CA',
        'Canada',
        { weekdays: w('09:00-21:30'), saturday: w('10:00-18:00'), sunday: w('10:00-18:00') },
        'CRTC Unsolicited Telecommunications Rules, Part III (Telemarketing Rules), s. 2',
      ),
      rule(
        'AU',
        'Australia',
        { weekdays: w('09:00-20:00'), saturday: w('09:00-17:00'), sunday: NONE, holidays: { calendar: 'AU', windows: NONE } },
        'Telecommunications (Telemarketing and Research Calls) Industry Standard 2017, s. 10',
      ),
      rule(
        'FR',
        'France',
        { weekdays: w('10:00-13:00', '14:00-20:00'), saturday: NONE, sunday: NONE, holidays: { calendar: 'FR', windows: NONE } },
        'Code de la consommation art. L221-16; Décret n° 2022-1313 du 13 octobre 2022',
      ),
      rule(
        'US-AL',
        'Alabama',
        { weekdays: w('08:00-20:00'), sunday: NONE, holidays: { calendar: 'US-AL', windows: NONE } },
        'Ala. Admin. Code r. 770-X-5-.17; holidays Ala. Code § 1-3-8',
      ),
      rule('US-CA', 'California', { weekdays: w('09:00-21:00') }, 'Cal. Pub. Util. Code § 2872(c)'),
      rule('US-CT', 'Connecticut', { weekdays: w('09:00-20:00') }, 'Conn. Gen. Stat. § 42-288a (as amended by Public Act 23-98)'),
      rule('US-FL', 'Florida', { weekdays: w('08:00-20:00') }, 'Fla. Stat. § 501.616(6)(a) (Florida Telephone Solicitation Act, SB 1120 of 2021)'),
      rule('US-IL', 'Illinois', { weekdays: w('09:00-21:00') }, '815 ILCS 305/15 (Automatic Telephone Dialers Act)'),
      rule('US-KY', 'Kentucky', { weekdays: w('10:00-21:00') }, 'Ky. Rev. Stat. § 367.46955'),
      rule(
        'US-LA',
        'Louisiana',
        { weekdays: w('08:00-20:00'), sunday: NONE, holidays: { calendar: 'US-LA', windows: NONE } },
        'La. R.S. 45:844.11 et seq. and Louisiana PSC do-not-call rules; holidays La. R.S. 1:55',
      ),
      rule('US-MA', 'Massachusetts', { weekdays: w('08:00-20:00') }, 'Mass. Gen. Laws ch. 159C § 3; 201 CMR 12.02'),
      rule('US-MD', 'Maryland', { weekdays: w('08:00-20:00') }, 'Md. Code, Com. Law § 14-4501 et seq. (Stop the Spam Calls Act of 2023)'),
      rule('US-MI', 'Michigan', { weekdays: w('09:00-21:00') }, 'Mich. Comp. Laws § 750.540e; § 445.111b'),
      rule('US-MN', 'Minnesota', { weekdays: w('09:00-21:00') }, 'Minn. Stat. §§ 325E.27, 325E.30'),
      rule('US-MS', 'Mississippi', { weekdays: w('08:00-20:00'), sunday: NONE }, 'Miss. Code Ann. § 77-3-725'),
      rule('US-NJ', 'New Jersey', { weekdays: w('08:00-20:00') }, 'N.J.S.A. 56:8-119 et seq.; N.J.A.C. 13:45D-4.1 (stricter issue window kept, see docs)'),
      rule('US-NM', 'New Mexico', { weekdays: w('09:00-21:00') }, 'N.M. Stat. § 57-12-22'),
      rule('US-NV', 'Nevada', { weekdays: w('09:00-20:00') }, 'Nev. Rev. Stat. § 228.590'),
      rule('US-OK', 'Oklahoma', { weekdays: w('08:00-20:00') }, '15 Okla. Stat. § 775C.4 (Telephone Solicitation Act of 2022)'),
      rule(
        'US-PA',
        'Pennsylvania',
        { weekdays: w('08:00-21:00'), sunday: w('13:30-21:00'), holidays: { calendar: 'US', windows: NONE } },
        '73 P.S. § 2245.2 (Telemarketer Registration Act)',
      ),
      rule(
        'US-RI',
        'Rhode Island',
        { weekdays: w('09:00-18:00'), saturday: w('10:00-17:00'), sunday: NONE, holidays: { calendar: 'US-RI', windows: NONE } },
        'R.I. Gen. Laws §§ 5-61-2(9), 5-61-3.6; holidays § 25-1-1',
      ),
      rule('US-TX', 'Texas', { weekdays: w('09:00-21:00'), sunday: w('12:00-21:00') }, 'Tex. Bus. & Com. Code § 301.051'),
      rule('US-UT', 'Utah', { weekdays: w('08:00-21:00'), holidays: { calendar: 'US-UT', windows: NONE } }, 'Utah Code § 13-25a-103; holidays § 63G-1-301'),
      rule('US-WA', 'Washington', { weekdays: w('08:00-20:00') }, 'Rev. Code Wash. § 80.36.390(3)'),
    ].map((r) => [r.id, r]),
  ),
);

const US_STATE_RULES = Object.values(LEGAL_QUIET_HOURS).filter((r) => r.id.startsWith('US-'));

/**
 * The zone used for a country whose zones have no common allowed time (e.g. Russia): its most
 * populous zone. Other countries use the first zone listed.
 */
const MAIN_ZONES: Readonly<Record<string, string>> = Object.freeze({
  US: 'America/New_York',
  CA: 'America/Toronto',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
  RU: 'Europe/Moscow',
  AU: 'Australia/Sydney',
  ID: 'Asia/Jakarta',
  KZ: 'Asia/Almaty',
  CD: 'Africa/Kinshasa',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  EC: 'America/Guayaquil',
  MN: 'Asia/Ulaanbaatar',
  NZ: 'Pacific/Auckland',
  FR: 'Europe/Paris',
  GB: 'Europe/London',
  DE: 'Europe/Berlin',
  UA: 'Europe/Kyiv',
});

/** Who a number belongs to, for quiet hours. */
export interface RecipientJurisdiction {
  /** ISO 3166 country, e.g. "GB"; null when the number cannot be read. */
  country: string | null;
  /** US state / Canadian province from the area code, e.g. "FL"; null when unknown. */
  region: string | null;
  /** Every zone the number may be in, main zone first. */
  zones: readonly string[];
  /** Every rule that applies (all of them must allow a send). */
  rules: ReadonlyArray<Readonly<LegalQuietHoursRule>>;
  /** Identity of (country, region, zones): numbers with the same key have the same quiet hours. */
  key: string;
}

function countryZones(country: string): string[] {
  const zones = (getCountry(country)?.timezones ?? []).filter((z) => isValidTimeZone(z));
  const main = MAIN_ZONES[country];
  return main && isValidTimeZone(main) ? [main, ...zones.filter((z) => z !== main)] : zones;
}

function countryRules(country: string | null): Array<Readonly<LegalQuietHoursRule>> {
  if (country && Object.hasOwn(LEGAL_QUIET_HOURS, country) && !country.includes('-')) return [LEGAL_QUIET_HOURS[country]!];
  return [LEGAL_QUIET_HOURS.DEFAULT!];
}

/**
 * The country, region, zones and legal rules of a recipient.
 *
 * NANP numbers with a known area code take the state/province and zones from the area code; a US
 * number whose state is unknown gets every US state's rule and every US zone. Other numbers take
 * the zones of their country. A number that cannot be read uses `fallbackTz` and the default rule.
 *
 * @param e164 the recipient, e.g. "+447911123456"
 * @param fallbackTz zone for a number that cannot be read (e.g. the company's); "UTC" unless given
 */
export function recipientJurisdiction(e164: string, fallbackTz: string = DEFAULT_TIME_ZONE): RecipientJurisdiction {
  const code = areaCodeOf(e164);
  const info = code !== null && e164.trim().startsWith('+1') ? areaCodeInfo(code) : null;
  let country: string | null;
  let region: string | null = null;
  let zones: string[];
  let rules: Array<Readonly<LegalQuietHoursRule>>;
  if (info && code !== null) {
    country = info.country;
    region = info.region;
    zones = areaCodeTimeZones(code);
    rules = countryRules(country);
    const state = LEGAL_QUIET_HOURS[`US-${region}`];
    if (country === 'US' && state) rules.push(state);
  } else {
    let parsed;
    try {
      parsed = parsePhoneNumberFromString(e164.trim());
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      parsed = undefined; // not a phone number: no country
    }
    country = parsed?.country ?? null;
    // A number of a shared calling code without a single country (e.g. +1 toll-free) is read as the code's main country.
    if (!country && parsed?.countryCallingCode === '1') country = 'US';
    zones = country ? countryZones(country) : [];
    rules = countryRules(country);
    if (country === 'US') rules.push(...US_STATE_RULES);
  }
  if (zones.length === 0) zones = [resolveTimeZone(fallbackTz)];
  return { country, region, zones, rules, key: `${country ?? '?'}|${region ?? '?'}|${zones.join(',')}` };
}

type Range = readonly [number, number];

function toRanges(windows: DayWindows): Range[] {
  const out: Range[] = [];
  for (const window of windows) {
    const start = timeToMinutes(window.start);
    const end = timeToMinutes(window.end);
    if (start === null || end === null || start >= 24 * 60) {
      throw new RangeError(`Invalid sending window ${JSON.stringify(window)}: expected "HH:mm" times`);
    }
    if (start === end) out.push([0, 24 * 60]);
    else if (start < end) out.push([start, end]);
    else out.push([0, end], [start, 24 * 60]); // crosses midnight
  }
  return out.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
}

function intersect(a: Range[], b: Range[]): Range[] {
  const out: Range[] = [];
  for (const [as, ae] of a) {
    for (const [bs, be] of b) {
      const s = Math.max(as, bs);
      const e = Math.min(ae, be);
      if (e > s) out.push([s, e]);
    }
  }
  return out.sort((x, y) => x[0] - y[0]);
}

/** The rule's windows on a local date (day of week 0 = Sunday). */
function ruleWindows(r: Readonly<LegalQuietHoursRule>, date: string, dayOfWeek: number): DayWindows {
  if (r.holidays && isHoliday(r.holidays.calendar, date)) return r.holidays.windows;
  if (dayOfWeek === 0) return r.sunday;
  if (dayOfWeek === 6) return r.saturday;
  return r.weekdays;
}

/** Options of {@link isSendAllowed} and {@link nextSendTime}. */
export interface QuietHoursOptions {
  /** The company's own window (narrows the law's; never widens it); null/undefined = the law's only. */
  companyWindow?: SendingWindow | null;
  /** Zone for a number that cannot be read; "UTC" unless given. */
  fallbackTz?: string;
}

/**
 * The allowed local ranges (minutes since midnight) on a date for a set of rules and a company window.
 *
 * @throws RangeError when a window's times are not "HH:mm"
 */
function allowedRanges(rules: RecipientJurisdiction['rules'], company: Range[] | null, date: string, dayOfWeek: number): Range[] {
  let ranges: Range[] = company ?? [[0, 24 * 60]];
  for (const r of rules) ranges = intersect(ranges, toRanges(ruleWindows(r, date, dayOfWeek)));
  return ranges;
}

/**
 * The legal sending windows of a recipient on a local date (all its rules combined, without the
 * company's window), e.g. for display: `[{start: "12:00", end: "21:00"}]` for Texas on a Sunday.
 *
 * @param e164 the recipient
 * @param date local date "YYYY-MM-DD"
 */
export function legalWindowsOn(e164: string, date: string): SendingWindow[] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  const hhmm = (n: number): string => `${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
  return allowedRanges(recipientJurisdiction(e164).rules, null, date, dow).map(([s, e]) => ({ start: hhmm(s), end: hhmm(e) }));
}

function insideAt(instant: Date, zone: string, rules: RecipientJurisdiction['rules'], company: Range[] | null): boolean {
  const local = zonedDateTime(instant, zone);
  const minutes = local.hour * 60 + local.minute;
  return allowedRanges(rules, company, local.date, local.dayOfWeek).some(([s, e]) => minutes >= s && minutes < e);
}

const MINUTE_MS = 60_000;
/** How far ahead a next allowed time is looked for (a week of holidays and closed weekends fits). */
const HORIZON_DAYS = 16;

/** First instant ≥ `t` inside the allowed ranges of one zone, or null within the horizon. */
function nextInZone(t: number, zone: string, rules: RecipientJurisdiction['rules'], company: Range[] | null): number | null {
  if (insideAt(new Date(t), zone, rules, company)) return t;
  const now = zonedDateTime(new Date(t), zone);
  for (let offset = 0; offset <= HORIZON_DAYS; offset++) {
    const day = new Date(Date.UTC(now.year, now.month - 1, now.day + offset));
    const y = day.getUTCFullYear();
    const m = day.getUTCMonth() + 1;
    const d = day.getUTCDate();
    const date = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    for (const [start] of allowedRanges(rules, company, date, day.getUTCDay())) {
      let candidate = zonedToInstant(y, m, d, start, zone);
      // A start inside a daylight-saving gap: step to the first minute that is inside.
      for (let step = 0; step < 180 && !insideAt(new Date(candidate), zone, rules, company); step++) {
        candidate = Math.floor(candidate / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
      }
      if (candidate > t && insideAt(new Date(candidate), zone, rules, company)) return candidate;
    }
  }
  return null;
}

/** First instant ≥ `t` inside every zone's ranges, or null when the zones never overlap within the horizon. */
function nextInAllZones(t: number, zones: readonly string[], rules: RecipientJurisdiction['rules'], company: Range[] | null): number | null {
  const limit = t + HORIZON_DAYS * 24 * 3_600_000;
  let at = t;
  for (let round = 0; round < 200 && at <= limit; round++) {
    let latest = at;
    for (const zone of zones) {
      const next = nextInZone(at, zone, rules, company);
      if (next === null) return null;
      latest = Math.max(latest, next);
    }
    if (latest === at) return at; // every zone allows `at`
    at = latest;
  }
  return null;
}

function companyRanges(window: SendingWindow | null | undefined): Range[] | null {
  return window ? toRanges([window]) : null;
}

/**
 * Whether a marketing text to `e164` may be sent at `instant`: inside the legal window of every rule
 * that applies and of the company's window, in every zone the number may be in (or, when those
 * zones never overlap, in its main zone: see {@link nextSendTime}).
 *
 * @param e164 the recipient
 * @param instant the moment of sending
 * @param options companyWindow (narrows only), fallbackTz
 * @throws RangeError when the company window's times are not "HH:mm"
 */
export function isSendAllowed(e164: string, instant: Date, options: QuietHoursOptions = {}): boolean {
  // Defined through nextSendTime so both agree, the main-zone fallback included.
  return nextSendTime(e164, instant, options)?.getTime() === instant.getTime();
}

/**
 * The first instant at or after `instant` when a text to `e164` may be sent ({@link isSendAllowed}),
 * correct across daylight-saving changes, weekends and holidays.
 *
 * When the zones a number may be in never share an allowed minute (a country spanning many zones, or
 * a narrow company window), the number's main zone alone decides. When even that has no allowed time
 * within 16 days (a company window outside the law's), null is returned.
 *
 * @param e164 the recipient
 * @param instant the moment the text would be sent
 * @param options companyWindow (narrows only), fallbackTz
 * @returns a new Date, or null when no allowed time exists
 * @throws RangeError when the company window's times are not "HH:mm"
 */
export function nextSendTime(e164: string, instant: Date, options: QuietHoursOptions = {}): Date | null {
  const j = recipientJurisdiction(e164, options.fallbackTz);
  const company = companyRanges(options.companyWindow);
  const t = instant.getTime();
  const next = nextInAllZones(t, j.zones, j.rules, company) ?? nextInAllZones(t, j.zones.slice(0, 1), j.rules, company);
  return next === null ? null : new Date(next);
}
