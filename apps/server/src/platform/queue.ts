/**
 * Background jobs on pg-boss (in the same PostgreSQL). Handlers must be idempotent:
 * the queue delivers at least once. `enqueue` can join the caller's Kysely transaction so a
 * job exists if and only if the rows that asked for it were committed.
 */
import { CompiledQuery } from 'kysely';
import { PgBoss, type Job } from 'pg-boss';
import type { DbOrTx } from './db/db.js';

export type JobHandler<T> = (data: T, job: Job<T>) => Promise<void>;
export type EnqueueOptions = { startAfter?: Date | number; singletonKey?: string; retryLimit?: number; retryDelay?: number };

export class Queue {
  private readonly boss: PgBoss;
  private readonly created = new Set<string>();
  private readonly handlers = new Map<string, { handler: JobHandler<any>; concurrency: number }>();
  private started = false;
  private stopping = false;

  constructor(url: string, private readonly runWorkers: boolean) {
    this.boss = new PgBoss({ connectionString: url, max: 4, schedule: false, supervise: runWorkers });
    this.boss.on('error', (err: Error & { code?: string }) => {
      // 57P01: PostgreSQL is shutting down (Ctrl-C stops the embedded server): not worth a stack trace.
      if (err.code === '57P01' || this.stopping) return;
      console.error('[queue]', err.message);
    });
  }

  /** Declares a job kind and, when this process runs workers, its handler (`concurrency` parallel jobs). */
  define<T extends object>(name: string, handler: JobHandler<T>, concurrency = 2): void {
    this.handlers.set(name, { handler, concurrency });
  }

  /** Starts pg-boss (creating its schema on first use), the queues and the workers. */
  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const [name, { handler, concurrency }] of this.handlers) {
      await this.ensureQueue(name);
      if (!this.runWorkers) continue;
      for (let i = 0; i < concurrency; i++) {
        await this.boss.work<any>(name, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async (jobs) => {
          for (const job of jobs) await handler(job.data, job);
        });
      }
    }
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
    return this.boss.send(name, data, { ...options, ...connection });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.started) await this.boss.stop({ graceful: true, timeout: 5000 });
    this.started = false;
  }
}
