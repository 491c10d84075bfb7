/**
 * Extension numbers and confirm keys of a call-routing setup (foundation §3 "Confirm key choices",
 * §5 "Extension suggestion"; spec 002 §7 GET /companies/{companyId}/extension-suggestions).
 */
import { EXTENSION_SUGGESTIONS_PER_PAGE } from './constants.js';

/** Above this value a suggestion falls back to the lowest unused extension (foundation §5). */
export const EXTENSION_SUGGESTION_LIMIT = 25;

/** Confirm key value stored for "*" (foundation §3). */
export const CONFIRM_KEY_STAR = 65535;

/** Confirm key value stored for "#" (foundation §3). */
export const CONFIRM_KEY_HASH = 65534;

/** Highest digit confirm key (foundation §3: digits 0 to 25). */
export const MAX_CONFIRM_DIGIT = 25;

/** One choice of the confirm-key select. */
export interface ConfirmKeyChoice {
  label: string;
  value: number;
}

/**
 * Confirm key choices (foundation §3): "*" (65535), "#" (65534), then "0" to "25" with their numeric values.
 * "Off" is not a choice: a route stores `confirm_key: null` for off.
 */
export const CONFIRM_KEY_CHOICES: readonly ConfirmKeyChoice[] = [
  { label: '*', value: CONFIRM_KEY_STAR },
  { label: '#', value: CONFIRM_KEY_HASH },
  ...Array.from({ length: MAX_CONFIRM_DIGIT + 1 }, (_, n) => ({ label: String(n), value: n })),
];

/**
 * Suggests the next extension number (foundation §5 "Extension suggestion"):
 * no extensions → 0; otherwise the highest existing plus 1; if that exceeds 25 and fewer than 25
 * extensions exist, the lowest unused number from 0 to 24 instead.
 *
 * @param existing extension numbers already used (duplicates, negatives and non-integers are ignored)
 * @returns the suggested extension number
 */
export function suggestExtension(existing: readonly number[]): number {
  const used = new Set(existing.filter((n) => Number.isInteger(n) && n >= 0));
  if (used.size === 0) return 0;
  const next = Math.max(...used) + 1;
  if (next > EXTENSION_SUGGESTION_LIMIT && used.size < EXTENSION_SUGGESTION_LIMIT) {
    for (let n = 0; n < EXTENSION_SUGGESTION_LIMIT; n += 1) if (!used.has(n)) return n;
  }
  return next;
}

/**
 * The next `perPage` suggestions (spec 002 §7 GET /companies/{companyId}/extension-suggestions,
 * perPage default 10): each one is {@link suggestExtension} applied to the existing extensions
 * plus the suggestions before it, so the list has no duplicates and follows the same rule.
 *
 * @param existing extension numbers already used
 * @param perPage how many suggestions (default 10; 0 or less gives an empty list)
 * @returns suggested extension numbers, in suggestion order
 */
export function suggestExtensions(existing: readonly number[], perPage: number = EXTENSION_SUGGESTIONS_PER_PAGE): number[] {
  const taken = [...existing];
  const out: number[] = [];
  for (let i = 0; i < perPage; i += 1) {
    const next = suggestExtension(taken);
    out.push(next);
    taken.push(next);
  }
  return out;
}

/**
 * The DTMF key a caller presses for a stored confirm key value (foundation §3).
 *
 * @param value 65535 ("*"), 65534 ("#") or a digit key 0 to 25
 * @returns "*", "#", the digits as a string ("0".."25"), or `null` for off (null) or an unknown value
 */
export function confirmKeyToDtmf(value: number | null | undefined): string | null {
  if (value === CONFIRM_KEY_STAR) return '*';
  if (value === CONFIRM_KEY_HASH) return '#';
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_CONFIRM_DIGIT) return String(value);
  return null;
}
