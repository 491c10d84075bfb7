/**
 * Automatic prepared statements for the server's pool (docs/architecture.md "The voice webhook's hot path").
 *
 * Kysely sends every statement unnamed, so PostgreSQL parses, analyses and plans it on every
 * execution. For the voice webhook's hot statements (the group-commit insert, the batched reads)
 * that was most of PostgreSQL's CPU per call. Here a parameterised statement whose exact text this
 * process has sent before is sent as a named prepared statement instead (node-postgres prepares a
 * name once per connection, then only binds and executes it; PostgreSQL keeps its plan per
 * connection and may switch to a generic plan after five executions, as for any prepared statement).
 *
 * Rules:
 * - Only statements with parameters and a single SQL command starting with SELECT, WITH, INSERT,
 *   UPDATE or DELETE; a text is prepared from its second execution on (one-off statements stay
 *   unnamed); texts with an `IN` list of four or more parameters stay unnamed (each list length is another text). At most `MAX_PREPARED_TEXTS` distinct texts per process are prepared (statements
 *   with `IN ($1, $2, …)` lists of many lengths would otherwise grow the cache without bound).
 * - A schema change made by another process (a migration during a rolling deploy) can make
 *   PostgreSQL reject a prepared statement with "cached plan must not change result type"
 *   (SQLSTATE 0A000). That text is then never prepared again; outside a transaction the statement
 *   is retried at once unnamed, inside one the error reaches the caller (its transaction is
 *   already aborted, as for any failed statement).
 *
 * Apply with `usePreparedStatements(pool)` before the pool hands out clients.
 */
import { sql, type RawBuilder } from 'kysely';
import type pg from 'pg';

/**
 * A statement whose text contains this comment is always sent unnamed, so PostgreSQL plans it
 * for its actual parameters every time (searches whose best plan depends on the term).
 */
export const CUSTOM_PLAN_MARK = '/* custom plan */';

/** Array types {@link opaqueArray} takes. */
export type OpaqueArrayType = 'bigint[]' | 'int[]' | 'text[]' | 'jsonb[]' | 'timestamptz[]';

/**
 * An array parameter whose contents the planner does not look at (`(select $n::type)`, evaluated once per execution).
 * `unnest($n)` is estimated at the array's real length in a custom plan and at 10 elements in the generic one, so
 * the generic plan of a statement over one or two elements never looks cheaper and PostgreSQL plans the prepared
 * statement again on every execution (0.2–0.5 ms each for the inbox's latest-and-unread read and the voice group
 * commit). Hidden, both estimates agree and PostgreSQL keeps one generic plan after five executions. Only for
 * statements whose plan cannot turn into a scan of a table that grows fast: inserts from the array, joins between the
 * statement's own CTEs, lateral probes by key of the inbox's items. Not for joins with tables that fill quickly from
 * empty (outbox deliveries and events, per-text tracking rows): a generic plan made while such a table is small keeps
 * scanning it until ANALYZE replans (measured in bench/call-routing: a lookup of later events went from 0.03 to 1.3 ms
 * a run). Not as the operand of `= any(…)` or `<> all(…)`: a parenthesised subquery there compares with its rows.
 * @param values the array (a parameter of the statement).
 * @param type its PostgreSQL array type.
 */
export function opaqueArray(values: readonly unknown[], type: OpaqueArrayType): RawBuilder<unknown> {
  return sql`(select ${values}::${sql.raw(type)})`;
}

/** Most distinct statement texts this process prepares. */
export const MAX_PREPARED_TEXTS = 500;

const PREPARABLE = /^\s*(select|with|insert|update|delete)\b/i;
/**
 * `IN ($1, $2, $3, $4, …)`: a list of one batch's length (batch consumers' lookups, multi-row reads). Every length is
 * a text of its own that would take a slot of the cache, so these stay unnamed.
 */
const LONG_IN_LIST = /\bin \((\$\d+, ){3,}\$\d+\)/i;
/** text → its name once prepared; texts seen once are kept in `seenOnce`. */
const names = new Map<string, string>();
const seenOnce = new Set<string>();
/** Texts PostgreSQL refused as prepared statements (result type changed): always unnamed. */
const refused = new Set<string>();
let counter = 0;

/** The name to prepare `text` under, or undefined to send it unnamed. */
function nameFor(text: string): string | undefined {
  const known = names.get(text);
  if (known) return known;
  if (
    refused.has(text) ||
    names.size >= MAX_PREPARED_TEXTS ||
    !PREPARABLE.test(text) ||
    text.includes(';') ||
    text.includes(CUSTOM_PLAN_MARK) ||
    LONG_IN_LIST.test(text)
  )
    return undefined;
  if (!seenOnce.has(text)) {
    if (seenOnce.size >= MAX_PREPARED_TEXTS * 4) seenOnce.clear();
    seenOnce.add(text);
    return undefined;
  }
  seenOnce.delete(text);
  const name = `sb_${++counter}`;
  names.set(text, name);
  return name;
}

const isResultTypeChange = (e: unknown) =>
  (e as { code?: string })?.code === '0A000' && /cached plan must not change result type/i.test(String((e as Error)?.message));

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Makes every client of `pool` send repeated parameterised statements as named prepared
 * statements (see the module comment). Only the promise form `query(text, values)` is changed
 * (Kysely's); callbacks, query objects and text-only statements pass through untouched.
 */
export function usePreparedStatements(pool: pg.Pool): void {
  pool.on('connect', (client: pg.PoolClient) => {
    // Looked up at each call, so wrappers installed on the prototype later (test spies, the bench's
    // SQL timer) still see every statement.
    const proto = Object.getPrototypeOf(client) as { query: QueryFn };
    const original: QueryFn = (...args) => proto.query.apply(client, args);
    let inTransaction = false;
    (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text !== 'string') return original(...args);
      const command = text.trim().slice(0, 9).toLowerCase();
      if (command.startsWith('begin') || command.startsWith('start')) inTransaction = true;
      else if (command.startsWith('commit') || command.startsWith('rollback') || command.startsWith('end')) inTransaction = false;
      if (!Array.isArray(values) || values.length === 0 || typeof args[2] === 'function') return original(...args);
      const name = nameFor(text);
      if (!name) return original(...args);
      const inTx = inTransaction;
      return (original({ name, text, values }) as Promise<unknown>).catch((e: unknown) => {
        if (!isResultTypeChange(e)) throw e;
        names.delete(text);
        refused.add(text);
        if (inTx) throw e;
        return original(text, values);
      });
    };
  });
}
