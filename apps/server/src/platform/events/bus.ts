/**
 * Domain events through a transactional outbox (docs/architecture.md "Domain events"): one module
 * announces that something changed, named consumers in other modules react, at least once, without
 * the announcing module importing them, and without losing a reaction to a crash.
 *
 * - `events.emit(tx, name, payload)`: INSIDE the transaction that makes the change. Validates the
 *   payload with its schema (a mismatch is a programming error: throws), writes the event
 *   (`domain_events`, with its aggregate and per-aggregate sequence) and one delivery per consumer
 *   of that name (`event_deliveries`) in one statement. Returns an {@link Emitted} handle.
 * - `events.dispatch(ctx, emitted)`: AFTER commit, in the emitting process: runs those deliveries
 *   now (started in registration order, several side by side), so reactions follow the change within milliseconds as
 *   before. Anything it does not finish (a crash, a failing consumer, a delivery waiting for an
 *   earlier event of its aggregate) is run by the outbox workers (`./outbox.ts`).
 * - `events.publish(ctx, name, payload)`: emit in a transaction of its own, then dispatch (events
 *   that describe no database change of the caller, and tests).
 * - `events.consume(consumer, name, handler)`: a named consumer's reaction to one event name, in
 *   a module's `setup` (`<module>.module.ts`). A consumer name may take several event names; its
 *   deliveries of one aggregate run in event order. Handlers must be idempotent: they run at least
 *   once (again after a crash, a retry, an operator's replay); the third argument carries the
 *   event id (a stable idempotency key) and attempt.
 *
 * The consumer list is process-wide and static after start (several servers in one test process
 * share it); the consumers subscribed when an event is emitted are the ones that get a delivery.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../../context.js';
import { asReaction, type DbOrTx } from '../db/db.js';
import { CUSTOM_PLAN_MARK } from '../db/prepared.js';
import { DOMAIN_EVENTS, aggregateOf, type DomainEventName, type DomainEvents } from './registry.js';

/** What a handler learns besides the payload: the event's id (idempotency key), time and the attempt (1, 2, …). */
export type EventMeta = { eventId: number; name: DomainEventName; aggregate: string; seq: number; at: Date; attempt: number; consumer: string };

export type DomainEventHandler<K extends DomainEventName> = (ctx: AppContext, payload: DomainEvents[K], meta: EventMeta) => void | Promise<void>;

/** One delivery of a batch: the event's payload and its {@link EventMeta}. */
export type BatchItem<K extends DomainEventName> = { payload: DomainEvents[K]; meta: EventMeta };

/**
 * A consumer's reaction to several events of one name at once (see {@link EventBus.consumeBatch}): at most one event
 * per aggregate (a call, a message) in a batch, in event order across batches. It succeeds or throws as a whole; after
 * a throw the bus runs each event alone, so one bad event fails alone.
 */
export type DomainEventBatchHandler<K extends DomainEventName> = (ctx: AppContext, items: ReadonlyArray<BatchItem<K>>) => Promise<void>;

/**
 * Events written by `emit` (ids of `domain_events`) and how many deliveries they have in all (`deliveries`) and
 * each (`counts`, in the order of `eventIds`), to `dispatch` after commit.
 */
export type Emitted = {
  readonly eventIds: readonly number[];
  readonly deliveries?: number;
  readonly counts?: readonly number[];
  /** Deliveries leased to the dispatching process by the emit itself (`leaseTo`): its dispatch runs them without a claim. */
  readonly leased?: readonly ClaimedDelivery[];
};

/**
 * Options of an emit: `leaseTo`, the worker id (`ctx.queue.workerId`) of the process that dispatches the events right
 * after commit. Each delivery not held back by an earlier pending event of its consumer and aggregate is then written
 * already leased to it (for EMIT_LEASE_MS), so the dispatch runs it without claiming it (a claim statement per round
 * was a third of PostgreSQL's time per new call in bench/call-routing). Give it only when a dispatch follows: a leased
 * delivery nobody dispatches (a crash) waits for its lease to expire before the outbox workers take it.
 */
export type EmitOptions = { leaseTo?: string };

/**
 * Two emits of one transaction as one (for one `dispatch`): the event ids and the delivery count together (an
 * unknown count stays unknown, so the dispatch then looks until nothing it may run is pending).
 */
export function mergeEmitted(a: Emitted | undefined, b: Emitted): Emitted {
  if (!a) return b;
  const deliveries = a.deliveries === undefined || b.deliveries === undefined ? undefined : a.deliveries + b.deliveries;
  const counts = a.counts && b.counts ? [...a.counts, ...b.counts] : undefined;
  const leased = a.leased || b.leased ? [...(a.leased ?? []), ...(b.leased ?? [])] : undefined;
  return {
    eventIds: [...a.eventIds, ...b.eventIds],
    ...(deliveries === undefined ? {} : { deliveries }),
    ...(counts ? { counts } : {}),
    ...(leased ? { leased } : {}),
  };
}

/**
 * One event of `emitted` (its index in `eventIds`) as an {@link Emitted} of its own, with its delivery count when
 * known (the group commit of new calls hands each call its own event).
 */
export function emittedAt(emitted: Emitted, index: number): Emitted {
  const count = emitted.counts?.[index];
  const id = emitted.eventIds[index]!;
  return {
    eventIds: [id],
    ...(count === undefined ? {} : { deliveries: count, counts: [count] }),
    ...(emitted.leased ? { leased: emitted.leased.filter((d) => d.event_id === id) } : {}),
  };
}

/** One event to write: its name and payload. */
export type AnyEvent = { [K in DomainEventName]: { name: K; payload: DomainEvents[K] } }[DomainEventName];

