/**
 * Contact lookups by number through the pool are batched (docs/architecture.md "The voice webhook's hot path"): lookups made in the same
 * turn of the event loop share one statement and each gets its own company's oldest match.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { outsideTransaction } from '../../platform/db/tx-guard.js';
import { findContactByNumber } from './contacts.service.js';

let s: TestServer;
let a: Account;
let b: Account;
beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  b = await createAccount(s);
});
afterAll(async () => s?.close());
afterEach(() => vi.restoreAllMocks());

const insert = (companyId: number, name: string, number: string) =>
  s.ctx.db
    .insertInto('contacts')
    .values({ company_id: companyId, name, number })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

describe('findContactByNumber', () => {
  it('answers lookups of one tick with one statement, per company, oldest first', async () => {
    const oldest = await insert(a.companyId, 'Ann', '+12125550101');
    await insert(a.companyId, 'Ann again', '+12125550101');
    const other = await insert(a.companyId, 'Bob', '+12125550102');
    const theirs = await insert(b.companyId, 'Cid', '+12125550101');

    const query = vi.spyOn(pg.Client.prototype, 'query');
    const found = await Promise.all([
      findContactByNumber(s.ctx, a.companyId, '+12125550101'),
      findContactByNumber(s.ctx, a.companyId, '+12125550102'),
      findContactByNumber(s.ctx, a.companyId, '+12125550103'),
      findContactByNumber(s.ctx, b.companyId, '+12125550101'),
      findContactByNumber(s.ctx, b.companyId, '+12125550102'),
      findContactByNumber(s.ctx, a.companyId, '+12125550101'),
    ]);
    expect(found.map((c) => c?.id ?? null)).toEqual([oldest, other, null, theirs, null, oldest]);
    const contactReads = query.mock.calls.filter(([q]) =>
      /from\s+unnest[\s\S]*join contacts/i.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
    );
    expect(contactReads).toHaveLength(1);
  });

  it('reads inside a transaction see that transaction (not batched)', async () => {
    const id = await s.ctx.db.transaction().execute(async (tx) => {
      const c = await tx
        .insertInto('contacts')
        .values({ company_id: a.companyId, name: 'Dee', number: '+12125550199' })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Another connection (deliberately, past the transaction guard) does not see it yet.
      expect(await outsideTransaction(() => findContactByNumber(s.ctx, a.companyId, '+12125550199'))).toBeUndefined();
      expect((await findContactByNumber(s.ctx, a.companyId, '+12125550199', tx))?.id).toBe(c.id);
      return c.id;
    });
    expect((await findContactByNumber(s.ctx, a.companyId, '+12125550199'))?.id).toBe(id);
  });
});
