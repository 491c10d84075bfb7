/**
 * zod schemas of the operators' routes (no spec: docs/operations.md "Domain-event outbox"): the outbox's status,
 * retrying dead letters and replaying a consumer. Shared by the server's routes
 * (`platform/events/outbox.routes.ts`) and the web's "Event delivery" screen (`/ops/outbox`). Times are
 * ISO-8601 UTC text; durations are seconds.
 */
import { z } from 'zod';

/**
 * One consumer of the outbox (`GET /api/ops/outbox` `consumers[]`): the events it takes, its deliveries pending,
 * those pending after a failed attempt (`retrying`, a subset of `pending`), dead letters, deliveries done in the
 * last hour, `lagS` (age of its oldest pending delivery, seconds, one decimal; 0 when none) and the newest error
 * of an unfinished delivery.
 */
export const OutboxConsumerStatus = z.object({
  consumer: z.string(),
  events: z.array(z.string()),
  pending: z.number().int(),
  retrying: z.number().int(),
  dead: z.number().int(),
  doneLastHour: z.number().int(),
  lagS: z.number(),
  lastError: z.string().nullable(),
});
export type OutboxConsumerStatus = z.infer<typeof OutboxConsumerStatus>;

/**
 * One dead letter (`GET /api/ops/outbox` `deadLetters[]`): a delivery that used up its attempts. `aggregate` is
 * `type:id` (e.g. `call:42`); `createdAt` is when the event was written (ISO-8601 UTC).
 */
export const OutboxDeadLetter = z.object({
  consumer: z.string(),
  eventId: z.number().int(),
  name: z.string(),
  aggregate: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxDeadLetter = z.infer<typeof OutboxDeadLetter>;

/** `GET /api/ops/outbox`: every consumer (by name) and the newest 100 dead letters, newest first. */
export const OutboxStatus = z.object({ consumers: z.array(OutboxConsumerStatus), deadLetters: z.array(OutboxDeadLetter) });
export type OutboxStatus = z.infer<typeof OutboxStatus>;

/** Path of `POST /api/ops/outbox/consumers/{consumer}/…`: the consumer's name (e.g. `analytics.facts`). */
export const OutboxConsumerParams = z.object({ consumer: z.string().min(1).max(100) });

/** `POST /api/ops/outbox/consumers/{consumer}/retry`: every dead letter of the consumer, or only `eventId`'s. */
export const OutboxRetryBody = z
  .object({
    eventId: z.coerce
      .number({ error: 'The event id must be a number.' })
      .int('The event id must be a number.')
      .positive('The event id must be a number.')
      .optional(),
  })
  .strict();
/** What the web sends to retry: nothing (all) or one event's id. */
export type OutboxRetryInput = { eventId?: number };

/**
 * `POST /api/ops/outbox/consumers/{consumer}/replay`: every event the consumer takes written at or after `since`
 * (an ISO-8601 instant), of one company when `companyId` is given, is delivered to it again.
 */
export const OutboxReplayBody = z
  .object({
    since: z.preprocess(
      // Text (ISO-8601) or a Date only: `new Date(null)` would be 1970 and replay everything.
      (v) => (v === null || v === '' ? undefined : typeof v === 'string' ? new Date(v) : v),
      z.date({ error: (issue) => (issue.input === undefined ? 'The since field is required.' : 'The since field must be a valid date.') }),
    ),
    companyId: z.coerce
      .number({ error: 'The company id must be a number.' })
      .int('The company id must be a number.')
      .positive('The company id must be a number.')
      .optional(),
  })
  .strict();
/** What the web sends to replay: `since` as ISO-8601 text, optionally one company's id. */
export type OutboxReplayInput = { since: string; companyId?: number };

/** Answer of retry and replay: a sentence for a notice and how many deliveries were (re)scheduled. */
export const OutboxCount = z.object({ message: z.string(), count: z.number().int() });
export type OutboxCount = z.infer<typeof OutboxCount>;