/**
 * A consumer's condition on an event, as SQL over the event's payload (`payload`: a jsonb expression): when it is
 * false for an event, the event gets no delivery for that consumer (nothing to run, store or mark done). It is
 * evaluated inside the emitting transaction, in the statement that writes the event, so it must be cheap (an index
 * lookup) and may read only the consuming module's own tables (that module writes it). It must be true whenever the
 * handler could act: it narrows who gets a delivery, the handler still decides. A condition that starts to hold
 * later (a company connects an integration) applies to the events written from then on.
 */
export type DeliveryCondition = (payload: RawBuilder<unknown>) => RawBuilder<unknown>;

/**
 * Options of a consumer: how often a failing delivery is tried before it becomes a dead letter (`maxAttempts`), and
 * when an event concerns it at all (`when`, see {@link DeliveryCondition}; for the event name of that `consume`).
 */
export type ConsumerOptions = { maxAttempts?: number; when?: DeliveryCondition };

type ConsumerEntry = {
  name: string;
  handlers: Map<DomainEventName, DomainEventHandler<any>>;
  batches: Map<DomainEventName, DomainEventBatchHandler<any>>;
  conditions: Map<DomainEventName, DeliveryCondition>;
  maxAttempts: number;
  order: number;
};

const DEFAULT_MAX_ATTEMPTS = 8;

/** A delivery claimed to run: the consumer, the event and its payload as stored. */
export type ClaimedDelivery = {
  consumer: string;
  event_id: number;
  attempts: number;
  name: string;
  payload: unknown;
  aggregate_key: string;
  seq: number;
  created_at: Date;
  /**
   * Whether a later delivery of the same consumer and aggregate was pending when this one was claimed (the round then
   * follows it; one committed later is claimed by its own dispatch once this one is done).
   */
  has_next?: boolean;
  /**
   * Written leased to this process by its emit (`leaseTo`), never claimed: whether a later event of its aggregate
   * came meanwhile is asked after it ran (see {@link laterEventsOf}).
   */
  leased?: true;
};

/** Called with each finished delivery (the outbox's metrics). */
type Observer = (consumer: string, outcome: 'done' | 'failed' | 'dead', lagMs: number) => void;

/**
 * Called with what the outbox itself cost (the metrics `outbox_emit_seconds_total`, `outbox_dispatch_seconds_total`;
 * bench/soak prints them per webhook): `emit` is the write inside the change's transaction (on the answer's path),
 * labelled with the batch's first event name; `dispatch` the after-commit run (claims, the consumers, their bookkeeping).
 */
type CostObserver = (step: 'emit' | 'dispatch', event: string, seconds: number) => void;

class EventBus {
  private readonly consumers = new Map<string, ConsumerEntry>();
  private readonly byEvent = new Map<DomainEventName, ConsumerEntry[]>();
  private observers = new Set<Observer>();
  private costObservers = new Set<CostObserver>();
  private handlerObservers = new Set<(consumer: string, seconds: number) => void>();
  private nextOrder = 0;
  /** Per server context: the dispatches waiting for a round and the rounds running (see {@link dispatch}). */
  private readonly lanes = new WeakMap<AppContext, DispatchLane>();
  /** Set while a round runs its consumers: the events they record join the round (waiting for a round could deadlock). */
  private readonly inDispatch = new AsyncLocalStorage<{ nested: number[]; leased: ClaimedDelivery[] }>();

  /**
   * Subscribes consumer `consumer` to `name`. The same consumer and name twice keeps the first handler.
   * @returns an unsubscribe function (tests' transient consumers).
   */
  consume<K extends DomainEventName>(consumer: string, name: K, handler: DomainEventHandler<K>, options: ConsumerOptions = {}): () => void {
    let entry = this.consumers.get(consumer);
    if (!entry) {
      entry = {
        name: consumer,
        handlers: new Map(),
        batches: new Map(),
        conditions: new Map(),
        maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        order: this.nextOrder++,
      };
      this.consumers.set(consumer, entry);
    }
    if (!entry.handlers.has(name)) {
      entry.handlers.set(name, handler);
      if (options.when) entry.conditions.set(name, options.when);
      const list = this.byEvent.get(name) ?? [];
      list.push(entry);
      list.sort((a, b) => a.order - b.order);
      this.byEvent.set(name, list);
    }
    const e = entry;
    return () => {
      if (e.handlers.get(name) !== handler) return;
      e.handlers.delete(name);
      e.batches.delete(name);
      e.conditions.delete(name);
      this.byEvent.set(
        name,
        (this.byEvent.get(name) ?? []).filter((c) => c !== e),
      );
      if (e.handlers.size === 0) this.consumers.delete(consumer);
    };
  }

  /**
   * Like {@link consume}, with a handler that takes the deliveries of one round together (one transaction and a few
   * set statements for many events, instead of a few for each): the dispatch after commit gathers the events of the
   * requests answered meanwhile, the workers take up to their batch. One event alone is a batch of one.
   * @returns an unsubscribe function.
   */
  consumeBatch<K extends DomainEventName>(consumer: string, name: K, batch: DomainEventBatchHandler<K>, options: ConsumerOptions = {}): () => void {
    const one: DomainEventHandler<K> = (ctx, payload, meta) => batch(ctx, [{ payload, meta }]);
    const off = this.consume(consumer, name, one, options);
    const entry = this.consumers.get(consumer);
    if (entry?.handlers.get(name) === one) entry.batches.set(name, batch);
    return off;
  }

  /** Names of the consumers and the events each takes (docs, the operators' screen). */
  list(): Array<{ consumer: string; events: DomainEventName[]; maxAttempts: number }> {
    return [...this.consumers.values()].map((c) => ({ consumer: c.name, events: [...c.handlers.keys()], maxAttempts: c.maxAttempts }));
  }

  /** Whether `consumer` is registered in this process. */
  has(consumer: string): boolean {
    return this.consumers.has(consumer);
  }

