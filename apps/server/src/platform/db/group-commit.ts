/**
 * Group commit: many small writes become one statement (or one transaction) (docs/architecture.md
 * "The voice webhook's hot path"). Work items are collected for at most `maxWaitMs` ms or until `maxItems`
 * wait, then `run(items)` handles them together and each item's promise settles with its own
 * result, only once `run` has finished (so once its statement or transaction has committed: the
 * caller of `submit` still sees a durable write).
 *
 * - `concurrency` batches may run at once (1 keeps batches in submission order: a later batch
 *   never starts before an earlier one has finished). Items submitted while every slot is busy
 *   wait for the next free slot (group commit: the busier the database, the larger the batch).
 * - When a batch of more than one item fails, each of its items is run again alone (in order), so
 *   one bad item fails only its own promise (`isolateFailures`, default true). A failure that is
 *   no item's fault (no pool connection within DB_ACQUIRE_TIMEOUT_MS) fails every item at once:
 *   rerunning them one by one would make the last one wait once per item.
 * - `owner` (e.g. the AppContext): `drainGroupCommits(owner)` runs everything pending at once and
 *   waits until every batcher of that owner is idle; call it when the server closes, before the
 *   database pool is destroyed.
 * - A batch runs on its own pool connection, so `submit` from inside an open transaction is a wait
 *   on the pool while holding a transaction (docs/architecture.md "Transactions never wait on the
 *   pool"): refused by the transaction guard (./tx-guard.ts) unless the batcher is `detached`
 *   (its callers never await it inside a transaction, e.g. live-event notifications). Batches run
 *   outside every submitter's context.
 */

import { isPoolTimeout } from '../http/errors.js';
import { asReaction, outsideReaction } from './reaction-scope.js';
import { assertNoOpenTransaction, outsideTransaction } from './tx-guard.js';

type Waiting<I, R> = { item: I; at: number; resolve: (r: R) => void; reject: (e: unknown) => void };

export type GroupCommitOptions<I, R> = {
  /** Handles a batch; returns one result per item, in input order. */
  run: (items: I[]) => Promise<R[]>;
  /**
   * Longest time (ms) an item waits for companions before its batch starts (a free slot provided).
   * 0: the batch starts after the current turn of the event loop (`setImmediate`), so it holds what
   * was submitted by the same burst of I/O callbacks (a read batcher adds no timer delay).
   */
  maxWaitMs: number;
  /** Largest batch; a full batch starts at once. */
  maxItems: number;
  /** Batches running at once (default 1). */
  concurrency?: number;
  /** Rerun each item of a failed multi-item batch alone (default true). */
  isolateFailures?: boolean;
  /** Registers the batcher for `drainGroupCommits(owner)`. */
  owner?: object;
  /** Submits are fire-and-forget work that may be queued from inside a transaction (default false: refused there). */
  detached?: boolean;
  /**
   * Only domain-event consumers submit to it (the inbox's call items, the analytics facts): its batches run as a
   * reaction (./reaction-scope.ts: the reactions' pool, asynchronous commit). Default false: batches run outside any
   * reaction, so an answer's item never commits without waiting for the WAL flush.
   */
  reaction?: boolean;
};

const byOwner = new WeakMap<object, Set<GroupCommit<any, any>>>();

export class GroupCommit<I, R> {
  private queue: Waiting<I, R>[] = [];
  private running = 0;
  private timer: { cancel: () => void } | null = null;
  private idleWaiters: Array<() => void> = [];
  private readonly concurrency: number;

  constructor(private readonly options: GroupCommitOptions<I, R>) {
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    if (options.owner) {
      let set = byOwner.get(options.owner);
      if (!set) byOwner.set(options.owner, (set = new Set()));
      set.add(this);
    }
  }

  /** Items waiting plus batches running. */
  get busy(): number {
    return this.queue.length + this.running;
  }

  /** Queues `item`; resolves with its result once its batch finished, rejects with its batch's (or, isolated, its own) error. */
  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (!this.options.detached) assertNoOpenTransaction('a batched statement (GroupCommit)');
      this.queue.push({ item, at: Date.now(), resolve, reject });
      this.schedule();
    });
  }

  /** Starts everything pending now and resolves once nothing is waiting or running. */
  async flush(): Promise<void> {
    while (this.busy > 0) {
      this.start(true);
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
  }

  /**
   * Starts full batches; otherwise arms the timer for the oldest waiting item (so items submitted
   * in one burst stay together). `afterBatch`: a slot was just freed, so items that already
   * waited their time start at once.
   */
  private schedule(afterBatch = false): void {
    this.start(false);
    if (this.queue.length === 0 || this.running >= this.concurrency || this.timer) return;
    const wait = Math.max(0, this.options.maxWaitMs - (Date.now() - this.queue[0]!.at));
    if (wait === 0 && afterBatch) {
      this.start(true);
      return;
    }
    const fire = () => {
      this.timer = null;
      this.start(true);
      this.schedule();
    };
    if (wait === 0) {
      const h = outsideTransaction(() => setImmediate(fire));
      this.timer = { cancel: () => clearImmediate(h) };
    } else {
      const h = outsideReaction(() => outsideTransaction(() => setTimeout(fire, wait)));
      this.timer = { cancel: () => clearTimeout(h) };
    }
  }

  /** Starts batches while a slot is free: all waiting items when `force`, else only full batches. */
  private start(force: boolean): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      if (!force && this.queue.length < this.options.maxItems) return;
      if (this.timer) {
        this.timer.cancel();
        this.timer = null;
      }
      const batch = this.queue.splice(0, this.options.maxItems);
      this.running++;
      // The batch is shared work of many submitters: it runs in none of their contexts.
      const scope = this.options.reaction ? asReaction : outsideReaction;
      void scope(() => outsideTransaction(() => this.runBatch(batch))).finally(() => {
        this.running--;
        if (this.busy > 0) this.schedule(true);
        // flush() waiters re-check on every batch end.
        for (const w of this.idleWaiters.splice(0)) w();
      });
    }
  }

  private async runBatch(batch: Waiting<I, R>[]): Promise<void> {
    try {
      const results = await this.options.run(batch.map((w) => w.item));
      if (results.length !== batch.length) throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
      batch.forEach((w, i) => w.resolve(results[i] as R));
    } catch (e) {
      if (batch.length === 1 || this.options.isolateFailures === false || isPoolTimeout(e)) {
        for (const w of batch) w.reject(e);
        return;
      }
      for (const w of batch) {
        try {
          const [r] = await this.options.run([w.item]);
          w.resolve(r as R);
        } catch (err) {
          w.reject(err);
        }
      }
    }
  }
}

/** Runs every pending batch of `owner`'s batchers and waits until all of them are idle. */
export async function drainGroupCommits(owner: object): Promise<void> {
  const set = byOwner.get(owner);
  if (!set) return;
  // A batch's completion may queue work on another batcher (a stored call announces itself): repeat until quiet.
  for (let round = 0; round < 10; round++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const busy = [...set].filter((g) => g.busy > 0);
    if (busy.length === 0) return;
    await Promise.all(busy.map((g) => g.flush()));
  }
}
