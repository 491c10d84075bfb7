/**
 * Business-hours schedules (foundation §3 "Schedule", §4 "Schedule presets", §9 "Schedule time step";
 * spec 002 §3 "Schedule").
 *
 * Model: a preset, an IANA time zone and, per weekday, an open and a close hour in 24-hour "HH:mm"
 * (each may be null). Conventions of this module:
 * - "All Day" is open "00:00", close "24:00"; "Closed" is both null.
 * - What the hours mean depends on the preset: 1 (24/7) is always open and keeps its hours empty;
 *   5 (Direct Voicemail) is never open (calls go to voicemail) and keeps its hours empty; 2, 3 and 6
 *   are fixed templates (see {@link PRESET_TEMPLATES}); 4 (Custom) uses the hours as stored.
 * - A day is open from `open` (inclusive) to `close` (exclusive). Saving requires, for the hours
 *   that count (preset 4), a close after the open ({@link scheduleHoursErrors}, checked by the web
 *   form and by the server). Hours stored before that rule are still read tolerantly: a close
 *   earlier than the open runs past midnight into the next day; equal open and close means closed;
 *   a day with only one of the two hours is incomplete and counts as closed.
 */
import { SCHEDULE_STEP_MINUTES } from './constants.js';
import { DEFAULT_TIME_ZONE, resolveTimeZone, zonedDateTime } from './timezone.js';

/** Schedule preset labels by id (foundation §4, spec 002 §3). */
export const SCHEDULE_PRESETS = {
  1: '24/7',
  2: 'Mon-Fri (9-5)',
  3: 'Sat-Sun (9-5)',
  4: 'Custom',
  5: 'Direct Voicemail',
  6: 'Business Hours',
} as const;

/** A schedule preset id. */
export type SchedulePreset = keyof typeof SCHEDULE_PRESETS;

/** Schedule preset ids by name. */
export const SCHEDULE_PRESET = {
  ALWAYS_OPEN: 1,
  WEEKDAYS_9_TO_5: 2,
  WEEKENDS_9_TO_5: 3,
  CUSTOM: 4,
  DIRECT_VOICEMAIL: 5,
  BUSINESS_HOURS: 6,
} as const satisfies Record<string, SchedulePreset>;

/** Weekday keys, Monday first (foundation §3). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A weekday key. */
export type Weekday = (typeof WEEKDAYS)[number];

/** Open and close hour of one day, 24-hour "HH:mm" ("24:00" allowed as a close), each nullable. */
export interface DayHours {
  open: string | null;
  close: string | null;
}

/** Hours of every weekday. */
export type WeekHours = Record<Weekday, DayHours>;

/** A business-hours schedule (foundation §3). */
export interface Schedule {
  preset: SchedulePreset;
  /** IANA zone name, e.g. "America/New_York". */
  timezone: string;
  hours: WeekHours;
}

/** One 24-hour block as sent to the server (foundation §3 "sent as 24-hour HH:mm blocks"). */
export interface ScheduleBlock {
  day: Weekday;
  /** "HH:mm". */
  start: string;
  /** "HH:mm"; "24:00" is the end of the day. */
  end: string;
}

/** Start of a day. */
export const START_OF_DAY = '00:00';
/** End of a day, as a close hour. */
export const END_OF_DAY = '24:00';
/** Hours of an "All Day" day. */
export const ALL_DAY: Readonly<DayHours> = Object.freeze({ open: START_OF_DAY, close: END_OF_DAY });
/** Hours of a "Closed" day. */
export const CLOSED: Readonly<DayHours> = Object.freeze({ open: null, close: null });

/** Value of the "Closed" time choice. */
export const TIME_CHOICE_CLOSED = 'closed';
/** Value of the "All Day" time choice. */
export const TIME_CHOICE_ALL_DAY = 'all_day';

/** One entry of the open/close time select. */
export interface TimeChoice {
  /** "HH:mm", or {@link TIME_CHOICE_CLOSED} / {@link TIME_CHOICE_ALL_DAY}. */
  value: string;
  /** "h:mma" such as "9:15pm", or "Closed" / "All Day". */
  label: string;
}

const MINUTES_PER_DAY = 24 * 60;

