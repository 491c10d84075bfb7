/**
 * "A transaction never waits on the pool" (docs/architecture.md "Transactions never wait on the
 * pool"): code running inside `db.transaction().execute(cb)` holds one of the pool's connections;
 * if it then asks the same pool for another one (a read through `ctx.db`, a batched read through a
 * GroupCommit, a nested transaction), a burst of as many concurrent transactions as the pool has
 * connections waits forever: each holds a connection and waits for one more. This module makes
 * such a wait visible the moment it is attempted, whatever the load:
 *
 * - `guardTransactions(db, pool, mode, report)` runs every transaction callback of `db` inside an
 *   async context marked "transaction open" (until the callback settles) and wraps
 *   `pool.connect` (which Kysely and `pool.query` use): a connection requested from inside an open
 *   transaction is a violation.
 * - `mode` 'throw' rejects the request with `PoolWaitInTransactionError` (tests: a violating code
 *   path fails at once, not only under load); 'warn' reports it once per call site through
 *   `report` and lets it proceed (production: the acquire deadline DB_ACQUIRE_TIMEOUT_MS still
 *   bounds the wait); 'off' installs nothing.
 * - `assertNoOpenTransaction(what)` lets code that waits on something else (another pool, a
 *   network call) apply the same rule.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, TransactionBuilder } from 'kysely';
import type pg from 'pg';

export type TxGuardMode = 'throw' | 'warn' | 'off';

/** Thrown (mode 'throw') when code inside an open transaction asks the pool for another connection. */
export class PoolWaitInTransactionError extends Error {
  constructor(what = 'a pool connection') {
    super(
      `${what} was requested while a transaction is open (docs/architecture.md "Transactions never wait on the pool"): read before the transaction or through its \`tx\``,
    );
    this.name = 'PoolWaitInTransactionError';
  }
}

type OpenTransaction = { open: boolean };
const current = new AsyncLocalStorage<OpenTransaction>();
let globalMode: TxGuardMode = 'off';
let globalReport: (error: PoolWaitInTransactionError) => void = () => {};
const reported = new Set<string>();

/** True while the caller runs inside the callback of a guarded transaction that has not settled. */
export function inOpenTransaction(): boolean {
  return current.getStore()?.open === true;
}

/** Runs `fn` outside any open transaction's context (work deliberately deferred past the commit). */
export function outsideTransaction<T>(fn: () => T): T {
  return current.exit(fn);
}

function violation(what: string): PoolWaitInTransactionError | undefined {
  if (!inOpenTransaction()) return undefined;
  const error = new PoolWaitInTransactionError(what);
  if (globalMode === 'throw') return error;
  // One report per call site: the first frames of our own code (not the guard, libraries or Node).
  const site = (error.stack ?? '')
    .split('\n')
    .slice(1)
    .filter((l) => !/node_modules|node:internal|tx-guard/.test(l))
    .slice(0, 4)
    .join('\n');
  if (!reported.has(site)) {
    if (reported.size > 1000) reported.clear();
    reported.add(site);
    globalReport(error);
  }
  return undefined;
}

/**
 * For code that waits on something other than this pool while it may be called inside a
 * transaction: throws (mode 'throw') or reports (mode 'warn') when a transaction is open.
 * @throws PoolWaitInTransactionError in mode 'throw' inside an open transaction.
 */
export function assertNoOpenTransaction(what: string): void {
  const e = violation(what);
  if (e) throw e;
}

function guardBuilder<DB>(builder: TransactionBuilder<DB>): TransactionBuilder<DB> {
  const execute = builder.execute.bind(builder);
  const setAccessMode = builder.setAccessMode.bind(builder);
  const setIsolationLevel = builder.setIsolationLevel.bind(builder);
  return Object.assign(builder, {
    execute: <T>(callback: Parameters<typeof execute<T>>[0]) =>
      execute<T>((trx) => {
        const state: OpenTransaction = { open: true };
        // Kysely commits or rolls back once the callback settles: the context closes with it, so
        // work the callback scheduled for later (timers, setImmediate) is not counted as inside.
        return current
          .run(state, () => callback(trx))
          .finally(() => {
            state.open = false;
          });
      }),
    setAccessMode: (mode: Parameters<typeof setAccessMode>[0]) => guardBuilder(setAccessMode(mode)),
    setIsolationLevel: (level: Parameters<typeof setIsolationLevel>[0]) => guardBuilder(setIsolationLevel(level)),
  });
}

/**
 * Installs the guard on `db` (its `transaction()` builders) and `pools` (their `connect`).
 * The mode and the reporter are process-wide (the last call wins): every server of a test process
 * runs the same rule.
 * @param report receives each violation once per call site in mode 'warn'.
 */
export function guardTransactions<DB>(
  db: Kysely<DB>,
  pools: pg.Pool | readonly pg.Pool[],
  mode: TxGuardMode,
  report: (error: PoolWaitInTransactionError) => void = () => {},
): void {
  globalMode = mode;
  globalReport = report;
  if (mode === 'off') return;
  const transaction = db.transaction.bind(db);
  Object.assign(db, { transaction: () => guardBuilder(transaction()) });
  for (const pool of Array.isArray(pools) ? pools : [pools]) {
    const connect = pool.connect.bind(pool) as (cb?: (...args: unknown[]) => void) => unknown;
    Object.assign(pool, {
      connect: (cb?: (err: Error | undefined, ...rest: unknown[]) => void) => {
        const e = violation('a connection from the pool');
        if (e) return cb ? cb(e) : Promise.reject(e);
        return connect(cb as (...args: unknown[]) => void);
      },
    });
  }
}
