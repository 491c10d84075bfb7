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

/** A positive integer id taken from a path or query string. */
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
