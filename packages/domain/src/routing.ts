/**
 * Call-routing setup of a number: extension entries, their forwards, defaults and cleaning before
 * save, and the displayed route type (foundation §3 "Call-routing setup for a number (extension
 * entry)", "Forward"; spec 002 §3 "Number", "Forward", "Extension entry").
 */
import { normalizeGeoStates } from './geo.js';
import { CONFIRM_KEY_WAIT_DEFAULT_S, RING_TIMEOUT_DEFAULT_S } from './constants.js';
import { defaultSchedule, SCHEDULE_PRESET, type Schedule } from './schedule.js';

/** Routing types (foundation §3). */
export const ROUTE_TYPES = ['standard', 'simultaneous', 'sequential', 'geo', 'voicemail', 'in-app-calling'] as const;

/** A routing type. */
export type RouteType = (typeof ROUTE_TYPES)[number];

/** A forward of a routing entry (foundation §3 "Forward"). */
export interface Forward {
  /** Number to ring. */
  number: string;
  /** Client-side validity flag; removed before saving. */
  valid?: boolean;
  /** Client-side international-number flag; removed before saving. */
  international?: boolean;
  /** Client-side update time; removed before saving. */
  updated_at?: string;
  /** Geo routing: two-letter state/province codes this forward serves (see geo.ts); omitted when none. */
  states?: string[];
}

/** One extension entry of a number's call-routing setup (foundation §3). */
export interface RouteEntry {
  /** Extension number the caller dials (default 1). */
  extension: number;
  label: string;
  forwards: Forward[];
  /** Business hours of the entry. */
  schedule: Schedule;
  /** Ring the forwards one after another with a delay instead of all at once. */
  stagger: boolean;
  /** Show the caller's number to the forward instead of the tracking number. */
  caller_id_pass_thru: boolean;
  type: RouteType;
  /** Key the answering person presses to accept the call (see CONFIRM_KEY_CHOICES); null = off. */
  confirm_key: number | null;
  /** Seconds to wait for the confirm key. */
  confirm_key_wait: number;
  /** Seconds to ring before giving up. */
  timeout: number;
  onhold_music_id: number | null;
  geo_by_state_enabled: boolean;
  geo_by_state_static_fallback: boolean;
  /** Text whispered to the answering person before the confirm key. */
  confirm_whisper: string;
  email_alert_address: string;
  voicemail_enabled: boolean;
  /** Round-robin mode; null = none. */
  round_robin: string | null;
}

/** Extension of a new entry, and of an entry without one (foundation §3). */
export const DEFAULT_EXTENSION = 1;

/**
 * A new extension entry with the foundation's defaults (foundation §3 table): extension 1, label "",
 * no forwards, the default schedule, stagger off, caller_id_pass_thru on, type "standard",
 * confirm_key off (null), confirm_key_wait 10 s, timeout 20 s, onhold_music_id null,
 * geo_by_state_enabled off, geo_by_state_static_fallback on, confirm_whisper "",
 * email_alert_address "", voicemail_enabled off, round_robin none (null).
 *
 * @param timezone IANA zone of the default schedule ("UTC" when missing or unknown)
 */
export function newRouteEntry(timezone?: string | null): RouteEntry {
  return {
    extension: DEFAULT_EXTENSION,
    label: '',
    forwards: [],
    schedule: defaultSchedule(timezone),
    stagger: false,
    caller_id_pass_thru: true,
    type: 'standard',
    confirm_key: null,
    confirm_key_wait: CONFIRM_KEY_WAIT_DEFAULT_S,
    timeout: RING_TIMEOUT_DEFAULT_S,
    onhold_music_id: null,
    geo_by_state_enabled: false,
    geo_by_state_static_fallback: true,
    confirm_whisper: '',
    email_alert_address: '',
    voicemail_enabled: false,
    round_robin: null,
  };
}

/**
 * Forwards ready to save (foundation §3): the validity, international and update-time fields are
 * removed, numbers are trimmed, and forwards whose number is empty are dropped.
 *
 * @param forwards the edited forwards (missing → none)
 * @returns forwards holding `number` and, for geo routing, their normalized `states` (when any)
 */
export function cleanForwards(forwards: readonly Partial<Forward>[] | null | undefined): Forward[] {
  const out: Forward[] = [];
  for (const forward of forwards ?? []) {
    const number = typeof forward?.number === 'string' ? forward.number.trim() : '';
    if (number === '') continue;
    const states = normalizeGeoStates(forward?.states);
    out.push(states.length ? { number, states } : { number });
  }
  return out;
}

