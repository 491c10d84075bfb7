/**
 * The Kysely instance over a `pg` pool, and the versioned migrations applied at start.
 * `bigint` columns come back as JavaScript numbers (ids stay far below 2^53).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import pg from 'pg';
import type { DB } from './schema.js';
import { usePreparedStatements } from './prepared.js';
import { inReaction } from './reaction-scope.js';

export { asReaction } from './reaction-scope.js';
import { guardTransactions, type PoolWaitInTransactionError, type TxGuardMode } from './tx-guard.js';

pg.types.setTypeParser(20, (v) => Number(v)); // int8 → number

export type Db = Kysely<DB>;
/** A database handle or an open transaction; repositories take either so the caller owns the transaction. */
export type DbOrTx = Kysely<DB> | Transaction<DB>;

export type DbOptions = {
  /** Connections in the pool (config DB_POOL_MAX, default 10). */
  max?: number;
  /** Connections in the reactions' pool (config DB_REACTIONS_POOL_MAX, default 8; see ./reaction-scope.ts). */
  reactionsMax?: number;
  /**
   * Longest wait for a connection, ms (config DB_ACQUIRE_TIMEOUT_MS, default 3000); then the query
   * fails with node-postgres' "timeout exceeded when trying to connect" (answered 503 by
   * platform/http/error-handler.ts). Also bounds opening a new connection.
   */
  acquireTimeoutMs?: number;
  /** Longest statement, ms (0 or unset: none). Set on every connection (`statement_timeout`). */
  statementTimeoutMs?: number;
  /** Longest wait for a lock, ms (0 or unset: none). Set on every connection (`lock_timeout`). */
  lockTimeoutMs?: number;
  /** Receives errors of connections that break while checked out (a terminated backend, a restart): logged, never fatal. */
  onConnectionError?: (error: Error) => void;
  /** What a request for a connection from inside an open transaction does (./tx-guard.ts); default 'warn'. */
  txGuard?: TxGuardMode;
  /** Receives the guard's reports in mode 'warn'. */
  onTxGuardViolation?: (error: PoolWaitInTransactionError) => void;
};

/**
 * Opens the pools and a Kysely instance over them: the answers' pool (`pool`, `max` connections) and the reactions'
 * pool (`reactionsMax`), chosen per connection by `asReaction` (./reaction-scope.ts). Repeated parameterised statements run as
 * prepared statements (./prepared.ts); transactions are guarded against waiting on either pool (./tx-guard.ts).
 */
export function createDb(url: string, options: DbOptions = {}): { db: Db; pool: pg.Pool; reactionsPool: pg.Pool } {
  const open = (max: number, extra: pg.PoolConfig = {}) => {
    const p = new pg.Pool({
      connectionString: url,
      max,
      connectionTimeoutMillis: options.acquireTimeoutMs ?? 3000,
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      ...(options.lockTimeoutMs ? { lock_timeout: options.lockTimeoutMs } : {}),
      // A transaction left open by a stalled process does not hold its locks for ever.
      idle_in_transaction_session_timeout: 60_000,
      ...extra,
    });
    p.on('error', () => {}); // idle client errors are reported by the next query
    // A connection that breaks while checked out (PostgreSQL restarted, the backend terminated) emits 'error' on its
    // client: without a listener that would end the process. The query in flight fails on its own; the broken client
    // is dropped by the pool when released (not queryable).
    p.on('connect', (client) => client.on('error', (e) => options.onConnectionError?.(e)));
    usePreparedStatements(p);
    return p;
  };
  const pool = open(options.max ?? 10);
  // Reactions may wait longer for a connection than an answer (nobody waits on them), still with a deadline.
  const reactionsPool = open(options.reactionsMax ?? 8, {
    options: '-c synchronous_commit=off',
    connectionTimeoutMillis: Math.max(options.acquireTimeoutMs ?? 3000, 30_000),
  });
  // Kysely asks this for its connections: the reactions' pool inside asReaction, the answers' pool otherwise.
  const router = {
    connect: () => (inReaction() ? reactionsPool : pool).connect(),
    end: async () => {
      await Promise.all([pool.end(), reactionsPool.end()]);
    },
  };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: router as unknown as pg.Pool }) });
  guardTransactions(db, [pool, reactionsPool], options.txGuard ?? 'warn', options.onTxGuardViolation);
  return { db, pool, reactionsPool };
}

/**
 * Every file of `../migrations/` named `NNNN_name.ts` (or `.js` when compiled), keyed by its name
 * without the extension: a new migration is just a new file (no list to keep in step).
 */
class FolderProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const dir = fileURLToPath(new URL('../migrations/', import.meta.url));
    const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.(ts|js)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('.test.'));
    const out: Record<string, Migration> = {};
    for (const f of files.sort()) out[f.replace(/\.(ts|js)$/, '')] = (await import(pathToFileURL(path.join(dir, f)).href)) as Migration;
    return out;
  }
}

/**
 * Applies pending migrations in order. Safe to call from several nodes at once
 * (Kysely takes an advisory lock).
 * @throws the migration's error; the failed migration's transaction is rolled back.
 */
/**
 * Applies pending migrations over a connection of its own, without the pool's statement and lock
 * timeouts (a migration may wait for a busy table and take long). See {@link migrate}.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: new FolderProvider(), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw error instanceof Error ? error : new Error(`Migration ${failed?.migrationName ?? ''} failed`);
}
