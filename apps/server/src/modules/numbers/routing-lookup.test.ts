/**
 * Routing lookups by E.164 through the pool are batched (docs/architecture.md "The voice webhook's hot path"): the voice webhook's cache
 * misses of one turn of the event loop share one statement; released numbers are not found.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { findRoutingByE164, getCompanyNumbers } from './numbers.service.js';

let s: TestServer;
let owner: Account;
let other: Account;
beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
  other = await createAccount(s);
});
afterAll(async () => s?.close());

async function buy(account: Account, areaCode: string): Promise<{ id: number; number: string }> {
  const found = await account.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}&limit=1`);
  const pick = found.body.data[0];
  const r = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

describe('findRoutingByE164 / getCompanyNumbers', () => {
  it('answers lookups of one tick with one statement and the right number each', async () => {
    const n1 = await buy(owner, '212');
    const n2 = await buy(owner, '312');
    const gone = await buy(owner, '415');
    const theirs = await buy(other, '646');
    await s.ctx.db.updateTable('numbers').set({ released_at: new Date() }).where('id', '=', gone.id).execute();

    const query = vi.spyOn(pg.Client.prototype, 'query');
    const found = await Promise.all([n1.number, n2.number, gone.number, '+19999999999', n1.number].map((n) => findRoutingByE164(s.ctx, n)));
    const reads = query.mock.calls.filter(([q]) =>
      /from "numbers" where "number" = any/i.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
    );
    query.mockRestore();
    expect(found.map((r) => r?.id ?? null)).toEqual([n1.id, n2.id, null, null, n1.id]);
    expect(found[0]!.company_id).toBe(owner.companyId);
    expect(reads).toHaveLength(1);

    // By id for one company: another company's and released numbers are absent.
    const mine = await getCompanyNumbers(s.ctx, owner.companyId, [n1.id, n2.id, gone.id, theirs.id, n1.id]);
    expect(mine.map((n) => n.id).sort((x, y) => x - y)).toEqual([n1.id, n2.id].sort((x, y) => x - y));
    expect(mine.find((n) => n.id === n2.id)?.number).toBe(n2.number);
  });
});
