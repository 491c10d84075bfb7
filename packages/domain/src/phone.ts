/**
 * Phone number parsing, validation and display (foundation §5 "Validation rules", §9 "Default country").
 *
 * Uses libphonenumber-js with its `max` metadata so that validity is exact (for example the
 * fictional 555 area code is rejected), not just a length check.
 */
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';

/** Default country for parsing numbers typed without a country code (foundation §5, §9). */
export const DEFAULT_COUNTRY = 'US';

/** Length of a US (NANP) area code, in digits (foundation §5). */
export const US_AREA_CODE_LENGTH = 3;

/** Countries whose numbers are displayed in national form, e.g. "(212) 555-0123". */
const NATIONAL_DISPLAY_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA']);

function toCountry(country: string | undefined): CountryCode | undefined {
  if (!country) return undefined;
  const upper = country.toUpperCase();
  return isSupportedCountry(upper) ? upper : undefined;
}

function parseValid(input: string, country: CountryCode | undefined): PhoneNumber | null {
  const parsed = parsePhoneNumberFromString(input, country);
  return parsed && parsed.isValid() ? parsed : null;
}

/** Parses as entered, then retried with a "+1" prefix (a leading "+" typed by the user is replaced). */
function parseWithRetry(input: string, country: string): PhoneNumber | null {
  const text = input.trim();
  if (text === '') return null;
  const defaultCountry = toCountry(country);
  return parseValid(text, defaultCountry) ?? parseValid(`+1${text.replace(/^\+/, '')}`, defaultCountry);
}

/**
 * Parses a phone number typed by a person or stored by the product (foundation §5 "Phone parsing").
 *
 * The number is tried as entered with `country` (ISO 3166-1 alpha-2, default "US") as the default
 * country; if that is not a valid number it is retried with a "+1" prefix; if still invalid the
 * result is `null`.
 *
 * @param input any text, e.g. "(212) 555-0123", "12125550123", "+44 20 7183 8750"
 * @param country default country for numbers without a "+" country code; unknown codes mean none
 * @returns the number in E.164 form ("+12125550123"), or `null` when it is not a valid number
 * @example parsePhone('2125550123') // '+12125550123'
 * @example parsePhone('15551234567') // null (555 is not a real area code)
 */
export function parsePhone(input: string, country: string = DEFAULT_COUNTRY): string | null {
  return parseWithRetry(input, country)?.number ?? null;
}

/**
 * Whether `input` parses to a valid phone number under {@link parsePhone}'s rules (foundation §5).
 *
 * @param input any text
 * @param country default country, "US" unless given
 */
export function isValidPhone(input: string, country: string = DEFAULT_COUNTRY): boolean {
  return parsePhone(input, country) !== null;
}

/**
 * Display form of a phone number (foundation §5 "For display, an invalid number is shown unchanged").
 *
 * US and Canadian numbers use the national form "(212) 555-0123"; every other country uses the
 * international form "+44 20 7183 8750". Input that is not a valid number is returned unchanged.
 *
 * @param e164OrRaw an E.164 number or raw text parsed with {@link parsePhone}'s rules
 * @returns the display text
 */
export function formatPhone(e164OrRaw: string): string {
  const parsed = parseWithRetry(e164OrRaw, DEFAULT_COUNTRY);
  if (!parsed) return e164OrRaw;
  return parsed.country && NATIONAL_DISPLAY_COUNTRIES.has(parsed.country) ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * Removes spaces, dashes and parentheses from a search text (spec 001 §5: a conversation search
 * that looks like a phone number has spaces, dashes and parentheses removed).
 *
 * @param q the search text, e.g. "(212) 555-0123"
 * @returns the text without those characters, e.g. "2125550123"
 */
export function stripPhoneSearch(q: string): string {
  return q.replace(/[\s()-]/g, '');
}

/**
 * Whether a search text looks like a phone number (spec 001 §5). Design decision (the spec does
 * not define it): after trimming, the text is an optional leading "+" followed only by digits,
 * spaces, dashes and parentheses, and holds at least 3 digits.
 *
 * @param q the search text
 */
export function looksLikePhone(q: string): boolean {
  const text = q.trim();
  if (!/^\+?[\d\s()-]+$/.test(text)) return false;
  return text.replace(/\D/g, '').length >= 3;
}

/**
 * Normalizes a conversation search text (spec 001 §5): a text that {@link looksLikePhone} is
 * stripped with {@link stripPhoneSearch}; any other text is only trimmed.
 *
 * @param q the search text
 * @returns the text to send as the `search` parameter
 */
export function normalizeConversationSearch(q: string): string {
  return looksLikePhone(q) ? stripPhoneSearch(q.trim()) : q.trim();
}

/**
 * Area code of a North American (NANP, country code 1) number (foundation §5 "US area code length is 3").
 *
 * Accepts "+1" or "1" or nothing, followed by 10 digits whose first digit is 2-9 (NANP area codes
 * never start with 0 or 1); spaces, dashes, dots and parentheses are ignored. Any other number
 * (another country code, wrong length) gives `null`. Validity of the number itself is not checked.
 *
 * @param e164 e.g. "+12125550123"
 * @returns the 3-digit area code, e.g. "212", or `null`
 */
export function areaCodeOf(e164: string): string | null {
  const text = e164.trim().replace(/[\s().-]/g, '');
  const match = /^(?:\+1|1)?([2-9]\d{9})$/.exec(text);
  return match ? match[1]!.slice(0, US_AREA_CODE_LENGTH) : null;
}
