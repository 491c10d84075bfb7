/**
 * Business constants and limits (foundation §9, spec 001 §9, spec 002 §9) and the display formats
 * they define (currency, time, date). Durations are in milliseconds unless the name ends in `_S`
 * (seconds), `_MINUTES`, `_DAYS` or `_YEARS`.
 */
import { localTimeZone, resolveTimeZone, zonedDateTime } from './timezone.js';

// --- Notices and errors (foundation §4, §8, §9) ---

/** A standard notice hides itself after this long (foundation §4, §9). */
export const NOTICE_AUTO_HIDE_MS = 5000;
/** Where a standard notice appears by default (foundation §4: "at centre"). */
export const NOTICE_DEFAULT_POSITION = 'center';
/** How long an error toast stays (foundation §8, §9: 10 s). */
export const ERROR_TOAST_MS = 10_000;
/** How long a billing-update failure toast stays (foundation §9, spec 001 §8: 30 s). */
export const BILLING_ERROR_TOAST_MS = 30_000;
/** How many times an HTTP 429 answer is retried (foundation §8, §9). */
export const RATE_LIMIT_RETRIES = 3;
/** Wait before a 429 retry when the answer has no retry-after value (foundation §8, §9). */
export const RATE_LIMIT_DEFAULT_WAIT_MS = 5000;
/** Delay between logging out and the after-logout signal (foundation §8, §9). */
export const LOGOUT_DELAY_MS = 500;

// --- Live data (foundation §4, §9; spec 002 §4, §9) ---

/** Delay before company-related data is refreshed after switching company (foundation §4, §9). */
export const COMPANY_SWITCH_REFRESH_DELAY_MS = 150;
/** A finished background job entry is removed this long after it finished (foundation §4, §9: 5 s). */
export const FINISHED_JOB_REMOVAL_MS = 5000;
/** SMS verification data is refreshed this long after a cancel (spec 002 §4, §9: 15 s). */
export const SMS_VERIFICATION_CANCEL_REFRESH_MS = 15_000;
/** After a plan migration the company data refreshes after this long (spec 002 §4, §9: 1 s). */
export const PLAN_MIGRATE_COMPANY_REFRESH_MS = 1000;
/** After a plan migration the invoices refresh after this long (spec 002 §4, §9: 5 s). */
export const PLAN_MIGRATE_INVOICES_REFRESH_MS = 5000;
/** An inactive consumer number is removed this many days ahead (spec 002 §4, §9). */
export const INACTIVE_CONSUMER_NUMBER_REMOVAL_DAYS = 30;

// --- Call routing and schedules (foundation §3, §9) ---

/** Default confirm-key wait of a routing entry, in seconds (foundation §3, §9). */
export const CONFIRM_KEY_WAIT_DEFAULT_S = 10;
/** Default ring timeout of a routing entry, in seconds (foundation §3, §9). */
export const RING_TIMEOUT_DEFAULT_S = 20;
/** Step between schedule time choices, in minutes (foundation §3, §9). */
export const SCHEDULE_STEP_MINUTES = 15;

// --- Page sizes and limits (foundation §5, §9; spec 001 §7, §9; spec 002 §9) ---

/** Default perPage of GET /companies/{companyId}/extension-suggestions (foundation §9, spec 002 §7). */
export const EXTENSION_SUGGESTIONS_PER_PAGE = 10;
/** Default perPage of the organizations list (foundation §9, spec 002 §9). */
export const ORGANIZATIONS_PER_PAGE = 1000;
/** Default limit of a phone search (foundation §5, spec 002 §5). */
export const PHONE_SEARCH_DEFAULT_LIMIT = 1;
/** Page size of the blocked callers list, all pages fetched (spec 001 §7, §9). */
export const BLOCKS_PER_PAGE = 50;
/** Default perPage of the blocked callers query version (spec 001 §7, §9). */
export const BLOCKS_QUERY_PER_PAGE = 1000;
/** Page size of the campaign list (spec 001 §7, §9). */
export const CAMPAIGNS_PER_PAGE = 13;
/** Page size of campaign events (spec 001 §7, §9). */
export const CAMPAIGN_EVENTS_PER_PAGE = 10;
/** Default page size of alerts (spec 001 §7, §9). */
export const ALERTS_PER_PAGE = 10;
/** Default page size of inbox conversations (spec 001 §7, §9). */
export const CONVERSATIONS_PER_PAGE = 5;
/** Default window of a conversation search, in years (spec 001 §5, §9). */
export const CONVERSATION_SEARCH_WINDOW_YEARS = 2;
/** Page size of consumer invitations (spec 002 §7, §9). */
export const CONSUMER_INVITATIONS_PER_PAGE = 1000;
/** Page size of the slim companies list (spec 002 §9). */
export const COMPANIES_SLIM_PER_PAGE = 100;

// --- Messaging (spec 001 §3, §5, §9) ---