  /** Receives the time of every emit and dispatch (see {@link CostObserver}); @returns a function that stops it. */
  observeCost(observer: CostObserver): () => void {
    this.costObservers.add(observer);
    return () => this.costObservers.delete(observer);
  }

  /**
   * Receives each handler's run time (s, wall clock: waits for the pool and the database included), by consumer (the
   * metric `outbox_handler_seconds_total`; bench/call-routing prints where the reactions' time goes).
   * @returns a function that stops it.
   */
  observeHandlers(observer: (consumer: string, seconds: number) => void): () => void {
    this.handlerObservers.add(observer);
    return () => this.handlerObservers.delete(observer);
  }

  private cost(step: 'emit' | 'dispatch', event: string, startedAt: bigint): void {
    if (this.costObservers.size === 0) return;
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    for (const o of this.costObservers) o(step, event, seconds);
  }

  /** Receives every finished delivery; @returns a function that stops it. */
  observe(observer: Observer): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /**
   * Writes the event and its deliveries inside `tx` (the change's own transaction).
   * @throws Error when the payload does not match the event's schema (nothing written).
   */
  emit<K extends DomainEventName>(tx: DbOrTx, name: K, payload: DomainEvents[K], options: EmitOptions = {}): Promise<Emitted> {
    return this.emitMany(tx, [{ name, payload } as AnyEvent], options);
  }

  /**
   * Writes several events and their deliveries in one statement inside `tx` (a batch of changes,
   * e.g. the group commit of new calls). Events of one aggregate in one call get the same `seq`:
   * emit those in separate calls. `options.leaseTo`: see {@link EmitOptions}.
   * @throws Error when a payload does not match its event's schema (nothing written).
   */
  async emitMany(tx: DbOrTx, list: readonly AnyEvent[], options: EmitOptions = {}): Promise<Emitted> {
    if (list.length === 0) return { eventIds: [] };
    const startedAt = process.hrtime.bigint();
    const names: string[] = [];
    const types: string[] = [];
    const ids: string[] = [];
    const payloads: string[] = [];
    for (const { name, payload } of list) {
      const checked = DOMAIN_EVENTS[name].safeParse(payload);
      if (!checked.success) {
        throw new Error(`domain event ${name}: payload does not match its schema: ${JSON.stringify(checked.error.issues).slice(0, 500)}`);
      }
      const [type, id] = aggregateOf(name, payload as never);
      names.push(name);
      types.push(type);
      ids.push(id);
      payloads.push(JSON.stringify(payload));
    }
    const consumerNames: string[] = [];
    const consumerEvents: string[] = [];
    const conditions: RawBuilder<unknown>[] = [];
    for (const name of new Set(names)) {
      for (const c of this.byEvent.get(name as DomainEventName) ?? []) {
        consumerNames.push(c.name);
        consumerEvents.push(name);
        const when = c.conditions.get(name as DomainEventName);
        if (when)
          conditions.push(sql`when c.consumer = ${sql.lit(c.name)} and c.event = ${sql.lit(name)} then coalesce((${when(sql`e.payload`)})::boolean, true)`);
      }
    }
    // The consumers as a constant list (code's names, never input) and the events as rows of parameters (up to
    // ROWS_AS_VALUES, one statement text per count): the planner knows every row count, so the prepared statement
    // keeps one plan for all executions instead of planning anew each time (0.6–0.9 ms per inbound text in
    // bench/call-routing, most of the emit's cost). Larger batches (a history import) come as arrays.
    const consumerList =
      consumerNames.length > 0
        ? sql`(values ${sql.join(consumerNames.map((c, i) => sql`(${sql.lit(c)}, ${sql.lit(consumerEvents[i]!)})`))})`
        : sql`(select null::text, null::text where false)`;
    const input =
      list.length <= ROWS_AS_VALUES
        ? sql`select * from (values ${sql.join(
            names.map((n, k) => sql`(${n}::text, ${types[k]!}::text, ${ids[k]!}::text, ${payloads[k]!}::jsonb, ${sql.lit(k + 1)}::bigint)`),
          )}) as t(name, atype, aid, payload, ord)`
        : sql`select * from unnest(${names}::text[], ${types}::text[], ${ids}::text[], ${payloads}::jsonb[]) with ordinality as t(name, atype, aid, payload, ord)`;
    // Consumers' conditions (`when`): an event they do not concern gets no delivery for them.
    const concerns = conditions.length > 0 ? sql`where case ${sql.join(conditions, sql` `)} else true end` : sql``;
    // `leaseTo`: a delivery with no earlier one of its consumer and aggregate pending is written leased to the
    // dispatching process (see EmitOptions); the others wait for a claim as always. The check reads the aggregate's
    // earlier events (none for a new call or text) and their deliveries by key: point lookups whatever the plan (a
    // lookup by consumer and aggregate among pending deliveries was planned, with a small table's statistics, as a
    // scan of every pending delivery). `offset 0`: once per delivery, not once per use of its result.
    const leaseTo = options.leaseTo ?? null;
    const { rows } = await sql<{ id: number; seq: number; created_at: Date; n: number; leased: string[] }>`
      with input as (${input}), e as (
        insert into domain_events (name, aggregate_type, aggregate_id, seq, payload)
        select i.name, i.atype, i.aid,
          coalesce((select max(x.seq) from domain_events x where x.aggregate_type = i.atype and x.aggregate_id = i.aid), 0) + 1,
          i.payload
        from input i order by i.ord
        returning id, name, aggregate_type, aggregate_id, seq, created_at, payload
      ), d as (
        insert into event_deliveries (consumer, event_id, aggregate_key, attempts, locked_until, locked_by)
        select c.consumer, e.id, e.aggregate_type || ':' || e.aggregate_id, l.leased::int,
          case when l.leased then now() + ${`${EMIT_LEASE_MS} milliseconds`}::interval end, case when l.leased then ${leaseTo}::text end
        from e join ${consumerList} as c(consumer, event) on c.event = e.name
        cross join lateral (select ${leaseTo}::text is not null and (e.seq = 1 or not exists (
          select 1 from domain_events x join event_deliveries p on p.event_id = x.id and p.consumer = c.consumer and p.status = 'pending'
          where x.aggregate_type = e.aggregate_type and x.aggregate_id = e.aggregate_id and x.seq < e.seq)) as leased
          offset 0) l
        ${concerns}
        returning event_id, consumer, locked_by is not null as leased
      )
      select e.id, e.seq, e.created_at, count(d.event_id)::int as n, coalesce(array_agg(d.consumer) filter (where d.leased), '{}') as leased
      from e left join d on d.event_id = e.id group by e.id, e.seq, e.created_at
      order by e.id`.execute(tx);
    this.cost('emit', names[0]!, startedAt);
    const counts = rows.map((r) => Number(r.n ?? 0));
    const emitted: Emitted = { eventIds: rows.map((r) => Number(r.id)), deliveries: counts.reduce((a, b) => a + b, 0), counts };
    if (!leaseTo) return emitted;
    // The events' ids follow the input's order (inserted in that order), so row k is list[k]; the payload as stored
    // (JSON: dates as strings), as a claim would have read it.
    const leased: ClaimedDelivery[] = [];
    rows.forEach((r, k) => {
      if (r.leased.length === 0) return;
      for (const consumer of r.leased) {
        leased.push({
          consumer,
          event_id: Number(r.id),
          attempts: 1,
          name: names[k]!,
          payload: JSON.parse(payloads[k]!) as unknown,
          aggregate_key: `${types[k]}:${ids[k]}`,
          seq: r.seq,
          created_at: r.created_at,
          leased: true,
        });
      }
    });
    return { ...emitted, leased };
  }

