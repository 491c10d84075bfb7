/**
 * Shapes shared by every route: the error body (foundation §8), id params, paging meta.
 */
import { z } from 'zod';

/** `{"message": string, "errors"?: {field: [messages]}}` — every 4xx/5xx answer. */
export const ErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Standard error responses to spread into a route's `response` map. */
export const errorResponses = {
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
} as const;

/**
 * A positive integer id taken from a path, query or body (a number or its decimal text): every
 * route takes ids through this one schema, so 1.5, -1, 0, 1e308, 2^63 or text answer 422 (zod's
 * `int()` is limited to the safe integers, 2^53 - 1; ids are bigint in the database).
 */
export const Id = z.coerce.number().int().positive();
export const IdParams = z.object({ id: Id });
export const CompanyParams = z.object({ companyId: Id });

/** A success answer carrying only a message. */
export const MessageBody = z.object({ message: z.string() });

/** Page-numbered list meta (spec 002 numbers datatable: current_page, total, last_page). */
export const PageMeta = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
});
export type PageMeta = z.infer<typeof PageMeta>;

/** Query flags sent as "1"/"0"/"true"/"false". */
export const BoolFlag = z.union([z.boolean(), z.enum(['1', '0', 'true', 'false'])]).transform((v) => v === true || v === '1' || v === 'true');

/** ISO-8601 timestamp in UTC (output). */
export const Timestamp = z.string();

const TIMESTAMP_TEXT = /^(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,6})?)?)?(?:Z|[+-](\d\d)(?::?(\d\d))?)?$/;

/**
 * Whether `text` is a date or timestamp PostgreSQL accepts as written (`YYYY-MM-DD`, optional
 * `HH:MM[:SS[.ffffff]]` and zone): a real calendar day (leap years included), hours 0-23, minutes
 * and seconds 0-59, zone offset up to ±15:59, year 1-9999. Used before such text reaches a query
 * (an impossible date is a 422, not a database error).
 */
export function isRealTimestampText(text: string): boolean {
  const m = TIMESTAMP_TEXT.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 1 : 0);
  if (day > daysInMonth) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false;
  if (m[7] !== undefined && (Number(m[7]) > 15 || Number(m[8] ?? 0) > 59)) return false;
  return true;
}

/** A date or timestamp text that {@link isRealTimestampText} accepts (422 "The date is not a real date." otherwise). */
export const TimestampText = z.string().max(40).refine(isRealTimestampText, 'The date is not a real date.');

/** Query arrays: bracket arrays (`a[]=1&a[]=2`), an object of values, a single value or a comma list → an array (absent: undefined). */
export function queryArray(v: unknown): unknown {
  if (v === undefined || v === null || v === '') return undefined;
  if (Array.isArray(v)) return v;
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>);
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** An optional query list of `item`, at most `max` entries (see `queryArray`). */
export const queryList = <T extends z.ZodType>(item: T, max = 500) => z.preprocess(queryArray, z.array(item).max(max).optional());

/** An optional query flag: `1`/`0`/`true`/`false` (absent: no filter). */
export const queryFlag = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v === 1 ? true : v === 0 ? false : v),
  z
    .union([z.boolean(), z.enum(['1', '0', 'true', 'false'])])
    .transform((v) => v === true || v === '1' || v === 'true')
    .optional(),
);