/** Maximum SMS length: body plus unsubscribe text, in characters (spec 001 §5, §9). */
export const SMS_MAX_LENGTH = 1000;
/** Maximum MMS length: body plus unsubscribe text, in characters (spec 001 §5, §9). */
export const MMS_MAX_LENGTH = 1000;
/** Length allowed for each campaign merge field, in characters (spec 001 §3, §9). */
export const MERGE_FIELD_LENGTH = 10;
/** Unsubscribe text of a new campaign (spec 001 §5, §9). */
export const DEFAULT_UNSUBSCRIBE_TEXT = 'Reply STOP to stop';
/** Monthly message volume buckets of the brand form (spec 002 §3, §9), exact values. */
export const MONTHLY_MESSAGE_VOLUMES = ['10_000', '25_000', '60_000', 'HIGH'] as const;

// --- Time (foundation §9) ---

/** One hour in milliseconds (foundation §9). */
export const ONE_HOUR_MS = 3_600_000;
/** One day in milliseconds (foundation §9). */
export const ONE_DAY_MS = 86_400_000;

/**
 * How long unused cached data is kept, in milliseconds (foundation §7 "60 seconds", §9; spec 001 §9;
 * spec 002 §9). `company` is unlimited (`Infinity`).
 */
export const CACHE_MS = {
  default: 60_000,
  dashboard: 15_000,
  numberSearch: 300_000,
  timelineEvents: 5000,
  smsVerification: 180_000,
  conversations: 600_000,
  counts: 30_000,
  analyticsActivity: 5000,
  company: Infinity,
} as const;

// --- Display formats (foundation §9) ---

/** Locale of currency display (foundation §9). */
export const CURRENCY_LOCALE = 'en-US';
/** Currency of currency display (foundation §9). */
export const CURRENCY = 'USD';
/** Time display pattern (foundation §9), as implemented by {@link formatTime}. */
export const TIME_FORMAT = 'h:mm A';
/** Date display pattern within the current year (foundation §9), as implemented by {@link formatDate}. */
export const DATE_FORMAT = 'MMM D';
/** Date display pattern for another year (foundation §9), as implemented by {@link formatDate}. */
export const DATE_FORMAT_WITH_YEAR = 'MMM D, YYYY';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const wholeFormat = new Intl.NumberFormat(CURRENCY_LOCALE, {
  style: 'currency',
  currency: CURRENCY,
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const fractionFormat = new Intl.NumberFormat(CURRENCY_LOCALE, {
  style: 'currency',
  currency: CURRENCY,
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/**
 * Formats an amount of US dollars (foundation §9 "en-US USD, at least 2 decimals when the value has
 * a fractional part"). Whole amounts show no decimals; other amounts show 2 to 4 decimals (4 keeps
 * per-minute rates such as $0.0125 readable; design decision).
 *
 * @param value dollars, as a number or a numeric string (API amounts may be strings)
 * @returns e.g. 5 → "$5", 5.5 → "$5.50", 1234.5 → "$1,234.50", -5 → "-$5"; "" for non-numeric input
 */
export function formatCurrency(value: number | string): string {
  if (typeof value === 'string' && value.trim() === '') return '';
  const amount = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(amount)) return '';
  return (Number.isInteger(amount) ? wholeFormat : fractionFormat).format(amount);
}

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Formats a time of day as "h:mm A" (foundation §9), e.g. "9:05 AM", "12:30 PM", "12:00 AM".
 *
 * @param date a Date, an ISO string or epoch milliseconds
 * @param tz IANA zone to read the wall clock in; the runtime's zone when omitted, "UTC" when unknown
 * @returns the time text, or "" for an invalid date
 */
export function formatTime(date: Date | string | number, tz?: string): string {
  const instant = toDate(date);
  if (!instant) return '';
  const { hour, minute } = zonedDateTime(instant, tz === undefined ? localTimeZone() : resolveTimeZone(tz));
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${hour12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * Formats a date as "MMM D", or "MMM D, YYYY" when its year differs from the year of `now`
 * (foundation §9), both read in the same zone. Months are English abbreviations "Jan".."Dec".
 *
 * @param date a Date, an ISO string or epoch milliseconds
 * @param now the reference moment (default: the current time)
 * @param tz IANA zone; the runtime's zone when omitted, "UTC" when unknown
 * @returns e.g. "Mar 8" or "Mar 8, 2025"; "" for an invalid date
 */
export function formatDate(date: Date | string | number, now: Date = new Date(), tz?: string): string {
  const instant = toDate(date);
  if (!instant) return '';
  const zone = tz === undefined ? localTimeZone() : resolveTimeZone(tz);
  const { year, month, day } = zonedDateTime(instant, zone);
  const reference = toDate(now);
  const sameYear = reference !== null && zonedDateTime(reference, zone).year === year;
  const text = `${MONTHS[month - 1]} ${day}`;
  return sameYear ? text : `${text}, ${year}`;
}