  /**
   * After commit: runs the deliveries of `emitted` soon, in this process, and resolves when they ran (or were left to
   * the outbox workers). Dispatches of one process gather: while a round runs, the events of the requests answered
   * meanwhile queue, and the next round claims them together (one claim, each consumer's batch in one go, one done
   * mark), at most {@link DISPATCH_CONCURRENCY} rounds at once. A round then follows, for each (consumer, aggregate)
   * it finished, the aggregate's next events that became due meanwhile (a call's second status change), and the
   * events its consumers recorded (a dispatch inside a consumer joins its round instead of waiting). A dispatch whose
   * deliveries were held back by an earlier event of their aggregate, being run elsewhere in this process, is tried
   * again shortly, for up to DISPATCH_WAIT_MS, so a caller of `publish` finds its reactions done. Never throws: a
   * failing consumer's delivery is retried by the outbox workers with backoff.
   */
  async dispatch(ctx: AppContext, emitted: Emitted | ReadonlyArray<Emitted | undefined> | undefined): Promise<void> {
    const list = (Array.isArray(emitted) ? emitted : [emitted]) as Array<Emitted | undefined>;
    const ids = list.flatMap((e) => e?.eventIds ?? []);
    if (ids.length === 0) return;
    const leased = list.flatMap((e) => e?.leased ?? []);
    // The events that have a delivery the emit did not lease (held back, or no `leaseTo`): those need a claim.
    const toClaim = list.flatMap((e) => (e ? unleasedEvents(e) : []));
    const round = this.inDispatch.getStore();
    if (round) {
      round.nested.push(...toClaim);
      round.leased.push(...leased);
      return;
    }
    const expected = list.reduce((n, e) => n + (e?.deliveries ?? Number.POSITIVE_INFINITY), 0);
    if (expected === 0) return;
    let lane = this.lanes.get(ctx);
    if (!lane) this.lanes.set(ctx, (lane = { queue: [], queuedEvents: 0, running: 0 }));
    // Past DISPATCH_QUEUE events waiting, the outbox workers take them (a burst must not grow memory without bound).
    // Their leases are given up at once, so the workers need not wait for them to run out.
    if (lane.queuedEvents >= DISPATCH_QUEUE) {
      if (leased.length > 0) await releaseLeases(ctx, leased).catch((e: unknown) => ctx.log.warn({ err: e }, 'domain events: releasing leases failed'));
      return;
    }
    await new Promise<void>((resolve) => {
      lane.queue.push({ ids, leased, toClaim, expected, handled: 0, deadline: Date.now() + DISPATCH_WAIT_MS, tries: 0, resolve });
      lane.queuedEvents += ids.length;
      this.pump(ctx, lane);
    });
  }

  /** Starts rounds for the queued dispatches of `ctx` while fewer than DISPATCH_CONCURRENCY run. */
  private pump(ctx: AppContext, lane: DispatchLane): void {
    while (lane.running < DISPATCH_CONCURRENCY && lane.queue.length > 0) {
      const taken: DispatchWaiter[] = [];
      let n = 0;
      while (lane.queue.length > 0 && (n === 0 || n + lane.queue[0]!.ids.length <= ROUND_EVENTS)) {
        const w = lane.queue.shift()!;
        taken.push(w);
        n += w.ids.length;
      }
      lane.queuedEvents -= n;
      lane.running++;
      void this.dispatchRound(ctx, taken).finally(() => {
        lane.running--;
        this.pump(ctx, lane);
      });
    }
  }

