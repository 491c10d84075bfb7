/**
 * Groups and labels on a real server: counters, membership changes by ids and by all + filters
 * (across pages), labels, tenant isolation, and the campaign-facing recipient functions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { setContactUnsubscribed } from './contacts.service.js';
import { countGroupRecipients, listGroupRecipients } from './groups.service.js';

let s: TestServer;
let a: Account;
let b: Account;
const ids: number[] = [];

beforeAll(async () => {
  s = await startTestServer();
  [a, b] = await Promise.all([createAccount(s), createAccount(s)]);
  const up = await a.client.put(`/api/companies/${a.companyId}/contacts`, {
    contacts: Array.from({ length: 30 }, (_, i) => ({ name: `${i % 3 === 0 ? 'Vip' : 'Reg'} ${i}`, number: `21255504${String(i).padStart(2, '0')}` })),
  });
  ids.push(...up.body.data.map((d: { id: number }) => d.id));
});
afterAll(async () => {
  await s?.close();
});

describe('groups', () => {
  it('counts contacts, active, invalid and unsubscribed; adds and removes by ids and by all + filters', async () => {
    const g = await a.client.post('/api/groups', { company_id: a.companyId, name: 'Vips' });
    expect(g.status).toBe(201);
    const all = await a.client.post(`/api/groups/${a.companyId}/${g.body.id}/all-contacts`, { filters: { search: 'Vip' } });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.count).toBe(10);
    await setContactUnsubscribed(s.ctx, a.companyId, ids[0]!, true);
    const add = await a.client.post(`/api/groups/${g.body.id}/contacts`, { contacts: [ids[1], ids[2]] });
    expect(add.body.count).toBe(2);
    const one = await a.client.get(`/api/groups/${g.body.id}`);
    expect(one.body).toMatchObject({ name: 'Vips', contact_count: 12, active_count: 11, unsubscriber_count: 1, invalid_count: 0 });
    const list = await a.client.get(`/api/groups?company_id=${a.companyId}`);
    expect(list.body.data.find((x: { id: number }) => x.id === g.body.id).contact_count).toBe(12);

    const rm = await a.client.request('DELETE', `/api/groups/${g.body.id}/contacts`, { all: true, filters: { search: 'Reg' } });
    expect(rm.body.count).toBe(2);
    expect((await a.client.get(`/api/groups/${g.body.id}`)).body.contact_count).toBe(10);

    // recipients for campaigns: distinct across groups, keyset paged
    const g2 = await a.client.post('/api/groups', { company_id: a.companyId, name: 'Everyone' });
    await a.client.post(`/api/groups/${g2.body.id}/contacts`, { all: true });
    const counts = await countGroupRecipients(s.ctx, a.companyId, [g.body.id, g2.body.id]);
    expect(counts).toEqual({ total: 30, active: 29, unsubscribed: 1, invalid: 0 });
    const seen: number[] = [];
    let after: number | undefined;
    for (;;) {
      const page = await listGroupRecipients(s.ctx, a.companyId, [g.body.id, g2.body.id], { afterContactId: after, limit: 7 });
      if (page.contacts.length === 0) break;
      seen.push(...page.contacts.map((c) => c.id));
      after = page.contacts.at(-1)!.id;
    }
    expect(seen).toEqual([...ids].sort((x, y) => x - y));
    expect(await countGroupRecipients(s.ctx, b.companyId, [g.body.id])).toEqual({ total: 0, active: 0, unsubscribed: 0, invalid: 0 });

    // tenant isolation, rename, delete
    expect((await b.client.get(`/api/groups/${g.body.id}`)).status).toBe(404);
    expect((await b.client.post(`/api/groups/${g.body.id}/contacts`, { contacts: [ids[3]] })).status).toBe(404);
    expect((await b.client.post(`/api/groups/${a.companyId}/${g.body.id}/all-contacts`, {})).status).toBe(403);
    expect((await a.client.patch(`/api/groups/${g.body.id}`, { name: '' })).status).toBe(422);
    expect((await a.client.patch(`/api/groups/${g.body.id}`, { name: 'VIPs' })).body.name).toBe('VIPs');
    expect((await a.client.delete(`/api/groups/${g.body.id}`)).status).toBe(200);
    expect((await a.client.get(`/api/groups/${g.body.id}`)).status).toBe(404);
    expect((await listGroupRecipients(s.ctx, a.companyId, [g.body.id], { limit: 100 })).contacts).toEqual([]);
  });
});

describe('labels', () => {
  it('creates, bulk adds / removes by ids and all + filters, filters contacts, deletes', async () => {
    const l = await a.client.post(`/api/companies/${a.companyId}/contactLabels`, { label: 'Hot' });
    expect(l.status).toBe(201);
    expect((await a.client.post(`/api/companies/${a.companyId}/contactLabels`, { label: 'hot' })).status).toBe(422);
    expect((await a.client.post(`/api/companies/${a.companyId}/contactLabels`, { label: '' })).status).toBe(422);
    const add = await a.client.post(`/api/companies/${a.companyId}/contactLabels/${l.body.id}/bulkAddLabel`, { all: true, filters: { search: 'Reg' } });
    expect(add.body.count).toBe(20);
    const rm = await a.client.post(`/api/companies/${a.companyId}/contactLabels/${l.body.id}/bulkRemoveLabel`, { contacts: [ids[1]] });
    expect(rm.body.count).toBe(1);
    const list = await a.client.get(`/api/contacts?company_id=${a.companyId}&label_id=${l.body.id}&per_page=5`);
    expect(list.body.meta.pagination).toMatchObject({ total: 19, total_pages: 4 });
    expect(list.body.data[0].labels).toEqual([{ id: l.body.id, label: 'Hot' }]);
    expect((await a.client.get(`/api/companies/${a.companyId}/contactLabels`)).body.data).toEqual([{ id: l.body.id, label: 'Hot' }]);
    expect((await b.client.get(`/api/companies/${a.companyId}/contactLabels`)).status).toBe(403);
    expect((await b.client.delete(`/api/companies/${b.companyId}/contactLabels/${l.body.id}`)).status).toBe(404);
    expect((await a.client.delete(`/api/companies/${a.companyId}/contactLabels/${l.body.id}`)).status).toBe(200);
    expect((await a.client.get(`/api/contacts/${ids[2]}`)).body.labels).toEqual([]);
  });
});
