/**
 * Background jobs on pg-boss (in the same PostgreSQL). Handlers must be idempotent:
 * the queue delivers at least once. `enqueue` can join the caller's Kysely transaction so a
 * job exists if and only if the rows that asked for it were committed.
 *
 * Crash recovery (docs/operations.md "Crash recovery"): pg-boss 12 has no heartbeat, so a job that
 * was active in a process that died (killed, out of memory) would wait for its expiry (15 min)
 * before it ran again. Every process with workers registers itself in `queue_workers` and refreshes
 * its heartbeat every `queueTuning.heartbeatMs`; a *resumable* job kind (`define(..., {resumable})`)
 * records which worker runs each job in `queue_active_jobs`. Every `sweepMs`, each process with
 * workers removes the workers that are dead (no heartbeat for `staleMs`, or a previous process of
 * this host whose pid is gone or is now ours) and fails their jobs through pg-boss (`fail`), which
 * retries them after the job's retry delay: an interrupted job runs again within a minute. Every job
 * kind is resumable unless defined with `{resumable: false}`. Handlers of resumable jobs must tolerate a second run meeting a first one that is still alive (a worker
 * whose event loop stalled past `staleMs`): see the import's advisory lock and campaign claims.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { CompiledQuery } from 'kysely';
import { PgBoss, type JobWithMetadata } from 'pg-boss';
import type { DbOrTx } from './db/db.js';

/** How long a resumable job may be active without a worker's record before the sweep retries it (ms). */
const ORPHAN_UNRECORDED_MS = 30_000;

/** A job handler: the job's data and the job with its retry metadata (see {@link isLastAttempt}). */
export type JobHandler<T> = (data: T, job: JobWithMetadata<T>) => Promise<void>;

/**
 * Whether this run of a job is its last: the queue will not retry it if it fails (`retryLimit`
 * retries used up). A handler that lets unexpected errors fail the job (so the queue retries them)
 * settles what it was doing on the last attempt instead, so nothing waits for ever.
 */
export function isLastAttempt(job: Pick<JobWithMetadata<unknown>, 'retryCount' | 'retryLimit'> | undefined): boolean {
  return job !== undefined && job.retryCount >= job.retryLimit;
}
export type EnqueueOptions = { startAfter?: Date | number; singletonKey?: string; retryLimit?: number; retryDelay?: number };
/**
 * `resumable` (default true): recorded per worker so a dead process's job is retried within a minute (see the
 * module doc) instead of waiting out the queue's 15-minute expiry; `false` only for jobs whose second run would do harm.
 */
export type DefineOptions = {
  resumable?: boolean;
  /**
   * How many due jobs a worker takes in one fetch (default 1), run one after another: one fetch and one completion
   * statement for them all. A job that throws fails its whole batch (pg-boss completes or fails a batch together), so
   * each is retried: only for handlers whose second run of a finished job is cheap and harmless.
   */
  batchSize?: number;
};

/** Crash-recovery timings in ms (tests may lower them). */
export const queueTuning = {
  /**
   * How often an idle worker asks for a job (s). A job enqueued in this process wakes one of its queue's workers at
   * once (after commit for one enqueued in a transaction: shortly after), so the poll only matters for jobs of other
   * processes, retries and delayed jobs; every poll is a query (about a hundred workers: 0.5 s polled 200 times a second).
   */
  pollS: 2,
  /** After an enqueue inside a transaction, when to wake a worker (ms): the transaction has usually committed by then. */
  wakeAfterTxMs: 50,
  heartbeatMs: 5_000,
  sweepMs: 5_000,
  /** A worker whose heartbeat is older than this is dead. */
  staleMs: 20_000,
};