  /** One gathered round of dispatches (see {@link dispatch}); never throws. */
  private async dispatchRound(ctx: AppContext, waiters: DispatchWaiter[]): Promise<void> {
    const ids = waiters.flatMap((w) => w.ids);
    let handled = new Map<number, number>();
    // A dispatch's first round runs the deliveries its emit leased to this process (no claim) and claims the rest;
    // a later try (deliveries held back) claims all of its events' due ones.
    const leased = takeLeased(waiters);
    const toClaim = waiters.flatMap((w) => (w.tries === 0 ? w.toClaim : w.ids));
    try {
      const claimed = toClaim.length > 0 ? await claimDeliveries(ctx, { eventIds: toClaim }) : [];
      if (leased.length + claimed.length > 0) handled = await this.runRound(ctx, [...leased, ...claimed]);
    } catch (e) {
      ctx.log.error({ err: e, eventIds: ids.slice(0, 20) }, 'domain events: dispatch after commit failed; the outbox workers will run them');
      for (const w of waiters) w.resolve();
      return;
    }
    const open: DispatchWaiter[] = [];
    for (const w of waiters) {
      for (const id of w.ids) w.handled += handled.get(id) ?? 0;
      if (w.handled >= w.expected || Date.now() > w.deadline) w.resolve();
      else open.push(w);
    }
    if (open.length === 0) return;
    // Some deliveries were held back (an earlier event of their aggregate was being run): worth another claim when
    // one is still due and free or run in this process; one another process leased is that process's to finish.
    let pending: Set<number>;
    try {
      pending = await pendingEvents(
        ctx,
        open.flatMap((w) => w.ids),
      );
    } catch (e) {
      // The database is away: nothing to wait for here (the outbox workers run what is left).
      ctx.log.warn({ err: e }, 'domain events: checking held-back deliveries failed');
      pending = new Set();
    }
    for (const w of open) {
      if (!w.ids.some((id) => pending.has(id))) {
        w.resolve();
        continue;
      }
      const lane = this.lanes.get(ctx)!;
      setTimeout(
        () => {
          lane.queue.push(w);
          lane.queuedEvents += w.ids.length;
          this.pump(ctx, lane);
        },
        Math.min(50, 5 * 2 ** w.tries++),
      ).unref?.();
    }
  }

  /**
   * Runs claimed deliveries as one round (the dispatch after commit, the outbox workers): each consumer's deliveries
   * of one event name together when it takes batches (else one by one), up to `concurrency` consumers side by side,
   * then marks the successful ones done in one statement; then follows the next due deliveries of each (consumer,
   * aggregate) it finished and the events its consumers recorded, for up to MAX_CHAIN_ROUNDS more rounds.
   * `stopped`: checked between deliveries (a stopping worker). @returns per event id, how many of its deliveries ran.
   * @throws on a database error of a claim or the done mark (a handler's failure is recorded, never thrown).
   */
  async runRound(ctx: AppContext, claimed: ClaimedDelivery[], opts: { concurrency?: number; stopped?: () => boolean } = {}): Promise<Map<number, number>> {
    const handled = new Map<number, number>();
    for (let round = 0; claimed.length > 0; round++) {
      const startedAt = process.hrtime.bigint();
      const nested: number[] = [];
      const nestedLeased: ClaimedDelivery[] = [];
      const done: ClaimedDelivery[] = [];
      const units = this.unitsOf(ctx, claimed, done);
      let next = 0;
      // The handlers run inside the round's scope: an event they record (and dispatch) joins `nested`.
      await this.inDispatch.run({ nested, leased: nestedLeased }, () =>
        Promise.all(
          Array.from({ length: Math.min(opts.concurrency ?? ROUND_CONCURRENCY, units.length) }, async () => {
            while (next < units.length && !opts.stopped?.()) await units[next++]!();
          }),
        ),
      );
      await this.finishDone(ctx, done);
      this.cost('dispatch', claimed[0]!.name, startedAt);
      for (const d of claimed) handled.set(d.event_id, (handled.get(d.event_id) ?? 0) + 1);
      if (opts.stopped?.() || round >= MAX_CHAIN_ROUNDS) break;
      // Claimed deliveries say whether a later one of their aggregate was pending; leased ones are asked now.
      const follow = done.filter((d) => !d.leased && d.has_next !== false);
      const leasedDone = done.filter((d) => d.leased);
      // (The events this round's consumers recorded, `call.attributed` of a new call, run in the next round anyway.)
      if (leasedDone.length > 0) follow.push(...(await laterEventsOf(ctx, leasedDone, [...nested, ...nestedLeased.map((d) => d.event_id)])));
      const after = follow.length > 0 ? await claimDeliveries(ctx, { after: follow }) : [];
      const recorded = nested.length > 0 ? await claimDeliveries(ctx, { eventIds: nested }) : [];
      claimed = [...after, ...nestedLeased, ...recorded];
    }
    return handled;
  }

  /**
   * The work of a round: a delivery alone, or a batch consumer's deliveries of one event name together; started in
   * event and registration order.
   */
  private unitsOf(ctx: AppContext, claimed: ClaimedDelivery[], done: ClaimedDelivery[]): Array<() => Promise<void>> {
    claimed.sort((a, b) => a.event_id - b.event_id || this.orderOf(a.consumer) - this.orderOf(b.consumer));
    const units: Array<() => Promise<void>> = [];
    const groups = new Map<string, ClaimedDelivery[]>();
    for (const d of claimed) {
      if (!this.consumers.get(d.consumer)?.batches.has(d.name as DomainEventName)) {
        units.push(() => this.run(ctx, d, done));
        continue;
      }
      const key = `${d.consumer}\u0000${d.name}`;
      let group = groups.get(key);
      if (!group) {
        const g: ClaimedDelivery[] = (group = []);
        groups.set(key, g);
        units.push(() => this.runBatch(ctx, g, done));
      }
      group.push(d);
    }
    return units;
  }

