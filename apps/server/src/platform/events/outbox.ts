/**
 * The outbox's workers and operators' tools (docs/architecture.md "Domain events", docs/operations.md
 * "Domain-event outbox").
 *
 * - {@link OutboxWorkers}: in every process that runs workers (`WORKERS=1`), claims due deliveries
 *   every `pollMs` (and at once when woken), runs up to `concurrency` at a time, and sweeps old
 *   events. A delivery interrupted by a crash runs again once its lease (30 s) expired; a failed one
 *   after its backoff; one whose consumer failed `maxAttempts` times is a dead letter.
 * - {@link outboxStatus}, {@link retryDeadLetters}, {@link replayConsumer}: what the operators'
 *   command (`npm run outbox -w apps/server`) and screen (`/api/ops/outbox`) show and do.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { claimDeliveries, events } from './bus.js';

/** Timings of the workers in ms (tests may lower them). */
export const outboxTuning = { pollMs: 500, concurrency: 8, batch: 64, sweepMs: 10 * 60_000, retentionDays: 7 };

/** Runs the outbox's deliveries in the background of one process. */
export class OutboxWorkers {
  private timer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private again = false;
  private failingSince = 0;

  constructor(private readonly ctx: AppContext) {}

  /** Starts polling (and sweeping). */
  start(): void {
    this.stopped = false;
    this.schedule(0);
    this.sweepTimer = setInterval(() => void this.sweep(), outboxTuning.sweepMs);
    this.sweepTimer.unref();
  }

  /** Runs a round now (or right after the current one). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Stops polling and waits for the deliveries in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.round().finally(() => {
        this.running = null;
      });
    }, ms);
    this.timer.unref();
  }

  /** One round: claim and run batches until fewer than a batch is due, then wait `pollMs`. */
  private async round(): Promise<void> {
    let next = outboxTuning.pollMs;
    try {
      for (;;) {
        this.again = false;
        const claimed = await claimDeliveries(this.ctx, { limit: outboxTuning.batch });
        if (claimed.length === 0) break;
        // One round: batch consumers take their deliveries together, the rest one by one, side by side.
        await events.runRound(this.ctx, claimed, { concurrency: outboxTuning.concurrency, stopped: () => this.stopped });
        if (this.stopped) return;
        if (claimed.length < outboxTuning.batch && !this.again) break;
      }
      this.failingSince = 0;
    } catch (e) {
      // The database is away (a restart, a failover): keep polling with a longer wait; log once a minute.
      if (!this.failingSince || Date.now() - this.failingSince > 60_000) {
        this.ctx.log.warn({ err: e }, 'domain-event outbox: polling failed; retrying');
        this.failingSince = Date.now();
      }
      next = Math.max(next, 2_000);
    }
    this.schedule(this.again ? 0 : next);
  }

  /** Removes events older than `retentionDays` whose every delivery is done (dead letters keep theirs). */
  private async sweep(): Promise<void> {
    try {
      // The event and its deliveries go in one statement (deliveries have no foreign key to their event: migration 0080).
      await sql`with gone as (
          delete from domain_events e where e.id in (
            select e2.id from domain_events e2
            where e2.created_at < now() - ${`${outboxTuning.retentionDays} days`}::interval
              and not exists (select 1 from event_deliveries d where d.event_id = e2.id and d.status <> 'done')
            limit 5000)
          returning e.id)
        delete from event_deliveries d using gone where d.event_id = gone.id`.execute(this.ctx.db);
    } catch (e) {
      this.ctx.log.warn({ err: e }, 'domain-event outbox: sweep failed');
    }
  }
}

/** One consumer's state in the outbox. `lagS`: age of its oldest pending delivery in seconds (0 when none). */
export type ConsumerStatus = {
  consumer: string;
  events: string[];
  pending: number;
  retrying: number;
  dead: number;
  doneLastHour: number;
  lagS: number;
  lastError: string | null;
};

/**
 * Every consumer known to this process or present in the outbox, with its backlog, retries, dead
 * letters and lag. Reads the whole delivery table's open rows (indexed): an operator's question.
 */
