/**
 * Geo routing and round robin across forwards (foundation §3 "geo_by_state_enabled",
 * "geo_by_state_static_fallback", "round_robin"; docs/telephony.md "Call flow": geo routing sends callers by their state to
 * the matching forwards, with the static fallback when enabled; round robin across forwards, the next
 * call starting with the next forward).
 *
 * Design of the forward `states` field (docs/domain-decisions.md): a geo forward carries
 * `states: string[]`, the two-letter USPS state / Canadian province codes it serves (upper case, as in
 * `REGION_NAMES`); a forward with no `states` (missing, null or empty) is a static forward, used only as
 * the fallback. The caller's state comes from the caller's area code (`regionOfNumber`).
 */
import { REGION_NAMES } from './area-codes.js';

/** A forward as seen by geo routing: its number and the states it serves. */
export interface GeoForward {
  number: string;
  /** Two-letter state/province codes served; missing or empty = static (fallback) forward. */
  states?: readonly string[] | null;
}

/**
 * Cleans a forward's `states` for saving: trimmed, upper-cased, known codes only (50 states, DC,
 * Canadian provinces and territories), without duplicates, in the given order.
 *
 * @param states codes as entered, e.g. [" ny", "CA", "xx"]
 * @returns e.g. ["NY", "CA"]
 */
export function normalizeGeoStates(states: ReadonlyArray<string | null | undefined> | null | undefined): string[] {
  const out: string[] = [];
  for (const state of states ?? []) {
    const code = (state ?? '').trim().toUpperCase();
    if (Object.hasOwn(REGION_NAMES, code) && !out.includes(code)) out.push(code);
  }
  return out;
}

const hasStates = (forward: GeoForward): boolean => (forward.states ?? []).some((s) => s.trim() !== '');

/**
 * The forwards a geo-routed call rings (spec 000 §3 "geo_by_state_enabled"): those whose `states` include the caller's state
 * (two-letter code, case-insensitive); when none match (or the caller's state is unknown) and the
 * static fallback is on, the forwards without states; otherwise none.
 *
 * @param fromState the caller's state, e.g. from `regionOfNumber(caller)`; null when unknown
 * @param forwards the entry's forwards, in order
 * @param staticFallback the entry's `geo_by_state_static_fallback`
 * @returns the matching forwards in their order (the same objects), possibly []
 */
export function matchGeoForward<T extends GeoForward>(fromState: string | null | undefined, forwards: readonly T[], staticFallback: boolean): T[] {
  const state = (fromState ?? '').trim().toUpperCase();
  if (state !== '') {
    const matches = forwards.filter((f) => (f.states ?? []).some((s) => s.trim().toUpperCase() === state));
    if (matches.length > 0) return matches;
  }
  return staticFallback ? forwards.filter((f) => !hasStates(f)) : [];
}

/** Result of {@link nextRoundRobin}. */
export interface RoundRobinTurn<T> {
  /** The forwards in the order this call tries them. */
  forwards: T[];
  /** Index (in the original list) of the forward this call starts with; store it for the next call. null when there are no forwards. */
  cursor: number | null;
}

/**
 * Round robin across forwards (spec 000 §3 "round_robin": the next call starts with the next forward): the list rotated
 * so it starts with the forward after the one the previous call started with.
 *
 * @param forwards the forwards in their configured order
 * @param cursor index the previous call started with (null/undefined/negative: none yet, start at 0);
 *   an index past the end (the list shrank) wraps around
 * @returns the rotated list and the new cursor
 * @example nextRoundRobin(['a','b','c'], 0) // { forwards: ['b','c','a'], cursor: 1 }
 */
export function nextRoundRobin<T>(forwards: readonly T[], cursor: number | null | undefined): RoundRobinTurn<T> {
  const n = forwards.length;
  if (n === 0) return { forwards: [], cursor: null };
  const last = typeof cursor === 'number' && Number.isInteger(cursor) && cursor >= 0 ? cursor : -1;
  const start = (last + 1) % n;
  return { forwards: [...forwards.slice(start), ...forwards.slice(0, start)], cursor: start };
}
