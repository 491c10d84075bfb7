/**
 * The inbox through the real server: cursor paging (perPage default 5), search, filters,
 * read/unread, archive/restore and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact } from '../contacts/contacts.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let b: Account;
let n1: { id: number; number: string };
let n2: { id: number; number: string };
let sid = 0;

async function text(to: string, from: string, body: string) {
  sid += 1;
  const r = await postWebhook(s, '/webhooks/twilio/messaging', {
    MessageSid: `SMinbox${String(sid).padStart(26, '0')}`,
    From: from,
    To: to,
    Body: body,
    NumMedia: '0',
  });
  expect(r.status).toBe(200);
}

const senders = ['+13125550101', '+13125550102', '+13125550103', '+13125550104', '+13125550105', '+13125550106', '+13125550107'];

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  b = await createAccount(s);
  n1 = await buyTestNumber(a, '212');
  n2 = await buyTestNumber(a, '415');
  await createContact(s.ctx, a.companyId, { name: 'Maria Lopez', number: '+13125550104' });
  // 7 conversations on n1, oldest first; one on n2.
  for (const [i, from] of senders.entries()) await text(n1.number, from, `message number ${i}`);
  await text(n2.number, '+16175550199', 'brake pads quote please');
});
afterAll(async () => {
  await s?.close();
});

const base = () => `/api/companies/${a.companyId}/conversations`;

describe('conversation list', () => {
  it('pages 5 at a time by default, newest activity first, with an opaque cursor', async () => {
    const p1 = await a.client.get(base());
    expect(p1.status).toBe(200);
    expect(p1.body.meta.per_page).toBe(5);
    expect(p1.body.data).toHaveLength(5);
    expect(p1.body.data[0].recipient).toBe('+16175550199');
    expect(p1.body.meta.next_cursor).toEqual(expect.any(String));
    const p2 = await a.client.get(`${base()}?cursor=${encodeURIComponent(p1.body.meta.next_cursor)}`);
    expect(p2.body.data).toHaveLength(3);
    expect(p2.body.meta.next_cursor).toBeNull();
    const all = [...p1.body.data, ...p2.body.data];
    expect(new Set(all.map((c: any) => c.id)).size).toBe(8);
    const times = all.map((c: any) => Date.parse(c.lastActivityAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const bad = await a.client.get(`${base()}?cursor=not-a-cursor`);
    expect(bad.status).toBe(422);
  });

  it('filters by number and updatedAfter, and shows the contact', async () => {
    const byNumber = await a.client.get(`${base()}?perPage=20&numberIds[]=${n2.id}`);
    expect(byNumber.body.data.map((c: any) => c.recipient)).toEqual(['+16175550199']);
    const maria = (await a.client.get(`${base()}?perPage=20`)).body.data.find((c: any) => c.recipient === '+13125550104');
    expect(maria.contact).toMatchObject({ name: 'Maria Lopez', subscribed: true });
    const later = await a.client.get(`${base()}?perPage=20&updatedAfter=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(later.body.data).toHaveLength(0);
    const types = await a.client.get(`${base()}?perPage=20&types[]=voicemail`);
    expect(types.body.data).toHaveLength(0);
  });

  it('searches phone-like text by recipient digits, other text by contact name or body', async () => {
    const dashed = await a.client.get(`${base()}?search=${encodeURIComponent('(312) 555-0103')}`);
    expect(dashed.body.data.map((c: any) => c.recipient)).toEqual(['+13125550103']);
    const byName = await a.client.get(`${base()}?search=lopez`);
    expect(byName.body.data.map((c: any) => c.recipient)).toEqual(['+13125550104']);
    const byBody = await a.client.get(`${base()}?search=${encodeURIComponent('brake pads')}`);
    expect(byBody.body.data.map((c: any) => c.recipient)).toEqual(['+16175550199']);
  });
});

describe('read, unread, archive', () => {
  it('marks items read and unread and the whole conversation read', async () => {
    const conv = (await a.client.get(`${base()}?search=3125550101`)).body.data[0];
    expect(conv.numUnreadItems).toBe(1);
    const items = await a.client.get(`${base()}/${conv.id}/items`);
    expect(items.body.meta.per_page).toBe(20);
    const item = items.body.data[0];
    expect(item).toMatchObject({ isInbound: true, isRead: false, details: { type: 'message', content: 'message number 0', deliveryState: 'received' } });
    const read = await a.client.put(`${base()}/${conv.id}/items/${item.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.isRead).toBe(true);
    expect((await a.client.get(`${base()}/${conv.id}`)).body.numUnreadItems).toBe(0);
    await a.client.put(`${base()}/${conv.id}/items/${item.id}/unread`);
    expect((await a.client.get(`${base()}/${conv.id}`)).body.numUnreadItems).toBe(1);
    const all = await a.client.put(`${base()}/${conv.id}/read-all`);
    expect(all.status).toBe(200);
    expect(all.body.numUnreadItems).toBe(0);
  });

  it('archives and restores; a new inbound message un-archives', async () => {
    const conv = (await a.client.get(`${base()}?search=3125550102`)).body.data[0];
    const r = await a.client.put(`/api/inbox/conversations/${conv.id}/archive`);
    expect(r.status).toBe(200);
    expect(r.body.isArchived).toBe(true);
    expect((await a.client.get(`${base()}?perPage=50`)).body.data.some((c: any) => c.id === conv.id)).toBe(false);
    expect((await a.client.get(`${base()}?isArchived=1`)).body.data.map((c: any) => c.id)).toEqual([conv.id]);
    const restored = await a.client.put(`/api/inbox/conversations/${conv.id}/restore`);
    expect(restored.body.isArchived).toBe(false);
    await a.client.put(`/api/inbox/conversations/${conv.id}/archive`);
    await text(n1.number, '+13125550102', 'are you there?');
    const again = await a.client.get(`${base()}/${conv.id}`);
    expect(again.body.isArchived).toBe(false);
    expect(again.body.latestItem.details.content).toBe('are you there?');
  });

  it("never shows another company's conversations", async () => {
    const conv = (await a.client.get(base())).body.data[0];
    expect((await b.client.get(base())).status).toBe(403);
    const other = `/api/companies/${b.companyId}/conversations`;
    expect((await b.client.get(`${other}/${conv.id}`)).status).toBe(404);
    expect((await b.client.get(`${other}/${conv.id}/items`)).status).toBe(404);
    expect((await b.client.put(`${other}/${conv.id}/read-all`)).status).toBe(404);
    const item = (await a.client.get(`${base()}/${conv.id}/items`)).body.data[0];
    expect((await b.client.put(`${other}/${conv.id}/items/${item.id}/read`)).status).toBe(404);
    expect((await b.client.put(`/api/inbox/conversations/${conv.id}/archive`)).status).toBe(404);
    expect((await b.client.get(`${base()}/${conv.id}`)).status).toBe(403);
    expect((await b.client.get(other)).body.data).toHaveLength(0);
  });
});
