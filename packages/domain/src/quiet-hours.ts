/**
 * Campaign quiet hours (docs/quiet-hours.md): campaign sends respect quiet hours in the recipient's local
 * time, taken from the number's area code: 8:00 to 21:00 by default, configurable per company;
 * messages that fall outside wait for the next allowed time.
 *
 * The recipient's zone comes from the area code ({@link timeZoneOfNumber}); numbers without a known
 * geographic area code (toll-free, non-NANP) use the caller's fallback zone (e.g. the company's).
 * Wall clocks are read with `zonedDateTime` (Intl), so daylight-saving changes are handled by the zone database.
 */
import { timeZoneOfNumber } from './area-codes.js';
import { timeToMinutes } from './schedule.js';
import { DEFAULT_TIME_ZONE, resolveTimeZone, zonedDateTime } from './timezone.js';

/** The allowed sending window, as local 24-hour "HH:mm" times: from `start` (inclusive) to `end` (exclusive). */
export interface SendingWindow {
  /** Local time sending may begin, e.g. "08:00". */
  start: string;
  /** Local time sending must stop, e.g. "21:00" ("24:00" = midnight at the end of the day). */
  end: string;
}

/** Default allowed sending window: 8:00 to 21:00 in the recipient's local time (docs/quiet-hours.md). */
export const DEFAULT_QUIET_HOURS: Readonly<SendingWindow> = Object.freeze({ start: '08:00', end: '21:00' });

const MINUTE_MS = 60_000;

/**
 * The zone quiet hours are evaluated in for a recipient: the area code's zone, else `fallbackTz`
 * (itself falling back to "UTC" when unknown).
 *
 * @param e164 the recipient, e.g. "+13105550123"
 * @param fallbackTz zone for numbers without a geographic NANP area code
 */
export function recipientTimeZone(e164: string, fallbackTz: string = DEFAULT_TIME_ZONE): string {
  return timeZoneOfNumber(e164) ?? resolveTimeZone(fallbackTz);
}

/** Start and end in minutes since midnight; throws on malformed times. */
function windowMinutes(window: SendingWindow): { start: number; end: number } {
  const start = timeToMinutes(window.start);
  const end = timeToMinutes(window.end);
  if (start === null || end === null || start >= 24 * 60) {
    throw new RangeError(`Invalid sending window ${JSON.stringify(window)}: expected "HH:mm" times`);
  }
  return { start, end };
}

function insideMinutes(minutes: number, start: number, end: number): boolean {
  if (start === end) return true; // no quiet hours
  if (start < end) return minutes >= start && minutes < end;
  return minutes >= start || minutes < end; // window crosses midnight, e.g. 22:00-06:00
}

function localMinutes(instant: Date, timeZone: string): number {
  const { hour, minute } = zonedDateTime(instant, timeZone);
  return hour * 60 + minute;
}

/** Offset of the zone at an instant, in ms (wall clock read as UTC minus the instant, to the second). */
function offsetAt(ms: number, timeZone: string): number {
  const z = zonedDateTime(new Date(ms), timeZone);
  return Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute, z.second) - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * The instant at which the wall clock of `timeZone` reads the given local date and time. In a
 * daylight-saving gap this resolves to an instant just before the gap (the caller steps forward);
 * in a repeated hour it resolves to the earlier occurrence.
 */
export function zonedToInstant(year: number, month: number, day: number, minutes: number, timeZone: string): number {
  const naive = Date.UTC(year, month - 1, day, 0, minutes);
  const first = naive - offsetAt(naive, timeZone);
  return naive - offsetAt(first, timeZone);
}

/**
 * Whether a message to `e164` may be sent at `instant` (docs/quiet-hours.md): the recipient's local time is
 * within `window`. Equal start and end means no quiet hours; a start after the end means the
 * window crosses midnight.
 *
 * @param e164 the recipient's number
 * @param instant the moment of sending
 * @param window allowed local window, {@link DEFAULT_QUIET_HOURS} unless given
 * @param fallbackTz zone for numbers without a geographic area code ("UTC" unless given)
 * @throws RangeError when the window's times are not "HH:mm"
 */
export function isWithinSendingWindow(
  e164: string,
  instant: Date,
  window: SendingWindow = DEFAULT_QUIET_HOURS,
  fallbackTz: string = DEFAULT_TIME_ZONE,
): boolean {
  const { start, end } = windowMinutes(window);
  return insideMinutes(localMinutes(instant, recipientTimeZone(e164, fallbackTz)), start, end);
}

/**
 * The first instant at or after `instant` when a message to `e164` may be sent (messages that fall
 * outside wait for the next allowed time; docs/quiet-hours.md). Inside the window this is `instant` itself;
 * otherwise it is the window's start in the recipient's local time, today or the next day, correct
 * across daylight-saving changes (a start inside a skipped hour moves to the first instant after it).
 *
 * @param e164 the recipient's number
 * @param instant the moment the message would be sent
 * @param window allowed local window, {@link DEFAULT_QUIET_HOURS} unless given
 * @param fallbackTz zone for numbers without a geographic area code ("UTC" unless given)
 * @returns a new Date
 * @throws RangeError when the window's times are not "HH:mm" or `instant` is invalid
 */
export function nextAllowedSendTime(e164: string, instant: Date, window: SendingWindow = DEFAULT_QUIET_HOURS, fallbackTz: string = DEFAULT_TIME_ZONE): Date {
  const { start, end } = windowMinutes(window);
  const zone = recipientTimeZone(e164, fallbackTz);
  const now = zonedDateTime(instant, zone);
  if (insideMinutes(now.hour * 60 + now.minute, start, end)) return new Date(instant.getTime());

  for (let dayOffset = 0; dayOffset <= 2; dayOffset++) {
    const date = new Date(Date.UTC(now.year, now.month - 1, now.day + dayOffset));
    let candidate = zonedToInstant(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), start, zone);
    // Daylight-saving gap: the local start does not exist; step to the first minute inside the window.
    for (let step = 0; step < 180 && !insideMinutes(localMinutes(new Date(candidate), zone), start, end); step++) {
      candidate = Math.floor(candidate / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    }
    if (candidate > instant.getTime() && insideMinutes(localMinutes(new Date(candidate), zone), start, end)) {
      return new Date(candidate);
    }
  }
  /* c8 ignore next */
  throw new RangeError('No allowed sending time found');
}
