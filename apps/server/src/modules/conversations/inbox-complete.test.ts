/**
 * Inbox calls of spec 001 §7 "Inbox" through the real server: bulk update, read-all-by-type, one item (get,
 * delete), delete messages, items across conversations, notes, calls and voicemails in the
 * thread (domain event `call.changed`), the 2-year search window, and tenant isolation.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startSecondNode, startTestServer, type TestServer } from '../../../test/harness.js';
import { events } from '../../platform/events/index.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let b: Account;
let n1: { id: number; number: string };
let n2: { id: number; number: string };
let bNumber: { id: number; number: string };
let sid = 0;

async function text(to: string, from: string, body: string) {
  sid += 1;
  const r = await postWebhook(s, '/webhooks/twilio/messaging', {
    MessageSid: `SMcomplete${String(sid).padStart(24, '0')}`,
    From: from,
    To: to,
    Body: body,
    NumMedia: '0',
  });
  expect(r.status).toBe(200);
}
const base = () => `/api/companies/${a.companyId}/conversations`;
async function convOf(recipient: string) {
  const l = await a.client.get(`${base()}?perPage=100`);
  const archived = await a.client.get(`${base()}?perPage=100&isArchived=1`);
  return [...l.body.data, ...archived.body.data].find((c: any) => c.recipient === recipient);
}

beforeAll(async () => {
  s = await startTestServer();
  [a, b] = await Promise.all([createAccount(s), createAccount(s)]);
  n1 = await buyTestNumber(a, '212');
  n2 = await buyTestNumber(a, '617');
  bNumber = await buyTestNumber(b, '415');
  for (const [i, from] of ['+13125550201', '+13125550202', '+13125550203', '+13125550204'].entries()) await text(n1.number, from, `hello ${i}`);
  await text(n2.number, '+13125550205', 'on the other number');
  await text(bNumber.number, '+13125550299', 'for company b');
});
afterAll(async () => {
  await s?.close();
});

describe('bulk update', () => {
  it('reads, unreads, archives, restores and deletes several conversations', async () => {
    const c1 = await convOf('+13125550201');
    const c2 = await convOf('+13125550202');
    expect(c1.numUnreadItems).toBe(1);
    const read = await a.client.put(`${base()}/bulk-update`, { ids: [c1.id, c2.id], type: 'read' });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.ids).toEqual([c1.id, c2.id]);
    expect(read.body.data.map((c: any) => c.numUnreadItems)).toEqual([0, 0]);
    const unread = await a.client.put(`${base()}/bulk-update`, { ids: [c1.id], type: 'unread' });
    expect(unread.body.data[0].numUnreadItems).toBe(1);
    const archived = await a.client.put(`${base()}/bulk-update`, { ids: [c1.id, c2.id], type: 'archive' });
    expect(archived.body.data.every((c: any) => c.isArchived)).toBe(true);
    expect((await a.client.get(`${base()}?perPage=100`)).body.data.some((c: any) => c.id === c1.id)).toBe(false);
    const restored = await a.client.put(`${base()}/bulk-update`, { ids: [c1.id, c2.id], type: 'restore' });
    expect(restored.body.data.every((c: any) => !c.isArchived)).toBe(true);
    const del = await a.client.put(`${base()}/bulk-update`, { ids: [c2.id], type: 'delete' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: [], ids: [c2.id] });
    expect((await a.client.get(`${base()}/${c2.id}`)).status).toBe(404);
  });

  it('validates and refuses other companies (all or nothing)', async () => {
    const c1 = await convOf('+13125550201');
    const bad = await a.client.put(`${base()}/bulk-update`, { ids: [], type: 'explode' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.ids).toBeDefined();
    expect(bad.body.errors.type).toBeDefined();
    const bConv = (await b.client.get(`/api/companies/${b.companyId}/conversations`)).body.data[0];
    const mixed = await a.client.put(`${base()}/bulk-update`, { ids: [c1.id, bConv.id], type: 'archive' });
    expect(mixed.status).toBe(404);
    expect((await convOf('+13125550201')).isArchived).toBe(false);
    expect((await b.client.put(`${base()}/bulk-update`, { ids: [c1.id], type: 'delete' })).status).toBe(403);
    expect((await b.client.put(`/api/companies/${b.companyId}/conversations/bulk-update`, { ids: [c1.id], type: 'delete' })).status).toBe(404);
    expect(await convOf('+13125550201')).toBeDefined();
  });
});

describe('read all by type', () => {
  it('marks unread messages read on the chosen numbers only', async () => {
    await text(n1.number, '+13125550203', 'unread on n1');
    await text(n2.number, '+13125550205', 'unread on n2');
    const r = await a.client.put(`${base()}/read-all-by-type`, { type: 'message', numbers: [n1.id] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.updated).toBeGreaterThanOrEqual(2);
    expect((await convOf('+13125550203')).numUnreadItems).toBe(0);
    expect((await convOf('+13125550205')).numUnreadItems).toBe(2);
    const all = await a.client.put(`${base()}/read-all-by-type`, { type: 'message' });
    expect(all.body.conversationIds).toContain((await convOf('+13125550205')).id);
    expect((await convOf('+13125550205')).numUnreadItems).toBe(0);
  });

  it('validates type and numbers', async () => {
    const badType = await a.client.put(`${base()}/read-all-by-type`, { type: 'note' });
    expect(badType.status).toBe(422);
    expect(badType.body.errors.type).toBeDefined();
    const foreign = await a.client.put(`${base()}/read-all-by-type`, { type: 'message', numbers: [bNumber.id] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.numbers).toBeDefined();
    expect((await b.client.put(`${base()}/read-all-by-type`, { type: 'message' })).status).toBe(403);
  });
});

describe('items', () => {
  it('gets and deletes one item; another company gets 404', async () => {
    await text(n1.number, '+13125550204', 'delete me');
    const conv = await convOf('+13125550204');
    const items = (await a.client.get(`${base()}/${conv.id}/items`)).body.data;
    const item = items.find((i: any) => i.details.content === 'delete me');
    const one = await a.client.get(`${base()}/${conv.id}/items/${item.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: item.id, conversationId: conv.id, details: { type: 'message', content: 'delete me', callId: null } });
    expect((await a.client.get(`${base()}/${conv.id}/items/999999`)).status).toBe(404);
    const other = `/api/companies/${b.companyId}/conversations/${conv.id}/items/${item.id}`;
    expect((await b.client.get(other)).status).toBe(404);
    expect((await b.client.delete(other)).status).toBe(404);
    expect((await b.client.get(`${base()}/${conv.id}/items/${item.id}`)).status).toBe(403);
    const del = await a.client.delete(`${base()}/${conv.id}/items/${item.id}`);
    expect(del.status).toBe(204);
    expect((await a.client.get(`${base()}/${conv.id}/items/${item.id}`)).status).toBe(404);
    expect((await a.client.delete(`${base()}/${conv.id}/items/${item.id}`)).status).toBe(404);
  });

  it('adds notes and deletes the messages of a thread, keeping notes', async () => {
    const conv = await convOf('+13125550203');
    const note = await a.client.post(`${base()}/${conv.id}/notes`, { body: '  Called back, wants a quote  ' });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect(note.body).toMatchObject({ isInbound: false, isRead: true, details: { type: 'note', content: 'Called back, wants a quote', userId: a.userId } });
    expect((await a.client.post(`${base()}/${conv.id}/notes`, { body: '   ' })).status).toBe(422);
    const missing = await a.client.post(`${base()}/${conv.id}/notes`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.body).toBeDefined();
    expect((await b.client.post(`/api/companies/${b.companyId}/conversations/${conv.id}/notes`, { body: 'x' })).status).toBe(404);
    expect((await a.client.get(`${base()}/${conv.id}`)).body.latestItem.type).toBe('note');

    const r = await a.client.delete(`${base()}/${conv.id}/messages`);
    expect(r.status).toBe(200);
    expect(r.body.deleted).toBe(2);
    const left = (await a.client.get(`${base()}/${conv.id}/items`)).body.data;
    expect(left.map((i: any) => i.details.type)).toEqual(['note']);
    expect((await b.client.delete(`/api/companies/${b.companyId}/conversations/${conv.id}/messages`)).status).toBe(404);
  });

  it('lists items across the company, newest first, by type, cursor-paged', async () => {
    const p1 = await a.client.get(`/api/inbox/conversations/items?company_id=${a.companyId}&perPage=2`);
    expect(p1.status, JSON.stringify(p1.body)).toBe(200);
    expect(p1.body.data).toHaveLength(2);
    expect(p1.body.meta.next_cursor).toEqual(expect.any(String));
    const p2 = await a.client.get(`/api/inbox/conversations/items?company_id=${a.companyId}&perPage=2&cursor=${encodeURIComponent(p1.body.meta.next_cursor)}`);
    const ids = [...p1.body.data, ...p2.body.data].map((i: any) => i.id);
    expect(new Set(ids).size).toBe(4);
    const times = [...p1.body.data, ...p2.body.data].map((i: any) => Date.parse(i.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const notes = await a.client.get(`/api/inbox/conversations/items?company_id=${a.companyId}&types[]=note`);
    expect(notes.body.data.map((i: any) => i.details.content)).toEqual(['Called back, wants a quote']);
    const all = await a.client.get(`/api/inbox/conversations/items?company_id=${a.companyId}&perPage=100`);
    expect(all.body.data.some((i: any) => i.details.content === 'for company b')).toBe(false);
    expect((await b.client.get(`/api/inbox/conversations/items?company_id=${a.companyId}`)).status).toBe(403);
    expect((await a.client.get('/api/inbox/conversations/items')).status).toBe(422);
    expect((await a.client.get(`/api/inbox/conversations/items?company_id=${a.companyId}&cursor=zzz`)).status).toBe(422);
  });
});

describe('calls and voicemails in the thread', () => {
  it('puts a call of a texting contact into the same thread, in time order, and follows its changes', async () => {
    const caller = '+13125550277';
    await text(n1.number, caller, 'I will call you');
    const sim = await a.client.post('/api/simulator/calls', { from: caller, to: n1.number, voicemail_seconds: 4 });
    expect(sim.status, JSON.stringify(sim.body)).toBe(200);
    const call = await s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', sim.body.sid).executeTakeFirstOrThrow();
    // The simulated number's default route may not take a voicemail: record one as the calls module would.
    const vm =
      (await s.ctx.db.selectFrom('voicemails').selectAll().where('call_id', '=', call.id).executeTakeFirst()) ??
      (await s.ctx.db
        .insertInto('voicemails')
        .values({ company_id: a.companyId, call_id: call.id, number_id: n1.id, recording_url: 'http://x/vm.wav', duration_s: 4 })
        .returningAll()
        .executeTakeFirstOrThrow());

    // What the calls module announces after its commit (see docs/messaging.md "Calls in the thread").
    await events.publish(s.ctx, 'call.changed', {
      callId: call.id,
      companyId: a.companyId,
      numberId: n1.id,
      from: caller,
      status: 1,
      direction: 'inbound',
      startedAt: call.started_at,
    });
    await events.publish(s.ctx, 'call.changed', {
      callId: call.id,
      companyId: a.companyId,
      numberId: n1.id,
      from: caller,
      status: 1,
      direction: 'inbound',
    });
    const conv = await convOf(caller);
    let items = (await a.client.get(`${base()}/${conv.id}/items`)).body.data;
    expect(items.map((i: any) => i.details.type)).toEqual(['call', 'message']);
    expect(items[0]).toMatchObject({
      isInbound: true,
      isRead: false,
      details: { callId: call.id, callStatus: 1, callStatusLabel: 'Started', voicemailId: null },
    });
    expect(Date.parse(items[0].createdAt)).toBe(call.started_at.getTime());

    await events.publish(s.ctx, 'call.changed', {
      callId: call.id,
      companyId: a.companyId,
      numberId: n1.id,
      from: caller,
      status: 4,
      voicemailId: vm.id,
      durationS: 4,
    });
    items = (await a.client.get(`${base()}/${conv.id}/items`)).body.data;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      isRead: false,
      details: { type: 'voicemail', voicemailId: vm.id, callStatus: 4, callStatusLabel: 'Voicemail', durationS: 4 },
    });
    expect((await a.client.get(`${base()}/${conv.id}`)).body.latestItem.type).toBe('voicemail');
    // Read by type clears it.
    await a.client.put(`${base()}/read-all-by-type`, { type: 'voicemail', numbers: [n1.id] });
    items = (await a.client.get(`${base()}/${conv.id}/items`)).body.data;
    expect(items[0].isRead).toBe(true);
  });

  it("follows interleaved events of two calls to each call's latest state; a repeated state publishes nothing", async () => {
    const caller = '+13125550279';
    const newCall = async (carrierSid: string) =>
      s.ctx.db
        .insertInto('calls')
        .values({
          company_id: a.companyId,
          number_id: n1.id,
          carrier_sid: carrierSid,
          from_number: caller,
          to_number: n1.number,
          direction: 'inbound',
          status: 1,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    const [c1, c2] = [await newCall('CAcoalesce1'), await newCall('CAcoalesce2')];
    const vm = await s.ctx.db
      .insertInto('voicemails')
      .values({ company_id: a.companyId, call_id: c1.id, number_id: n1.id, recording_url: 'http://x/vm1.wav', duration_s: 7 })
      .returningAll()
      .executeTakeFirstOrThrow();
    const published: any[] = [];
    const publish = s.ctx.realtime.publish.bind(s.ctx.realtime);
    s.ctx.realtime.publish = (channel, event, payload) => {
      if (channel === `conversations.${a.companyId}`) published.push(payload);
      publish(channel, event, payload);
    };
    const listening = s.ctx.realtime.mayHaveSubscribers.bind(s.ctx.realtime);
    s.ctx.realtime.mayHaveSubscribers = () => true; // as if the inbox were open
    try {
      const ev = { companyId: a.companyId, numberId: n1.id, from: caller, direction: 'inbound' as const };
      // The two calls' events interleave; each call's events are emitted in order, as its producer does under the
      // call's row lock (the outbox delivers one aggregate's events in order).
      const settled = await Promise.allSettled([
        (async () => {
          await events.publish(s.ctx, 'call.changed', { ...ev, callId: c1.id, status: 1, startedAt: c1.started_at });
          await events.publish(s.ctx, 'call.changed', { ...ev, callId: c1.id, status: 12, durationS: 3 });
          await events.publish(s.ctx, 'call.changed', { ...ev, callId: c1.id, status: 4, voicemailId: vm.id, durationS: 7 });
        })(),
        (async () => {
          await events.publish(s.ctx, 'call.changed', { ...ev, callId: c2.id, status: 1, startedAt: c2.started_at, contactId: null });
          await events.publish(s.ctx, 'call.changed', { ...ev, callId: c2.id, status: 12, durationS: 5 });
        })(),
      ]);
      expect(settled.every((x) => x.status === 'fulfilled')).toBe(true);
    } finally {
      s.ctx.realtime.publish = publish;
      s.ctx.realtime.mayHaveSubscribers = listening;
    }
    const items = await s.ctx.db.selectFrom('conversation_items').selectAll().where('call_id', 'in', [c1.id, c2.id]).orderBy('call_id').execute();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ call_id: c1.id, type: 'voicemail', voicemail_id: vm.id, call_status: 4, duration_s: 7, is_read: false, is_inbound: true });
    // Inserted unread (status 1 first), then connected: stays unread, as one event at a time would leave it.
    expect(items[1]).toMatchObject({ call_id: c2.id, type: 'call', voicemail_id: null, call_status: 12, duration_s: 5, is_read: false });
    expect(items[0]!.conversation_id).toBe(items[1]!.conversation_id);
    expect(items[0]!.created_at.getTime()).toBe(c1.started_at.getTime());
    expect(new Set(published.map((p) => p.item?.details.callId))).toEqual(new Set([c1.id, c2.id]));
    expect(published[0].id).toBe(items[0]!.conversation_id);
    expect(published.findLast((p) => p.item.details.callId === c1.id).item.details).toMatchObject({ type: 'voicemail', callStatus: 4 });

    // A later event that changes nothing writes and publishes nothing.
    published.length = 0;
    s.ctx.realtime.publish = (channel, event, payload) => {
      if (channel === `conversations.${a.companyId}`) published.push(payload);
      publish(channel, event, payload);
    };
    s.ctx.realtime.mayHaveSubscribers = () => true;
    try {
      await events.publish(s.ctx, 'call.changed', { companyId: a.companyId, numberId: n1.id, from: caller, callId: c2.id, status: 12, durationS: 5 });
    } finally {
      s.ctx.realtime.publish = publish;
      s.ctx.realtime.mayHaveSubscribers = listening;
    }
    expect(published).toHaveLength(0);
  });

  it('a bad event in a burst fails alone; the others of its flush are written', async () => {
    const caller = '+13125550281';
    const call = await s.ctx.db
      .insertInto('calls')
      .values({
        company_id: a.companyId,
        number_id: n1.id,
        carrier_sid: 'CAcoalesce3',
        from_number: caller,
        to_number: n1.number,
        direction: 'inbound',
        status: 1,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const ev = { companyId: a.companyId, numberId: n1.id, from: caller, direction: 'inbound' as const, status: 1 };
    await Promise.all([
      events.publish(s.ctx, 'call.changed', { ...ev, callId: 99999998 }), // no such call: the item's insert fails
      events.publish(s.ctx, 'call.changed', { ...ev, callId: call.id }),
    ]);
    const items = await s.ctx.db.selectFrom('conversation_items').select(['call_id', 'call_status']).where('call_id', 'in', [call.id, 99999998]).execute();
    expect(items).toEqual([{ call_id: call.id, call_status: 1 }]);
  });

  it('an event committed by a server that stops before dispatching it is delivered by the outbox workers', async () => {
    const node = await startSecondNode(s);
    const caller = '+13125550280';
    const call = await s.ctx.db
      .insertInto('calls')
      .values({
        company_id: a.companyId,
        number_id: n1.id,
        carrier_sid: 'CAclosing1',
        from_number: caller,
        to_number: n1.number,
        direction: 'inbound',
        status: 1,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // Committed in the node's transaction (the outbox), never dispatched there: the node goes away at once.
    await node.ctx.db
      .transaction()
      .execute((tx) =>
        events.emit(tx, 'call.changed', { callId: call.id, companyId: a.companyId, numberId: n1.id, from: caller, status: 10, direction: 'inbound' }),
      );
    await node.close();
    const item = await eventually(() => s.ctx.db.selectFrom('conversation_items').selectAll().where('call_id', '=', call.id).executeTakeFirst(), 10_000);
    expect(item).toMatchObject({ type: 'call', call_status: 10, is_read: false });
  });

  it('a handler error does not reach the emitter', async () => {
    await expect(
      events.publish(s.ctx, 'call.changed', { callId: 99999999, companyId: a.companyId, numberId: n1.id, from: '+13125550278', status: 1 }),
    ).resolves.toBeUndefined();
  });
});

describe('search window', () => {
  it('a phone-like search covers the last 2 years only; the plain list has no window', async () => {
    await text(n1.number, '+13125550288', 'very old');
    const conv = await convOf('+13125550288');
    await sql`update conversations set last_activity_at = now() - interval '3 years' where id = ${conv.id}`.execute(s.ctx.db);
    const found = await a.client.get(`${base()}?search=${encodeURIComponent('(312) 555-0288')}`);
    expect(found.body.data).toHaveLength(0);
    await sql`update conversations set last_activity_at = now() - interval '23 months' where id = ${conv.id}`.execute(s.ctx.db);
    const recent = await a.client.get(`${base()}?search=${encodeURIComponent('312-555-0288')}`);
    expect(recent.body.data.map((c: any) => c.id)).toEqual([conv.id]);
    await eventually(async () => (await a.client.get(`${base()}?perPage=100`)).body.data.some((c: any) => c.id === conv.id));
  });
});
