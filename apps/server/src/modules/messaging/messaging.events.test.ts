/**
 * Messaging's seams to higher modules (docs/architecture.md "Reactions travel as typed domain
 * events"): the inbound-reply hook asked inside the webhook's transaction (campaigns' `skip_inbox`),
 * and the domain events emitted after commit, `message.received` and `message.status-changed`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { events, type DomainEvents } from '../../platform/events/index.js';
import { buyTestNumber } from './messaging.test-helpers.js';
import type { InboundReplyInput } from './messaging.hooks.js';

let s: TestServer;
let a: Account;
let number: { id: number; number: string };
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  number = await buyTestNumber(a, '646');
});
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
afterAll(async () => {
  await s?.close();
});

let sid = 0;
async function inbound(from: string, body: string): Promise<string> {
  const messageSid = `SMevents${String(++sid).padStart(26, '0')}`;
  const r = await postWebhook(s, '/webhooks/twilio/messaging', { MessageSid: messageSid, From: from, To: number.number, Body: body, NumMedia: '0' });
  expect(r.status).toBe(200);
  return messageSid;
}

/** Collects the payloads of `name` emitted for this test's company. */
function collect<K extends 'message.received' | 'message.status-changed'>(name: K): Array<DomainEvents[K]> {
  const seen: Array<DomainEvents[K]> = [];
  const handler = (_ctx: unknown, p: DomainEvents[K]) => {
    if (p.companyId === a.companyId) seen.push(p);
  };
  cleanups.push(events.consume(`test.messaging-events-${name}-${cleanups.length}`, name, handler));
  return seen;
}

describe('the inbound-reply hook', () => {
  it('is asked inside the transaction; its campaign travels on message.received', async () => {
    const asked: InboundReplyInput[] = [];
    cleanups.push(
      s.ctx.hooks.provide('inboundReply', async (_ctx, tx, input) => {
        if (input.companyId !== a.companyId) return { skipInbox: false, campaignId: null };
        // The hook reads through the webhook's transaction (docs/architecture.md "Transactions never wait on the pool").
        await tx.selectFrom('companies').select('id').where('id', '=', input.companyId).executeTakeFirstOrThrow();
        asked.push(input);
        return { skipInbox: false, campaignId: 4242 };
      }),
    );
    const received = collect('message.received');
    const carrierSid = await inbound('(312) 555-0101', 'Is this still on?');
    expect(asked).toEqual([{ companyId: a.companyId, numberId: number.id, from: '+13125550101', body: 'Is this still on?' }]);
    const e = await eventually(async () => received[0]);
    expect(e).toMatchObject({ numberId: number.id, from: '+13125550101', body: 'Is this still on?', carrierSid, keyword: null, campaignId: 4242 });
    expect(e.itemId).toEqual(expect.any(Number));
    const items = await a.client.get(`/api/companies/${a.companyId}/conversations/${e.conversationId}/items`);
    expect(items.body.data.map((i: any) => i.id)).toContain(e.itemId);
  });

  it('keeps a skip-inbox reply out of the inbox, and still honours its opt-out keyword', async () => {
    cleanups.push(s.ctx.hooks.provide('inboundReply', async (_ctx, _tx, input) => ({ skipInbox: input.companyId === a.companyId, campaignId: null })));
    const received = collect('message.received');
    await inbound('+13125550102', 'thanks');
    const e = await eventually(async () => received[0]);
    expect(e).toMatchObject({ conversationId: null, itemId: null, keyword: null });
    const list = await a.client.get(`/api/companies/${a.companyId}/conversations?search=3125550102`);
    expect(list.body.data).toEqual([]);

    await inbound('+13125550102', 'STOP');
    const stop = await eventually(async () => received[1]);
    expect(stop).toMatchObject({ itemId: null, keyword: 'opt-out' });
    // The confirmation goes out through the thread (started for it), to a contact now unsubscribed.
    const after = await eventually(async () => {
      const r = await a.client.get(`/api/companies/${a.companyId}/conversations?search=3125550102`);
      return r.body.data[0];
    });
    expect(after.contact).toMatchObject({ subscribed: false });
    expect(after.latestItem).toMatchObject({ details: { isInbound: false } });
  });
});

describe('message.status-changed', () => {
  it('follows an outbound message through its delivery updates', async () => {
    const changed = collect('message.status-changed');
    const r = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125550103', content: 'On our way.' });
    expect(r.status).toBe(201);
    await eventually(async () => changed.some((e) => e.itemId === r.body.id && e.state === 'delivered'), 15_000);
    const mine = changed.filter((e) => e.itemId === r.body.id);
    expect(mine[0]).toMatchObject({ conversationId: r.body.conversationId, carrierSid: expect.any(String), campaignId: null });
    // Forward only: the states announced never go back.
    const rank = ['sending', 'queued', 'sent', 'delivered'];
    const order = mine.map((e) => rank.indexOf(e.state ?? ''));
    expect([...order].sort((x, y) => x - y)).toEqual(order);
  });
});