/** Day index of `Date#getDay` (0 = Sunday) to weekday key. */
const WEEKDAY_BY_DAY_OF_WEEK: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * Minutes since midnight of a 24-hour time (seconds, if present, are ignored).
 *
 * @param value "HH:mm" or "HH:mm:ss", "00:00" to "23:59", or "24:00"
 * @returns 0 to 1440, or `null` when `value` is not such a time
 */
export function timeToMinutes(value: string | null | undefined): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  if (minutes > 59 || seconds > 59) return null;
  if (hours < 24) return hours * 60 + minutes;
  return hours === 24 && minutes === 0 && seconds === 0 ? MINUTES_PER_DAY : null;
}

/**
 * 24-hour "HH:mm" text of a number of minutes since midnight.
 *
 * @param minutes 0 to 1440 (1440 gives "24:00"); other values are wrapped into 0 to 1439
 */
export function minutesToTime(minutes: number): string {
  const value = minutes === MINUTES_PER_DAY ? minutes : ((Math.floor(minutes) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return `${String(Math.floor(value / 60)).padStart(2, '0')}:${String(value % 60).padStart(2, '0')}`;
}

/**
 * 12-hour display of a 24-hour time (foundation §3 "Shown in 12-hour AM/PM form"), "h:mma" lowercase.
 *
 * @param hhmm "HH:mm" (or "HH:mm:ss"), e.g. "13:30"; "24:00" (end of day) shows as "12:00am"
 * @returns e.g. "1:30pm", "12:00am", "12:15pm"; `null` when `hhmm` is not a valid time
 */
export function to12h(hhmm: string | null | undefined): string | null {
  const total = timeToMinutes(hhmm);
  if (total === null) return null;
  const hour = Math.floor(total / 60) % 24;
  const minute = total % 60;
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${hour12}:${String(minute).padStart(2, '0')}${hour < 12 ? 'am' : 'pm'}`;
}

/**
 * 24-hour "HH:mm" of a 12-hour time (foundation §3 "sent as 24-hour HH:mm").
 *
 * @param h12 e.g. "1:30pm", "01:30 PM", "12:00am"; a valid 24-hour "HH:mm" is accepted as is
 * @returns e.g. "13:30", "00:00"; `null` when the text is not a time
 */
export function to24h(h12: string | null | undefined): string | null {
  if (typeof h12 !== 'string') return null;
  const text = h12.trim();
  const match = /^(\d{1,2}):(\d{2})\s*([ap])\.?\s*m?\.?$/i.exec(text);
  if (!match) {
    const minutes = timeToMinutes(text);
    return minutes === null ? null : minutesToTime(minutes);
  }
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour < 1 || hour > 12 || minute > 59) return null;
  const pm = match[3]!.toLowerCase() === 'p';
  return minutesToTime(((hour % 12) + (pm ? 12 : 0)) * 60 + minute);
}

/**
 * Time choices of the open/close selects (foundation §3, §9): "Closed" and "All Day" first, then
 * every 15 minutes from "12:00am" ("00:00") to "11:45pm" ("23:45").
 */
export const TIME_CHOICES: readonly TimeChoice[] = [
  { value: TIME_CHOICE_CLOSED, label: 'Closed' },
  { value: TIME_CHOICE_ALL_DAY, label: 'All Day' },
  ...Array.from({ length: MINUTES_PER_DAY / SCHEDULE_STEP_MINUTES }, (_, i) => {
    const value = minutesToTime(i * SCHEDULE_STEP_MINUTES);
    return { value, label: to12h(value)! };
  }),
];

/**
 * The value a day's open or close select shows: "closed" when both hours are null, "all_day" for
 * 00:00–24:00, otherwise the hour itself ("" when that one hour is empty).
 *
 * @param hours the day's hours
 * @param field which select
 */
export function dayChoiceValue(hours: DayHours, field: 'open' | 'close'): string {
  if (hours.open === null && hours.close === null) return TIME_CHOICE_CLOSED;
  if (isAllDay(hours)) return TIME_CHOICE_ALL_DAY;
  return hours[field] ?? '';
}

/**
 * Applies a time choice picked in a day's open or close select: "closed" closes the day, "all_day"
 * opens it 00:00–24:00, an "HH:mm" value sets that one hour (leaving a closed or all-day day with only
 * that hour set, for the other select to complete).
 *
 * @param hours the day's current hours
 * @param field which select was changed
 * @param value a {@link TIME_CHOICES} value
 * @returns the day's new hours (a new object); unchanged hours when `value` is not a choice
 */
export function applyDayChoice(hours: DayHours, field: 'open' | 'close', value: string): DayHours {
  if (value === TIME_CHOICE_CLOSED) return { ...CLOSED };
  if (value === TIME_CHOICE_ALL_DAY) return { ...ALL_DAY };
  const minutes = timeToMinutes(value);
  if (minutes === null) return { ...hours };
  const base = isAllDay(hours) ? { ...CLOSED } : { ...hours };
  return { ...base, [field]: minutesToTime(minutes) };
}

/** Whether a day is "All Day" (00:00–24:00). */
export function isAllDay(hours: DayHours): boolean {
  return timeToMinutes(hours.open) === 0 && timeToMinutes(hours.close) === MINUTES_PER_DAY;
}

/** Whether `value` is a known preset id (1 to 6). */
export function isSchedulePreset(value: unknown): value is SchedulePreset {
  return typeof value === 'number' && Object.hasOwn(SCHEDULE_PRESETS, value);
}

/** Hours with every day empty (null open and close). */
export function emptyHours(): WeekHours {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, { ...CLOSED }])) as WeekHours;
}

function hoursOn(days: readonly Weekday[], open: string, close: string): WeekHours {
  const hours = emptyHours();
  for (const day of days) hours[day] = { open, close };
  return hours;
}

/**
 * Hours of the fixed-hour presets (design decision where the spec gives only the labels):
 * 2 "Mon-Fri (9-5)" is Monday to Friday 09:00–17:00; 3 "Sat-Sun (9-5)" is Saturday and Sunday
 * 09:00–17:00; 6 "Business Hours" is Monday to Friday 08:00–18:00. Other days are closed.
 */
export const PRESET_TEMPLATES: Readonly<Record<2 | 3 | 6, Readonly<WeekHours>>> = {
  2: hoursOn(['mon', 'tue', 'wed', 'thu', 'fri'], '09:00', '17:00'),
  3: hoursOn(['sat', 'sun'], '09:00', '17:00'),
  6: hoursOn(['mon', 'tue', 'wed', 'thu', 'fri'], '08:00', '18:00'),
};

function copyHours(hours: Readonly<WeekHours>): WeekHours {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, { open: hours[day]?.open ?? null, close: hours[day]?.close ?? null }])) as WeekHours;
}

/**
 * The default schedule (foundation §4): preset 1 (24/7), every day's hours empty, the given zone
 * (the browser's zone on the web) or "UTC" when none or an unknown name is given.
 *
 * @param timezone IANA zone name
 */
export function defaultSchedule(timezone?: string | null): Schedule {
  return { preset: SCHEDULE_PRESET.ALWAYS_OPEN, timezone: resolveTimeZone(timezone, DEFAULT_TIME_ZONE), hours: emptyHours() };
}

/**
 * A schedule for a preset with its hours filled in: presets 1 and 5 get empty hours; 2, 3 and 6 their
 * {@link PRESET_TEMPLATES}; 4 (Custom) copies `currentHours`, or starts from the Mon-Fri 09:00–17:00
 * template when none are given.
 *
 * @param preset preset id 1 to 6
 * @param timezone IANA zone ("UTC" when missing or unknown)
 * @param currentHours the hours being edited, kept for preset 4
 */
export function applyPreset(preset: SchedulePreset, timezone?: string | null, currentHours?: Readonly<WeekHours>): Schedule {
  const zone = resolveTimeZone(timezone, DEFAULT_TIME_ZONE);
  switch (preset) {
    case 2:
    case 3:
    case 6:
      return { preset, timezone: zone, hours: copyHours(PRESET_TEMPLATES[preset]) };
    case 4:
      return { preset, timezone: zone, hours: copyHours(currentHours ?? PRESET_TEMPLATES[2]) };
    default:
      return { preset, timezone: zone, hours: emptyHours() };
  }
}

/**
 * Label shown for a schedule (foundation §4): "Direct Voicemail" whenever the voicemail flag is set,
 * regardless of preset; otherwise the preset's label when the preset is known; otherwise "".
 *
 * @param schedule the schedule (only its preset is read); may be missing
 * @param voicemailFlag whether the route sends callers straight to voicemail
 */
export function scheduleLabel(schedule: { preset?: number | null } | null | undefined, voicemailFlag: boolean): string {
  if (voicemailFlag) return SCHEDULE_PRESETS[SCHEDULE_PRESET.DIRECT_VOICEMAIL];
  const preset = schedule?.preset;
  return isSchedulePreset(preset) ? SCHEDULE_PRESETS[preset] : '';
}

/**
 * The hours a schedule actually means (see the module notes): preset 1 → every day 00:00–24:00;
 * preset 5 → every day closed; presets 2, 3, 6 → their template; preset 4 or an unknown preset →
 * the stored hours (missing days closed).
 *
 * @param schedule the schedule
 */
export function effectiveHours(schedule: Schedule): WeekHours {
  const preset = Number(schedule.preset);
  if (preset === SCHEDULE_PRESET.ALWAYS_OPEN) return Object.fromEntries(WEEKDAYS.map((day) => [day, { ...ALL_DAY }])) as WeekHours;
  if (preset === SCHEDULE_PRESET.DIRECT_VOICEMAIL) return emptyHours();
  if (preset === 2 || preset === 3 || preset === 6) return copyHours(PRESET_TEMPLATES[preset]);
  return copyHours(schedule.hours ?? emptyHours());
}

/** Open interval of a day in minutes, or null when closed or incomplete. */
function interval(hours: DayHours | undefined): { open: number; close: number } | null {
  const open = timeToMinutes(hours?.open);
  const close = timeToMinutes(hours?.close);
  if (open === null || close === null || open === close || open === MINUTES_PER_DAY) return null;
  return { open, close };
}

/**
 * The 24-hour blocks of a schedule, Monday first (foundation §3 "sent as 24-hour HH:mm blocks
 * (start/end per day block)"). Built from {@link effectiveHours}, so 24/7 gives seven 00:00–24:00
 * blocks and Direct Voicemail gives none. Closed and incomplete days have no block; an overnight
 * day keeps end < start.
 *
 * @param schedule the schedule
 * @returns e.g. [{ day: 'mon', start: '09:00', end: '17:00' }, ...]
 */
export function toBlocks(schedule: Schedule): ScheduleBlock[] {
  const hours = effectiveHours(schedule);
  const blocks: ScheduleBlock[] = [];
  for (const day of WEEKDAYS) {
    const span = interval(hours[day]);
    if (span) blocks.push({ day, start: minutesToTime(span.open), end: minutesToTime(span.close) });
  }
  return blocks;
}

/**
 * Rebuilds a schedule from 24-hour blocks (the inverse of {@link toBlocks}). For preset 4 (Custom)
 * and unknown presets the hours come from the blocks: the first valid block of a day is used, later
 * ones for the same day and blocks with an unknown day or invalid time are ignored. Presets 1, 2, 3,
 * 5 and 6 get their canonical hours as {@link applyPreset} gives them.
 *
 * @param blocks e.g. [{ day: 'mon', start: '09:00', end: '17:00' }]
 * @param preset preset id, 4 (Custom) unless given
 * @param timezone IANA zone ("UTC" when missing or unknown)
 */
export function fromBlocks(blocks: readonly ScheduleBlock[], preset: SchedulePreset = SCHEDULE_PRESET.CUSTOM, timezone?: string | null): Schedule {
  if (preset !== SCHEDULE_PRESET.CUSTOM && isSchedulePreset(preset)) return applyPreset(preset, timezone);
  const hours = emptyHours();
  const seen = new Set<Weekday>();
  for (const block of blocks) {
    const day = block.day;
    if (!(WEEKDAYS as readonly string[]).includes(day) || seen.has(day)) continue;
    const span = interval({ open: block.start, close: block.end });
    if (!span) continue;
    hours[day] = { open: minutesToTime(span.open), close: minutesToTime(span.close) };
    seen.add(day);
  }
  return { preset, timezone: resolveTimeZone(timezone, DEFAULT_TIME_ZONE), hours };
}

/**
 * Whether a schedule is open at an instant, read in the schedule's own time zone with
 * `Intl.DateTimeFormat` (so daylight-saving changes are handled by the zone database). An unknown
 * zone name falls back to "UTC" (foundation §3).
 *
 * Rules: a holiday (its local date is in `holidays`) is closed, whatever the preset; preset 1 is
 * otherwise always open; preset 5 is never open; the other presets use {@link effectiveHours}: a day
 * is open from its open hour (inclusive) to its close hour (exclusive, "24:00" = end of day), and an
 * overnight day (close before open) stays open after midnight until its close hour.
 *
 * @param schedule the schedule
 * @param instant the moment to test
 * @param holidays closed dates "YYYY-MM-DD" in the schedule's zone
 * @returns true when calls should be connected, false when the schedule is closed (voicemail)
 */
export function isOpenAt(schedule: Schedule, instant: Date, holidays: readonly string[] = []): boolean {
  const local = zonedDateTime(instant, resolveTimeZone(schedule.timezone, DEFAULT_TIME_ZONE));
  if (holidays.includes(local.date)) return false;
  const preset = Number(schedule.preset);
  if (preset === SCHEDULE_PRESET.ALWAYS_OPEN) return true;
  if (preset === SCHEDULE_PRESET.DIRECT_VOICEMAIL) return false;
  const hours = effectiveHours(schedule);
  const now = local.hour * 60 + local.minute;
  const today = interval(hours[WEEKDAY_BY_DAY_OF_WEEK[local.dayOfWeek]!]);
  if (today) {
    if (today.open < today.close ? now >= today.open && now < today.close : now >= today.open) return true;
  }
  const yesterday = interval(hours[WEEKDAY_BY_DAY_OF_WEEK[(local.dayOfWeek + 6) % 7]!]);
  return yesterday !== null && yesterday.close < yesterday.open && now < yesterday.close;
}

/** Messages of the schedule hour rules ({@link scheduleHoursErrors}). */
export const SCHEDULE_HOURS_MESSAGES = {
  closeNotAfterOpen: 'The close time must be after the open time.',
  missingOpen: 'Choose an open time, or Closed for the whole day.',
  missingClose: 'Choose a close time, or Closed for the whole day.',
  invalidTime: 'Use a 24-hour HH:mm time.',
} as const;

/**
 * The rule for saving business hours (foundation §3 "Schedule"), shared by the web form and the
 * server: for the hours that count (preset 4 Custom, or an unknown preset; the other presets use
 * fixed or no hours, see {@link effectiveHours}) every weekday is either Closed (both hours empty)
 * or open with a valid open and close hour where the close is after the open ("24:00" = end of the
 * day, so "All Day" is 00:00–24:00). A close before or equal to the open is refused, as is a day
 * with only one of its two hours.
 *
 * @param schedule the schedule being saved (missing days count as Closed)
 * @returns field errors keyed `hours.{day}.open` / `hours.{day}.close` (one message each); `{}` when valid
 */
export function scheduleHoursErrors(schedule: {
  preset?: number | null;
  hours?: Partial<Record<Weekday, Partial<DayHours> | null>> | null;
}): Record<string, string[]> {
  const preset = Number(schedule.preset);
  if (isSchedulePreset(preset) && preset !== SCHEDULE_PRESET.CUSTOM) return {};
  const errors: Record<string, string[]> = {};
  for (const day of WEEKDAYS) {
    const hours = schedule.hours?.[day];
    const openText = hours?.open ?? null;
    const closeText = hours?.close ?? null;
    if (openText === null && closeText === null) continue;
    const open = openText === null ? null : timeToMinutes(openText);
    const close = closeText === null ? null : timeToMinutes(closeText);
    if (openText === null) errors[`hours.${day}.open`] = [SCHEDULE_HOURS_MESSAGES.missingOpen];
    else if (open === null || open === MINUTES_PER_DAY) errors[`hours.${day}.open`] = [SCHEDULE_HOURS_MESSAGES.invalidTime];
    if (closeText === null) errors[`hours.${day}.close`] = [SCHEDULE_HOURS_MESSAGES.missingClose];
    else if (close === null) errors[`hours.${day}.close`] = [SCHEDULE_HOURS_MESSAGES.invalidTime];
    else if (open !== null && open !== MINUTES_PER_DAY && close <= open) errors[`hours.${day}.close`] = [SCHEDULE_HOURS_MESSAGES.closeNotAfterOpen];
  }
  return errors;
}
