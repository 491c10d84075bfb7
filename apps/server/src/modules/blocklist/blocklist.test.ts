/**
 * The blocklist through the real server (spec 001 "Blocks"): blocks on a number and company-wide,
 * the single and batched checks (from the cache and from the one-statement query), another
 * company's number refused (404), another company's block hidden (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { blocklistRepository } from './blocklist.repository.js';
import { blockedParties, isPartyBlocked } from './blocklist.service.js';

let s: TestServer;
let a: Account;
let other: Account;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Blair' });
  other = await createAccount(s, { firstName: 'Olga' });
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('blocklist', () => {
  it('blocks on one number or company-wide; single and batched checks agree, with and without the cache', async () => {
    const n1 = await buyTestNumber(a, '312', 0);
    const n2 = await buyTestNumber(a, '312', 1);
    const onOne = await a.client.post('/api/blocks', { company_id: a.companyId, target: '(773) 555-0101', number_id: n1.id, global: false, action: 'reject' });
    expect(onOne.status, JSON.stringify(onOne.body)).toBe(201);
    expect(onOne.body.data).toMatchObject({ target: '+17735550101', number_id: n1.id, global: false });
    expect((await a.client.post('/api/blocks', { company_id: a.companyId, target: '7735550102', global: true, action: 'reject' })).status).toBe(201);

    const pairs = [
      { numberId: n1.id, party: '+17735550101' },
      { numberId: n2.id, party: '+17735550101' },
      { numberId: n1.id, party: '+17735550102' },
      { numberId: n2.id, party: '+17735550102' },
      { numberId: n2.id, party: '+17735550103' },
    ];
    const expected = new Set([`${n1.id}:+17735550101`, `${n1.id}:+17735550102`, `${n2.id}:+17735550102`]);
    expect(await blockedParties(s.ctx, a.companyId, pairs)).toEqual(expected);
    // The query form (used when a company has too many blocks to cache) answers the same.
    expect(new Set(await blocklistRepository.blockedAmong(s.ctx.db, a.companyId, pairs))).toEqual(expected);
    for (const p of pairs) expect(await isPartyBlocked(s.ctx, a.companyId, p.numberId, p.party)).toBe(expected.has(`${p.numberId}:${p.party}`));
    expect(await blockedParties(s.ctx, other.companyId, pairs)).toEqual(new Set());
    expect(await blockedParties(s.ctx, a.companyId, [])).toEqual(new Set());

    // Deleting a block is seen at once (the cache is invalidated on write).
    expect((await a.client.delete(`/api/blocks/${onOne.body.data.id}`)).status).toBe(200);
    expect(await isPartyBlocked(s.ctx, a.companyId, n1.id, '+17735550101')).toBe(false);
  });

  it("refuses another company's number and hides another company's block", async () => {
    const mine = await buyTestNumber(a, '415', 0);
    const onTheirs = await other.client.post('/api/blocks', {
      company_id: other.companyId,
      target: '7735550109',
      number_id: mine.id,
      global: false,
      action: 'reject',
    });
    expect(onTheirs.status).toBe(404);
    expect((await other.client.post('/api/blocks', { company_id: other.companyId, target: '7735550109', global: false, action: 'reject' })).status).toBe(422);
    const b = await a.client.post('/api/blocks', { company_id: a.companyId, target: '7735550110', global: true, action: 'reject' });
    expect((await other.client.delete(`/api/blocks/${b.body.data.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/blocks/${a.companyId}`)).status).toBe(403);
  });
});