/** Whether a process with this pid exists on this host (EPERM: it exists but is not ours). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class Queue {
  private readonly boss: PgBoss;
  private readonly created = new Set<string>();
  private readonly handlers = new Map<string, { handler: JobHandler<any>; concurrency: number; resumable: boolean; batchSize: number }>();
  private started = false;
  private stopping = false;
  private timers: NodeJS.Timeout[] = [];
  /** This process's pg-boss worker ids per queue (to wake one when a job is enqueued) and whose turn is next. */
  private readonly workerIds = new Map<string, string[]>();
  private readonly nextWake = new Map<string, number>();
  /** This process's worker id (uuid), recorded on resumable jobs and campaign claims. */
  readonly workerId = randomUUID();

  constructor(
    url: string,
    private readonly runWorkers: boolean,
  ) {
    this.boss = new PgBoss({ connectionString: url, max: 4, schedule: false, supervise: runWorkers });
    this.boss.on('error', (err: Error & { code?: string }) => {
      // 57P01: PostgreSQL is shutting down (Ctrl-C stops the embedded server): not worth a stack trace.
      if (err.code === '57P01' || this.stopping) return;
      console.error('[queue]', err.message);
    });
  }

  /** Declares a job kind and, when this process runs workers, its handler (`concurrency` parallel jobs). */
  define<T extends object>(name: string, handler: JobHandler<T>, concurrency = 2, options: DefineOptions = {}): void {
    this.handlers.set(name, { handler, concurrency, resumable: options.resumable !== false, batchSize: options.batchSize ?? 1 });
  }

  private async sql<R = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
    const r = (await this.boss.getDb().executeSql(text, values)) as { rows?: R[] };
    return r.rows ?? [];
  }

  /** Starts pg-boss (creating its schema on first use), the queues and the workers. */
  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    if (this.runWorkers) {
      await this.heartbeat();
      await this.sweep();
      this.timers.push(
        setInterval(() => {
          void this.heartbeat().catch((e) => this.report(e));
        }, queueTuning.heartbeatMs),
      );
      this.timers.push(
        setInterval(() => {
          void this.sweep().catch((e) => this.report(e));
        }, queueTuning.sweepMs),
      );
      for (const t of this.timers) t.unref();
    }
    for (const [name, { handler, concurrency, resumable, batchSize }] of this.handlers) {
      await this.ensureQueue(name);
      if (!this.runWorkers) continue;
      for (let i = 0; i < concurrency; i++) {
        // A worker that just ran a job asks again at once (it drains what is queued), and waits `pollS` only once it
        // found none (pg-boss waits the interval after every fetch unless its worker was notified).
        let workerId = '';
        const run = async (jobs: Array<JobWithMetadata<any>>) => {
          for (const job of jobs) {
            if (!resumable) {
              await handler(job.data, job);
              continue;
            }
            await this.sql(
              `insert into queue_active_jobs (job_id, queue, worker_id) values ($1, $2, $3)
              on conflict (job_id) do update set worker_id = excluded.worker_id, queue = excluded.queue, started_at = now()`,
              [job.id, name, this.workerId],
            );
            try {
              await handler(job.data, job);
            } finally {
              await this.sql('delete from queue_active_jobs where job_id = $1 and worker_id = $2', [job.id, this.workerId]).catch((e) => this.report(e));
            }
          }
        };
        workerId = await this.boss.work<any>(name, { pollingIntervalSeconds: queueTuning.pollS, batchSize, includeMetadata: true }, async (jobs) => {
          try {
            await run(jobs);
          } finally {
            if (jobs.length > 0 && workerId) this.boss.notifyWorker(workerId);
          }
        });
        const ids = this.workerIds.get(name) ?? [];
        ids.push(workerId);
        this.workerIds.set(name, ids);
      }
    }
  }

  /** Wakes one of this process's workers of `name` (in turn), if it runs any: a job was just enqueued. */
  private wake(name: string): void {
    const ids = this.workerIds.get(name);
    if (!ids?.length || this.stopping) return;
    const next = (this.nextWake.get(name) ?? 0) % ids.length;
    this.nextWake.set(name, next + 1);
    this.boss.notifyWorker(ids[next]!);
  }

  private report(e: unknown): void {
    const err = e as Error & { code?: string };
    if (this.stopping || err.code === '57P01') return;
    console.error('[queue]', err.message);
  }

  /** Upserts this process's heartbeat (recreated if a sweep removed it during a long stall). */
  private async heartbeat(): Promise<void> {
    await this.sql(
      `insert into queue_workers (id, pid, host) values ($1, $2, $3)
      on conflict (id) do update set heartbeat_at = now()`,
      [this.workerId, process.pid, os.hostname()],
    );
  }

  /**
   * Removes dead workers and fails (→ retry) the resumable jobs they held.
   * @returns how many jobs were handed back.
   */
  async sweep(): Promise<number> {
    if (!this.started) return 0;
    const host = os.hostname();
    const workers = await this.sql<{ id: string; pid: number; host: string; stale: boolean; started_at: Date }>(
      `select id, pid, host, started_at, heartbeat_at < now() - make_interval(secs => $1::float8 / 1000) as stale from queue_workers where id <> $2`,
      [queueTuning.staleMs, this.workerId],
    );
    // Our own pid with an earlier start: a previous process (a container's pid 1 after a restart).
    const processStart = Date.now() - process.uptime() * 1000 - 1000;
    const previous = (w: { pid: number; started_at: Date }) => (w.pid === process.pid ? new Date(w.started_at).getTime() < processStart : !pidAlive(w.pid));
    const dead = workers.filter((w) => w.stale || (w.host === host && previous(w))).map((w) => w.id);
    if (dead.length) await this.sql('delete from queue_workers where id = any($1::uuid[])', [dead]);
    const orphans = await this.sql<{ job_id: string; queue: string }>(`delete from queue_active_jobs j
      where not exists (select 1 from queue_workers w where w.id = j.worker_id) returning job_id, queue`);
    // A job a worker fetched (pg-boss marks it active) and was killed before recording it in queue_active_jobs (the
    // next statement) has no record at all: a resumable job active for ORPHAN_UNRECORDED_MS with no record is one of
    // those (a live worker records its job within milliseconds of fetching it). The outbox crash test's kills, timed
    // by the webhooks it waits for, landed in that window and left the jobs active until their 15-minute expiry.
    const resumable = [...this.handlers].filter(([, h]) => h.resumable).map(([name]) => name);
    const unrecorded = resumable.length
      ? await this.sql<{ job_id: string; queue: string }>(
          `select j.id::text as job_id, j.name as queue from pgboss.job j
          where j.state = 'active' and j.name = any($1::text[]) and j.started_on < now() - make_interval(secs => $2::float8 / 1000)
            and not exists (select 1 from queue_active_jobs a where a.job_id = j.id)`,
          [resumable, ORPHAN_UNRECORDED_MS],
        )
      : [];
    orphans.push(...unrecorded);
    for (const o of orphans) {
      await this.boss.fail(o.queue, o.job_id, { message: 'worker stopped; retried' });
    }
    if (orphans.length) console.warn(`[queue] retrying ${orphans.length} job(s) of a stopped worker`);
    return orphans.length;
  }

  /** Ids of the workers that are alive (heartbeat younger than `staleMs`), this one included. */
  async liveWorkerIds(): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(`select id from queue_workers where heartbeat_at >= now() - make_interval(secs => $1::float8 / 1000)`, [
      queueTuning.staleMs,
    ]);
    return [...new Set([this.workerId, ...rows.map((r) => r.id)])];
  }

  private async ensureQueue(name: string): Promise<void> {
    if (this.created.has(name)) return;
    await this.boss.createQueue(name, { retryLimit: 5, retryDelay: 2, retryBackoff: true });
    this.created.add(name);
  }

  /**
   * Enqueues a job. Pass `db` (a Kysely transaction) to enqueue inside it.
   * @returns the job id, or null when a singleton with the same key is already queued.
   */
  async enqueue<T extends object>(name: string, data: T, options: EnqueueOptions = {}, db?: DbOrTx): Promise<string | null> {
    if (!this.started) throw new Error('queue not started');
    await this.ensureQueue(name);
    const connection = db
      ? { db: { executeSql: async (text: string, values?: unknown[]) => db.executeQuery(CompiledQuery.raw(text, values ?? [])) as Promise<{ rows: any[] }> } }
      : {};
    const id = await this.boss.send(name, data, { ...options, ...connection });
    if (id && !options.startAfter) {
      if (db) setTimeout(() => this.wake(name), queueTuning.wakeAfterTxMs).unref();
      else this.wake(name);
    }
    return id;
  }

  /**
   * Enqueues several jobs of `name` in one statement (pg-boss `insert`), each with its data and options (a job whose
   * `singletonKey` is already queued is skipped, as with {@link enqueue}). Outside any transaction.
   */
  async enqueueMany<T extends object>(name: string, jobs: ReadonlyArray<{ data: T } & EnqueueOptions>): Promise<void> {
    if (!this.started) throw new Error('queue not started');
    if (jobs.length === 0) return;
    await this.ensureQueue(name);
    await this.boss.insert(
      name,
      jobs.map((j) => ({ ...j })),
    );
    this.wake(name);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    // The worker row stays: jobs still active after the graceful timeout are handed back by the
    // next sweep (of another node once the row is stale, or of this host's next process at once).
    if (this.started) await this.boss.stop({ graceful: true, timeout: 5000 });
    this.started = false;
  }
}
