/**
 * The operators' view of the domain-event outbox (docs/operations.md "Domain-event outbox"), for the
 * screen at `/ops/outbox` and scripts. Operators only (`access.operator()`: never an API key):
 * - GET  /api/ops/outbox: every consumer's backlog, retries, dead letters and lag (s), newest dead letters.
 * - POST /api/ops/outbox/consumers/{consumer}/retry {eventId?}: dead letters due again.
 * - POST /api/ops/outbox/consumers/{consumer}/replay {since, companyId?}: the consumer takes its events again from `since`.
 * Also the metrics `outbox_consumer_lag_seconds`, `outbox_consumer_pending`, `outbox_consumer_dead`,
 * `outbox_deliveries_total{consumer,outcome}` and the outbox's own cost `outbox_cost_seconds_total{step,event}` /
 * `outbox_cost_total{step,event}` (step `emit` inside the change's transaction, `dispatch` after commit) on `/metrics`.
 */
import { errorResponses, OutboxConsumerParams, OutboxCount, OutboxReplayBody, OutboxRetryBody, OutboxStatus } from '@switchboard/contracts';
import { z } from 'zod';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../../context.js';
import { access } from '../http/access.js';
import type { App } from '../http/app-type.js';
import { NotFoundError } from '../http/errors.js';
import { events } from './bus.js';
import { deadLetters, outboxStatus, replayConsumer, retryDeadLetters } from './outbox.js';

// The shapes are the contracts' (packages/contracts/src/ops.ts), shared with the web's screen.
const Status = OutboxStatus;
const ConsumerParams = OutboxConsumerParams;
const RetryBody = OutboxRetryBody;
const ReplayBody = OutboxReplayBody;
const Count = OutboxCount;

/** Registers the operators' outbox routes. */
export function registerOutboxRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/ops/outbox',
    {
      config: { access: access.operator() },
      schema: {
        tags: ['ops'],
        summary: 'Domain-event outbox: consumers with backlog, retries, dead letters and lag; newest dead letters (operators)',
        response: { 200: Status, ...errorResponses },
      },
    },
    async () => ({ consumers: await outboxStatus(ctx), deadLetters: await deadLetters(ctx) }),
  );
  app.post(
    '/api/ops/outbox/consumers/:consumer/retry',
    {
      config: { access: access.operator() },
      schema: {
        tags: ['ops'],
        summary: "Retry a consumer's dead letters (all, or one event's) (operators)",
        params: ConsumerParams,
        body: RetryBody,
        response: { 200: Count, ...errorResponses },
      },
    },
    async (request) => {
      const { consumer } = request.params as z.infer<typeof ConsumerParams>;
      const { eventId } = (request.body ?? {}) as z.infer<typeof RetryBody>;
      const count = await retryDeadLetters(ctx, consumer, eventId);
      return { message: `${count} dead letter${count === 1 ? '' : 's'} will be retried.`, count };
    },
  );
  app.post(
    '/api/ops/outbox/consumers/:consumer/replay',
    {
      config: { access: access.operator() },
      schema: {
        tags: ['ops'],
        summary: 'Replay a consumer from a point in time, for one company or all (operators)',
        params: ConsumerParams,
        body: ReplayBody,
        response: { 200: Count, ...errorResponses },
      },
    },
    async (request) => {
      const { consumer } = request.params as z.infer<typeof ConsumerParams>;
      const { since, companyId } = request.body as z.infer<typeof ReplayBody>;
      if (!events.has(consumer)) throw new NotFoundError('Consumer');
      const count = await replayConsumer(ctx, consumer, since, companyId);
      return { message: `${count} event${count === 1 ? '' : 's'} will be delivered to ${consumer} again.`, count };
    },
  );
}

/**
 * Outbox metrics on `registry`: per consumer lag (s), backlog and dead letters (read from the
 * database at scrape time, at most once every 5 s), and a counter of finished deliveries by outcome.
 * @returns a function that stops observing deliveries.
 */
export function registerOutboxMetrics(ctx: AppContext, registry: Registry): () => void {
  let last = 0;
  let cached: Awaited<ReturnType<typeof outboxStatus>> = [];
  const read = async () => {
    if (Date.now() - last > 5_000) {
      last = Date.now();
      cached = await outboxStatus(ctx).catch(() => cached);
    }
    return cached;
  };
  const gauge = (name: string, help: string, pick: (c: (typeof cached)[number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['consumer'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const c of await read()) this.set({ consumer: c.consumer }, pick(c));
      },
    });
  gauge('outbox_consumer_lag_seconds', 'Age of the oldest pending delivery per consumer, seconds', (c) => c.lagS);
  gauge('outbox_consumer_pending', 'Pending deliveries per consumer', (c) => c.pending);
  gauge('outbox_consumer_dead', 'Dead letters per consumer', (c) => c.dead);
  const done = new Counter({
    name: 'outbox_deliveries_total',
    help: 'Finished deliveries by consumer and outcome',
    labelNames: ['consumer', 'outcome'] as const,
    registers: [registry],
  });
  const commitToDone = new Gauge({
    name: 'outbox_last_commit_to_done_seconds',
    help: 'Time from commit to a delivery done, last seen per consumer',
    labelNames: ['consumer'] as const,
    registers: [registry],
  });
  const costSeconds = new Counter({
    name: 'outbox_cost_seconds_total',
    help: "Time spent by the outbox: step 'emit' (the write inside the change's transaction) or 'dispatch' (the after-commit run, sleeps excluded), by event (a batch's first)",
    labelNames: ['step', 'event'] as const,
    registers: [registry],
  });
  const costCount = new Counter({
    name: 'outbox_cost_total',
    help: 'Emits and dispatch rounds counted in outbox_cost_seconds_total',
    labelNames: ['step', 'event'] as const,
    registers: [registry],
  });
  const handlerSeconds = new Counter({
    name: 'outbox_handler_seconds_total',
    help: "Time consumers' handlers ran (wall clock, waits included), by consumer",
    labelNames: ['consumer'] as const,
    registers: [registry],
  });
  const stopHandlers = events.observeHandlers((consumer, seconds) => handlerSeconds.inc({ consumer }, seconds));
  const stopCost = events.observeCost((step, event, seconds) => {
    costSeconds.inc({ step, event }, seconds);
    costCount.inc({ step, event });
  });
  const stopDone = events.observe((consumer, outcome, lagMs) => {
    done.inc({ consumer, outcome });
    if (outcome === 'done') commitToDone.set({ consumer }, lagMs / 1000);
  });
  return () => {
    stopHandlers();
    stopCost();
    stopDone();
  };
}