  /**
   * Runs one batch consumer's deliveries of one event name together; when the batch throws, each runs alone (so one
   * bad event fails, and is retried, alone).
   */
  private async runBatch(ctx: AppContext, list: ClaimedDelivery[], done: ClaimedDelivery[]): Promise<void> {
    if (list.length === 1) return this.run(ctx, list[0]!, done);
    const first = list[0]!;
    const batch = this.consumers.get(first.consumer)?.batches.get(first.name as DomainEventName);
    if (!batch) {
      for (const d of list) await this.run(ctx, d, done);
      return;
    }
    const items = list.map((d) => ({ payload: d.payload, meta: metaOf(d) }));
    const startedAt = process.hrtime.bigint();
    try {
      await asReaction(() => batch(ctx, items));
    } catch (e) {
      ctx.log.warn({ err: e, consumer: first.consumer, event: first.name, size: list.length }, 'domain event batch failed; running its events one by one');
      for (const d of list) await this.run(ctx, d, done);
      return;
    }
    this.observeHandler(first.consumer, startedAt);
    done.push(...list);
  }

  private observeHandler(consumer: string, startedAt: bigint): void {
    if (this.handlerObservers.size === 0) return;
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    for (const o of this.handlerObservers) o(consumer, seconds);
  }

  /**
   * For consumers whose effect is not an upsert (a counter): inside the handler's transaction `tx`,
   * claims the effect of this delivery (`meta`). True the first time; false when a redelivery or a
   * replay already applied it (then the handler applies nothing). Without `meta` (a direct call): true.
   */
  async claimEffect(tx: DbOrTx, meta: EventMeta | undefined): Promise<boolean> {
    if (!meta) return true;
    const { rows } = await sql<{ ok: number }>`update event_deliveries set effect_at = now()
      where consumer = ${meta.consumer} and event_id = ${meta.eventId} and effect_at is null returning 1 as ok`.execute(tx);
    return rows.length > 0;
  }

  /** Emits in a transaction of its own, then dispatches. @throws on an invalid payload or a database error. */
  async publish<K extends DomainEventName>(ctx: AppContext, name: K, payload: DomainEvents[K]): Promise<void> {
    const emitted = await ctx.db.transaction().execute((tx) => this.emit(tx, name, payload));
    await this.dispatch(ctx, emitted);
  }

  private orderOf(consumer: string): number {
    return this.consumers.get(consumer)?.order ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * Runs one claimed delivery and records its outcome: done (or, given `done`, appended to it for
   * {@link finishDone}); failed (retried after a backoff of
   * 1 s × 2^(attempt-1), at most 5 min); or dead after the consumer's `maxAttempts` (also when no
   * consumer of that name or event is registered in this process any more).
   */
  async run(ctx: AppContext, d: ClaimedDelivery, done?: ClaimedDelivery[]): Promise<void> {
    const entry = this.consumers.get(d.consumer);
    const handler = entry?.handlers.get(d.name as DomainEventName);
    const lagMs = Date.now() - new Date(d.created_at).getTime();
    if (!handler) {
      // A consumer removed since the event was written (a deploy) or a test's transient one: not ours to run.
      await finishDelivery(ctx, d, { ok: false, error: `no consumer ${d.consumer} for ${d.name} in this process`, dead: !entry, retryInMs: 60_000 });
      return;
    }
    const meta = metaOf(d);
    try {
      // Its connections come from the reactions' pool (asReaction: never the answers', commits without a WAL flush wait).
      // An event the handler records and dispatches joins the enclosing round (never waits for a round of its own: a
      // worker's consumer queued behind dispatches waiting for the very deliveries that worker held stalled both).
      const startedAt = process.hrtime.bigint();
      await asReaction(() => handler(ctx, d.payload, meta));
      this.observeHandler(d.consumer, startedAt);
    } catch (e) {
      const dead = d.attempts >= entry!.maxAttempts;
      const retryInMs = Math.min(300_000, 1000 * 2 ** Math.max(0, d.attempts - 1));
      ctx.log.error({ err: e, event: d.name, eventId: d.event_id, consumer: d.consumer, attempt: d.attempts, dead }, 'domain event consumer failed');
      await finishDelivery(ctx, d, { ok: false, error: e instanceof Error ? e.message : String(e), dead, retryInMs }).catch((err: unknown) =>
        ctx.log.error({ err, eventId: d.event_id, consumer: d.consumer }, 'domain events: recording a failure failed (the lease expires and it runs again)'),
      );
      for (const o of this.observers) o(d.consumer, dead ? 'dead' : 'failed', lagMs);
      return;
    }
    if (done) {
      done.push(d);
      return;
    }
    await finishDelivery(ctx, d, { ok: true });
    for (const o of this.observers) o(d.consumer, 'done', lagMs);
  }

  /**
   * Records the deliveries a dispatch round ran successfully as done, in one statement (the round's
   * bookkeeping is one write, not one per consumer). A crash before it runs them again: consumers are idempotent.
   */
  async finishDone(ctx: AppContext, done: readonly ClaimedDelivery[]): Promise<void> {
    if (done.length === 0) return;
    await sql`update event_deliveries d set status = 'done', done_at = now(), locked_until = null, last_error = null
      from unnest(${done.map((d) => d.consumer)}::text[], ${done.map((d) => d.event_id)}::bigint[]) as x(consumer, event_id)
      where d.consumer = x.consumer and d.event_id = x.event_id and d.locked_by = ${ctx.queue.workerId}`.execute(ctx.db);
    for (const d of done) {
      const lagMs = Date.now() - new Date(d.created_at).getTime();
      for (const o of this.observers) o(d.consumer, 'done', lagMs);
    }
  }
}

/**
 * Most dispatches after commit running at once in one process; more wait their turn (so reactions hold at most
 * this many of the pool's connections besides the workers' lanes, and the answers keep theirs).
 */
const DISPATCH_CONCURRENCY = 4;

