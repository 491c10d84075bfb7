/**
 * Automatic prepared statements (prepared.ts): a repeated parameterised statement runs as a named
 * prepared statement on its connection; one-off and text-only statements stay unnamed; a schema
 * change by another connection ("cached plan must not change result type") is retried unnamed
 * outside a transaction and reported inside one.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import type { DbOrTx } from './db.js';
import { opaqueArray } from './prepared.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

const prepared = async (tx: DbOrTx) =>
  (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(tx)).rows.map((r) => r.statement.replace(/\s+/g, ' ').trim());

describe('prepared statements', () => {
  it('prepares a parameterised statement from its second run on, per connection', async () => {
    await s.ctx.db.transaction().execute(async (tx) => {
      const marker = `prep-${Date.now()}`;
      const run = () => sql<{ v: string }>`select ${marker}::text || 'x' as v, ${1}::int as one`.execute(tx);
      expect((await run()).rows[0]!.v).toBe(`${marker}x`);
      expect((await prepared(tx)).some((t) => t.includes("::text || 'x' as v"))).toBe(false);
      expect((await run()).rows[0]!.v).toBe(`${marker}x`);
      expect((await run()).rows[0]!.v).toBe(`${marker}x`);
      expect((await prepared(tx)).filter((t) => t.includes("::text || 'x' as v"))).toHaveLength(1);
      // Statements without parameters are never prepared.
      await sql`select 42 as answer_without_params`.execute(tx);
      await sql`select 42 as answer_without_params`.execute(tx);
      expect((await prepared(tx)).some((t) => t.includes('answer_without_params'))).toBe(false);
    });
  });

  it('keeps one generic plan for a statement over an opaque array, where a plain array is planned on every run', async () => {
    await sql`create table opaque_probe_items (id bigint primary key, v text)`.execute(s.ctx.db);
    await sql`insert into opaque_probe_items select g, g::text from generate_series(1, 20000) g`.execute(s.ctx.db);
    await sql`analyze opaque_probe_items`.execute(s.ctx.db);
    await s.ctx.db.connection().execute(async (conn) => {
      const plans = async (marker: string) =>
        (
          await sql<{ generic_plans: string; custom_plans: string }>`select generic_plans::text, custom_plans::text from pg_prepared_statements
            where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`.execute(conn)
        ).rows[0];
      for (let i = 1; i <= 12; i++) {
        const ids = [i, i + 1];
        const plain = await sql<{ id: number }>`select t.id, 'plain_probe' as m from unnest(${ids}::bigint[]) as c(id)
          join opaque_probe_items t on t.id = c.id order by t.id`.execute(conn);
        const opaque = await sql<{ id: number }>`select t.id, 'opaque_probe' as m from unnest(${opaqueArray(ids, 'bigint[]')}) as c(id)
          join opaque_probe_items t on t.id = c.id order by t.id`.execute(conn);
        expect(plain.rows.map((r) => Number(r.id))).toEqual(ids);
        expect(opaque.rows.map((r) => Number(r.id))).toEqual(ids);
      }
      // Prepared from the second run on: 11 executions each.
      expect(await plans('plain_probe')).toEqual({ generic_plans: '0', custom_plans: '11' });
      const opaque = await plans('opaque_probe');
      expect(Number(opaque?.generic_plans)).toBeGreaterThanOrEqual(5);
      expect(Number(opaque?.custom_plans)).toBeLessThanOrEqual(6);
    });
  });

  it('survives a column added by another connection: retried unnamed outside a transaction, reported inside one', async () => {
    await sql`create table prep_probe (id int primary key, a text)`.execute(s.ctx.db);
    await sql`insert into prep_probe values (1, 'one')`.execute(s.ctx.db);
    // One connection, so the statement is prepared where it runs next.
    await s.ctx.db.connection().execute(async (conn) => {
      const read = () => sql<Record<string, unknown>>`select * from prep_probe where id = ${1}`.execute(conn);
      await read();
      await read();
      await read();
      const other = new (await import('pg')).default.Client({ connectionString: s.dbUrl });
      await other.connect();
      await other.query("alter table prep_probe add column b text default 'bee'");
      await other.end();
      // Outside a transaction: answered (with the new column) instead of failing.
      expect((await read()).rows[0]).toEqual({ id: 1, a: 'one', b: 'bee' });
    });
    // A new text after another change, prepared again, then changed inside a transaction: the error reaches the caller.
    await s.ctx.db.connection().execute(async (conn) => {
      const read = () => sql<Record<string, unknown>>`select * from prep_probe where id >= ${1}`.execute(conn);
      await read();
      await read();
      const other = new (await import('pg')).default.Client({ connectionString: s.dbUrl });
      await other.connect();
      await other.query('alter table prep_probe add column c text');
      await other.end();
      await sql`begin`.execute(conn);
      await expect(read()).rejects.toThrow(/cached plan must not change result type/);
      await sql`rollback`.execute(conn);
      // From then on that text is sent unnamed.
      expect((await read()).rows[0]).toEqual({ id: 1, a: 'one', b: 'bee', c: null });
    });
  });
});