function toExtension(value: unknown): number {
  if (value === null || value === undefined || value === '') return DEFAULT_EXTENSION;
  const n = Number(value);
  return Number.isFinite(n) ? n : DEFAULT_EXTENSION;
}

/**
 * Extension entries ready to save (foundation §3): every missing field gets its default (see
 * {@link newRouteEntry}; a missing extension counts as 1, a numeric string extension becomes a
 * number), forwards are cleaned with {@link cleanForwards}, and entries are sorted by extension
 * ascending (entries with equal extensions keep their order). Only the {@link RouteEntry} fields are
 * kept.
 *
 * @param entries the edited entries
 * @param timezone IANA zone for entries without a schedule
 */
export function cleanRoutes(entries: readonly Partial<RouteEntry>[], timezone?: string | null): RouteEntry[] {
  return entries
    .map((entry): RouteEntry => {
      const d = newRouteEntry(timezone);
      return {
        extension: toExtension(entry.extension),
        label: entry.label ?? d.label,
        forwards: cleanForwards(entry.forwards),
        schedule: entry.schedule ?? d.schedule,
        stagger: entry.stagger ?? d.stagger,
        caller_id_pass_thru: entry.caller_id_pass_thru ?? d.caller_id_pass_thru,
        type: entry.type ?? d.type,
        confirm_key: entry.confirm_key ?? d.confirm_key,
        confirm_key_wait: entry.confirm_key_wait ?? d.confirm_key_wait,
        timeout: entry.timeout ?? d.timeout,
        onhold_music_id: entry.onhold_music_id ?? d.onhold_music_id,
        geo_by_state_enabled: entry.geo_by_state_enabled ?? d.geo_by_state_enabled,
        geo_by_state_static_fallback: entry.geo_by_state_static_fallback ?? d.geo_by_state_static_fallback,
        confirm_whisper: entry.confirm_whisper ?? d.confirm_whisper,
        email_alert_address: entry.email_alert_address ?? d.email_alert_address,
        voicemail_enabled: entry.voicemail_enabled ?? d.voicemail_enabled,
        round_robin: entry.round_robin ?? d.round_robin,
      };
    })
    .sort((a, b) => a.extension - b.extension);
}

/** Labels {@link displayRouteType} can return. */
export const ROUTE_DISPLAY_TYPES = [
  'Standard',
  'Simultaneous',
  'Sequential',
  'Staggered',
  'Geo Routing',
  'Voicemail',
  'In-App Calling',
  'Business Hours',
] as const;

/** A displayed route type. */
export type RouteDisplayType = (typeof ROUTE_DISPLAY_TYPES)[number];

/**
 * The route type shown for an entry (foundation §3 "A route's displayed type is derived: standard, a
 * stagger or multiple-forward variant, or a preset-hours type"; spec 002 §3). Design decision, first
 * rule that applies wins:
 * 1. type "voicemail", or schedule preset 5 (Direct Voicemail) → "Voicemail";
 * 2. type "in-app-calling" → "In-App Calling";
 * 3. type "geo", or geo_by_state_enabled → "Geo Routing";
 * 4. a schedule with limited hours (preset 2, 3, 4 or 6) → "Business Hours" (the preset-hours type);
 * 5. two or more forwards with a number: stagger on → "Staggered"; type "sequential" →
 *    "Sequential"; otherwise "Simultaneous" (all ring at once);
 * 6. otherwise → "Standard" (one forward, or none).
 * `voicemail_enabled` (voicemail after no answer) does not change the displayed type.
 *
 * @param entry the entry (missing fields take their defaults)
 */
export function displayRouteType(entry: Partial<RouteEntry>): RouteDisplayType {
  const preset = entry.schedule ? Number(entry.schedule.preset) : SCHEDULE_PRESET.ALWAYS_OPEN;
  if (entry.type === 'voicemail' || preset === SCHEDULE_PRESET.DIRECT_VOICEMAIL) return 'Voicemail';
  if (entry.type === 'in-app-calling') return 'In-App Calling';
  if (entry.type === 'geo' || entry.geo_by_state_enabled === true) return 'Geo Routing';
  if (
    preset === SCHEDULE_PRESET.WEEKDAYS_9_TO_5 ||
    preset === SCHEDULE_PRESET.WEEKENDS_9_TO_5 ||
    preset === SCHEDULE_PRESET.CUSTOM ||
    preset === SCHEDULE_PRESET.BUSINESS_HOURS
  ) {
    return 'Business Hours';
  }
  if (cleanForwards(entry.forwards).length >= 2) {
    if (entry.stagger === true) return 'Staggered';
    return entry.type === 'sequential' ? 'Sequential' : 'Simultaneous';
  }
  return 'Standard';
}