/** Most deliveries one dispatch round runs at once (each on a connection of the reactions' pool). */
const ROUND_CONCURRENCY = 4;

/** Most events waiting for a dispatch round in one process; past that the outbox workers take their deliveries. */
const DISPATCH_QUEUE = 5_000;

/**
 * Most events an emit sends as rows of parameters (one statement text per count and event names, see emitMany; kept
 * small so the emit's texts leave room in the prepared statements' cache); more go as arrays, planned each time.
 */
const ROWS_AS_VALUES = 16;

/** Most events one dispatch round claims together (its dispatches' events; chains and recorded events come on top). */
const ROUND_EVENTS = 256;

/**
 * A dispatch waiting for (or between) rounds: its events, the deliveries its emit leased to this process, the events
 * it must claim deliveries of, how many deliveries it expects and has seen run.
 */
type DispatchWaiter = {
  ids: number[];
  leased: ClaimedDelivery[];
  toClaim: number[];
  expected: number;
  handled: number;
  deadline: number;
  tries: number;
  resolve: () => void;
};

/** The events of `e` with a delivery its emit did not lease (all of them when the emit leased nothing or counted nothing). */
function unleasedEvents(e: Emitted): number[] {
  if (!e.leased || !e.counts) return [...e.eventIds];
  const leasedOf = new Map<number, number>();
  for (const d of e.leased) leasedOf.set(d.event_id, (leasedOf.get(d.event_id) ?? 0) + 1);
  return e.eventIds.filter((id, k) => (e.counts![k] ?? 0) > (leasedOf.get(id) ?? 0));
}

/**
 * The leased deliveries of the waiters' first round (emptied: a later try claims instead), less those whose lease is
 * close to its end (EMIT_LEASE_MS − 5 s after the event was written): the outbox workers may take those.
 */
function takeLeased(waiters: DispatchWaiter[]): ClaimedDelivery[] {
  const out: ClaimedDelivery[] = [];
  const oldest = Date.now() - (EMIT_LEASE_MS - 5_000);
  for (const w of waiters) {
    for (const d of w.leased) if (new Date(d.created_at).getTime() > oldest) out.push(d);
    w.leased = [];
  }
  return out;
}

/** One server context's dispatches: those waiting (`queuedEvents` events in all) and the rounds running. */
type DispatchLane = { queue: DispatchWaiter[]; queuedEvents: number; running: number };

/** The {@link EventMeta} of a claimed delivery. */
function metaOf(d: ClaimedDelivery): EventMeta {
  return {
    eventId: d.event_id,
    name: d.name as DomainEventName,
    aggregate: d.aggregate_key,
    seq: d.seq,
    at: new Date(d.created_at),
    attempt: d.attempts,
    consumer: d.consumer,
  };
}

/** Most rounds of following an aggregate's later events one dispatch makes (the workers run what is left). */
const MAX_CHAIN_ROUNDS = 20;

/** How long a dispatch keeps claiming its own deliveries held back by an earlier event of their aggregate (ms). */
const DISPATCH_WAIT_MS = 3_000;

/**
 * Which of these events still have a delivery pending and due that is free or being run in this process (by another
 * round following its aggregate's chain, or this process's workers): worth waiting for, briefly, so a caller of
 * `publish` finds its reactions done. One another process leased is that process's to finish.
 */
async function pendingEvents(ctx: Pick<AppContext, 'db' | 'queue'>, eventIds: readonly number[]): Promise<Set<number>> {
  const { rows } = await sql<{
    event_id: number;
  }>`${sql.raw(CUSTOM_PLAN_MARK)} select distinct d.event_id from unnest(${[...eventIds]}::bigint[]) as x(event_id)
    join event_deliveries d on d.event_id = x.event_id
    where d.status = 'pending' and d.next_at <= now()
      and (d.locked_until is null or d.locked_until < now() or d.locked_by = ${ctx.queue.workerId})`.execute(ctx.db);
  return new Set(rows.map((r) => Number(r.event_id)));
}

/**
 * How long the outbox workers leave a delivery that was never tried to the dispatch of the process that emitted it
 * (ms). After a crash between commit and dispatch, the workers run it once this passed.
 */
export const WORKER_GRACE_MS = 2_000;

/** How long a claimed delivery is leased to its runner (ms): after a crash it runs again once this passed. */
export const DELIVERY_LEASE_MS = 30_000;

/**
 * How long a delivery written leased to the dispatching process (`leaseTo`) stays leased (ms): after a crash between
 * the commit and the dispatch, the outbox workers run it once this passed. A dispatch that reaches it later than
 * EMIT_LEASE_MS − 5 s leaves it to the workers (they may have taken it).
 */
export const EMIT_LEASE_MS = 15_000;

/**
 * Claims due deliveries: those of `eventIds` (the dispatch after commit), or up to `limit` of any
 * event (the workers). A delivery is due when pending, its `next_at` passed, not leased, and no
 * earlier delivery of the same consumer and aggregate is still pending (event order per aggregate).
 * Rows leased by another runner are skipped, never waited for. `after`: the next due delivery of each
 * (consumer, aggregate) just finished.
 */