export async function outboxStatus(ctx: Pick<AppContext, 'db'>): Promise<ConsumerStatus[]> {
  const { rows } = await sql<{
    consumer: string;
    pending: number;
    retrying: number;
    dead: number;
    done_last_hour: number;
    oldest: Date | null;
    last_error: string | null;
  }>`
    select consumer,
      count(*) filter (where status = 'pending')::int as pending,
      count(*) filter (where status = 'pending' and attempts > 0 and last_error is not null)::int as retrying,
      count(*) filter (where status = 'dead')::int as dead,
      count(*) filter (where status = 'done' and done_at > now() - interval '1 hour')::int as done_last_hour,
      min(created_at) filter (where status = 'pending') as oldest,
      (array_agg(last_error order by event_id desc) filter (where last_error is not null and status <> 'done'))[1] as last_error
    from event_deliveries
    where status <> 'done' or done_at > now() - interval '1 hour'
    group by consumer`.execute(ctx.db);
  const byName = new Map(rows.map((r) => [r.consumer, r]));
  const names = new Set([...events.list().map((c) => c.consumer), ...byName.keys()]);
  const known = new Map(events.list().map((c) => [c.consumer, c.events]));
  const now = Date.now();
  return [...names].sort().map((consumer) => {
    const r = byName.get(consumer);
    return {
      consumer,
      events: known.get(consumer) ?? [],
      pending: r?.pending ?? 0,
      retrying: r?.retrying ?? 0,
      dead: r?.dead ?? 0,
      doneLastHour: r?.done_last_hour ?? 0,
      lagS: r?.oldest ? Math.max(0, Math.round((now - new Date(r.oldest).getTime()) / 100) / 10) : 0,
      lastError: r?.last_error ?? null,
    };
  });
}

/** A dead letter as the operators' screen lists it. */
export type DeadLetter = { consumer: string; eventId: number; name: string; aggregate: string; attempts: number; lastError: string | null; createdAt: string };

/** The newest dead letters (of one consumer when given), at most `limit` (default 100). */
export async function deadLetters(ctx: Pick<AppContext, 'db'>, consumer?: string, limit = 100): Promise<DeadLetter[]> {
  const { rows } = await sql<{
    consumer: string;
    event_id: number;
    name: string;
    aggregate_key: string;
    attempts: number;
    last_error: string | null;
    created_at: Date;
  }>`
    select d.consumer, d.event_id, e.name, d.aggregate_key, d.attempts, d.last_error, e.created_at
    from event_deliveries d join domain_events e on e.id = d.event_id
    where d.status = 'dead' and (${consumer ?? null}::text is null or d.consumer = ${consumer ?? null})
    order by d.event_id desc limit ${limit}`.execute(ctx.db);
  return rows.map((r) => ({
    consumer: r.consumer,
    eventId: r.event_id,
    name: r.name,
    aggregate: r.aggregate_key,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/**
 * Makes dead letters due again (attempts reset): all of `consumer`'s, or the one of `eventId`.
 * @returns how many deliveries were put back.
 */
export async function retryDeadLetters(ctx: Pick<AppContext, 'db'>, consumer: string, eventId?: number): Promise<number> {
  const r = await sql`update event_deliveries set status = 'pending', attempts = 0, next_at = now(), locked_until = null
    where consumer = ${consumer} and status = 'dead' and (${eventId ?? null}::bigint is null or event_id = ${eventId ?? null})`.execute(ctx.db);
  return Number(r.numAffectedRows ?? 0);
}

/**
 * Replays `consumer` from `since` (UTC): every event of the names it takes, written at or after
 * `since` (of one company when `companyId` is given: events whose payload names it), is delivered
 * to it again, in order per aggregate (its handlers are idempotent, so a replay repairs, never
 * doubles). Events older than the outbox's retention are gone and cannot be replayed.
 * @returns how many deliveries were (re)scheduled.
 * @throws Error when `consumer` is neither registered in this process nor found in the outbox.
 */
export async function replayConsumer(ctx: Pick<AppContext, 'db'>, consumer: string, since: Date, companyId?: number): Promise<number> {
  let names: string[] | undefined = events.list().find((c) => c.consumer === consumer)?.events;
  if (!names) {
    // Outside a server (the operators' command): the event names this consumer has taken so far.
    const { rows } = await sql<{
      name: string;
    }>`select distinct e.name from event_deliveries d join domain_events e on e.id = d.event_id where d.consumer = ${consumer}`.execute(ctx.db);
    if (rows.length === 0) throw new Error(`unknown consumer ${consumer}`);
    names = rows.map((r) => r.name);
  }
  const r = await sql`
    insert into event_deliveries (consumer, event_id, aggregate_key)
    select ${consumer}, e.id, e.aggregate_type || ':' || e.aggregate_id from domain_events e
    where e.created_at >= ${since} and e.name = any(${names}::text[])
      and (${companyId ?? null}::int is null or (e.payload->>'companyId')::int = ${companyId ?? null})
    on conflict (consumer, event_id) do update
      set status = 'pending', attempts = 0, next_at = now(), locked_until = null, last_error = null, done_at = null`.execute(ctx.db);
  return Number(r.numAffectedRows ?? 0);
}