export async function claimDeliveries(
  ctx: Pick<AppContext, 'db' | 'queue'>,
  what: { eventIds: readonly number[] } | { after: ReadonlyArray<Pick<ClaimedDelivery, 'consumer' | 'aggregate_key'>> } | { limit: number },
): Promise<ClaimedDelivery[]> {
  // The dispatch's claim starts from its events (a join on the event id index) and takes all of theirs (no ORDER BY
  // … LIMIT: with one, a cached generic plan walked the event-id index of every delivery, done ones too, in order:
  // 9–12 ms a claim in bench/call-routing). The workers take the oldest due ones through the index of pending
  // deliveries by event id (migration 0054).
  // `after`: the next pending delivery of each (consumer, aggregate) a runner has just finished (the chain it follows).
  const source =
    'eventIds' in what
      ? sql`unnest(${[...what.eventIds]}::bigint[]) as x(event_id) join event_deliveries d on d.event_id = x.event_id`
      : 'after' in what
        ? sql`unnest(${what.after.map((a) => a.consumer)}::text[], ${what.after.map((a) => a.aggregate_key)}::text[]) as x(consumer, aggregate_key)
            join event_deliveries d on d.consumer = x.consumer and d.aggregate_key = x.aggregate_key and d.status = 'pending'`
        : sql`event_deliveries d`;
  const order = 'limit' in what ? sql`order by d.event_id limit ${what.limit}` : sql``;
  // The workers leave a delivery never tried alone for WORKER_GRACE_MS: the emitting process dispatches it right after
  // its commit. (They took them first under load; each dispatch then claimed again and again, waiting for them.)
  const fresh = 'limit' in what ? sql`and (d.attempts > 0 or d.next_at <= now() - ${`${WORKER_GRACE_MS} milliseconds`}::interval)` : sql``;
  // Planned for its parameters every time (CUSTOM_PLAN_MARK): a generic plan cached while the table was small (a
  // fresh start) walked a backlog quadratically later (28 s a worker claim over 37,000 pending deliveries).
  const { rows } = await sql<ClaimedDelivery>`${sql.raw(CUSTOM_PLAN_MARK)}
    with due as (
      select d.consumer, d.event_id from ${source}
      where d.status = 'pending' and d.next_at <= now() and (d.locked_until is null or d.locked_until < now()) ${fresh}
        and not exists (
          select 1 from event_deliveries p
          where p.consumer = d.consumer and p.aggregate_key = d.aggregate_key and p.status = 'pending' and p.event_id < d.event_id
        )
      ${order}
      for update of d skip locked
    )
    update event_deliveries d
    set locked_until = now() + ${`${DELIVERY_LEASE_MS} milliseconds`}::interval, locked_by = ${ctx.queue.workerId}, attempts = d.attempts + 1
    from due, domain_events e
    where d.consumer = due.consumer and d.event_id = due.event_id and e.id = d.event_id
    returning d.consumer, d.event_id, d.attempts, d.aggregate_key, e.name, e.payload, e.seq, e.created_at,
      exists (select 1 from event_deliveries n
        where n.consumer = d.consumer and n.aggregate_key = d.aggregate_key and n.status = 'pending' and n.event_id > d.event_id) as has_next`.execute(ctx.db);
  return rows;
}

/**
 * Of deliveries leased at emit that just ran, those whose aggregate has a later event by now (a call's status change
 * committed while its first event was being delivered): the round follows them (`claimDeliveries({after})`). One
 * look per aggregate at its events by key, instead of a claim for every delivery. `recorded`: events the round's
 * consumers wrote (the next round runs them; not followed).
 */
async function laterEventsOf(ctx: Pick<AppContext, 'db'>, done: readonly ClaimedDelivery[], recorded: readonly number[]): Promise<ClaimedDelivery[]> {
  const seqOf = new Map<string, number>();
  for (const d of done) seqOf.set(d.aggregate_key, Math.max(seqOf.get(d.aggregate_key) ?? 0, d.seq));
  const keys = [...seqOf.keys()];
  const { rows } = await sql<{ key: string }>`select a.key from unnest(${keys}::text[], ${keys.map((k) => k.slice(0, k.indexOf(':')))}::text[],
      ${keys.map((k) => k.slice(k.indexOf(':') + 1))}::text[], ${keys.map((k) => seqOf.get(k)!)}::int[]) as a(key, atype, aid, seq)
    where exists (select 1 from domain_events x where x.aggregate_type = a.atype and x.aggregate_id = a.aid and x.seq > a.seq
      and x.id <> all(${[...recorded]}::bigint[]))`.execute(ctx.db);
  if (rows.length === 0) return [];
  const later = new Set(rows.map((r) => r.key));
  return done.filter((d) => later.has(d.aggregate_key));
}

/** Gives up this process's leases of deliveries it will not run (the workers take them on their next poll). */
async function releaseLeases(ctx: Pick<AppContext, 'db' | 'queue'>, list: readonly ClaimedDelivery[]): Promise<void> {
  await sql`update event_deliveries d set locked_until = null
    from unnest(${list.map((d) => d.consumer)}::text[], ${list.map((d) => d.event_id)}::bigint[]) as x(consumer, event_id)
    where d.consumer = x.consumer and d.event_id = x.event_id and d.status = 'pending' and d.locked_by = ${ctx.queue.workerId}`.execute(ctx.db);
}

/** Records a delivery's outcome (only while this runner still holds its lease). */
async function finishDelivery(
  ctx: Pick<AppContext, 'db' | 'queue'>,
  d: Pick<ClaimedDelivery, 'consumer' | 'event_id'>,
  outcome: { ok: true } | { ok: false; error: string; dead: boolean; retryInMs: number },
): Promise<void> {
  if (outcome.ok) {
    await sql`update event_deliveries set status = 'done', done_at = now(), locked_until = null, last_error = null
      where consumer = ${d.consumer} and event_id = ${d.event_id} and locked_by = ${ctx.queue.workerId}`.execute(ctx.db);
    return;
  }
  await sql`update event_deliveries
    set status = ${outcome.dead ? 'dead' : 'pending'}, locked_until = null, last_error = ${outcome.error.slice(0, 2000)},
      next_at = now() + ${`${outcome.retryInMs} milliseconds`}::interval
    where consumer = ${d.consumer} and event_id = ${d.event_id} and locked_by = ${ctx.queue.workerId}`.execute(ctx.db);
}

/** The process-wide bus. */
export const events = new EventBus();
