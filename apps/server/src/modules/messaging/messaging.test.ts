/**
 * Messaging through the real server: signed inbound webhooks, live events on the company's
 * channel, outbound messages delivered by the sandbox carrier with status callbacks, validation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber, connectSocket, subscribe } from './messaging.test-helpers.js';
import { setDefaultAddressPolicy } from '../../platform/http/safe-fetch.js';

let s: TestServer;
let a: Account;
let b: Account;
let number: { id: number; number: string };
let mediaServer: http.Server;
let mediaUrl: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  b = await createAccount(s);
  number = await buyTestNumber(a, '212');
  mediaServer = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(Buffer.from('fake-png-bytes'));
  });
  await new Promise<void>((r) => mediaServer.listen(0, '127.0.0.1', () => r()));
  mediaUrl = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}/cat.png`;
  // The "outside" media server listens on loopback, which the download guard refuses (safe-fetch.ts).
  setDefaultAddressPolicy({ allowHosts: ['127.0.0.1'] });
});
afterAll(async () => {
  for (const so of sockets) so.close();
  if (mediaServer) await new Promise((r) => mediaServer.close(r));
  setDefaultAddressPolicy({});
  await s?.close();
});

let sidCounter = 0;
function inbound(extra: Record<string, string> = {}): Record<string, string> {
  sidCounter += 1;
  return {
    MessageSid: `SM${String(sidCounter).padStart(32, '0')}`,
    AccountSid: 'ACtest',
    From: '+13125551234',
    To: number.number,
    Body: 'Hello there',
    NumMedia: '0',
    ...extra,
  };
}

async function itemsOf(account: Account, conversationId: number) {
  const r = await account.client.get(`/api/companies/${account.companyId}/conversations/${conversationId}/items?perPage=50`);
  expect(r.status).toBe(200);
  return r.body.data as any[];
}

describe('inbound messages', () => {
  it('stores the message, answers an empty MessagingResponse and publishes to the company channel only', async () => {
    const so = await connectSocket(s, a.client);
    sockets.push(so);
    expect(await subscribe(so, `conversations.${a.companyId}`)).toEqual({ ok: true });
    const other = await connectSocket(s, b.client);
    sockets.push(other);
    expect((await subscribe(other, `conversations.${a.companyId}`)).ok).toBe(false);

    const events: any[] = [];
    so.on('conversation updated', (e) => events.push(e));
    const params = inbound({ Body: 'Is the shop open today?' });
    const r = await postWebhook(s, '/webhooks/twilio/messaging', params);
    expect(r.status).toBe(200);
    expect(r.body).toContain('<Response');
    expect(r.body).not.toContain('<Message');

    const list = await a.client.get(`/api/companies/${a.companyId}/conversations`);
    expect(list.status).toBe(200);
    const conv = list.body.data.find((c: any) => c.recipient === '+13125551234');
    expect(conv).toMatchObject({
      conversationId: conv.id,
      number: { id: number.id, number: number.number },
      numUnreadItems: 1,
      isArchived: false,
      isBlocked: false,
      enhancedCallerId: null,
      contact: null,
    });
    expect(conv.latestItem).toMatchObject({ type: 'message', details: { content: 'Is the shop open today?', isInbound: true, deliveryState: 'received' } });

    const ev = await eventually(async () => events.find((e) => e.id === conv.id));
    expect(ev.item).toMatchObject({ isInbound: true, details: { content: 'Is the shop open today?' } });
    expect(ev.recipient).toBe('+13125551234');

    // Repeated delivery of the same MessageSid: one item, same answer.
    const again = await postWebhook(s, '/webhooks/twilio/messaging', params);
    expect(again.status).toBe(200);
    expect(again.body).toBe(r.body);
    const items = await itemsOf(a, conv.id);
    expect(items.filter((i) => i.details.content === 'Is the shop open today?')).toHaveLength(1);
  });

  it('rejects a bad signature with 403 and stores nothing', async () => {
    const params = inbound({ Body: 'forged message' });
    const r = await postWebhook(s, '/webhooks/twilio/messaging', params, { token: 'wrong-token' });
    expect(r.status).toBe(403);
    const missing = await fetch(`${s.url}/webhooks/twilio/messaging`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
    expect(missing.status).toBe(403);
    const list = await a.client.get(`/api/companies/${a.companyId}/conversations?search=forged`);
    expect(list.body.data).toHaveLength(0);
  });

  it('ignores messages to a number that is not ours', async () => {
    const r = await postWebhook(s, '/webhooks/twilio/messaging', inbound({ To: '+19175550199', From: '+13125559876', Body: 'to nobody' }));
    expect(r.status).toBe(200);
    const list = await a.client.get(`/api/companies/${a.companyId}/conversations?search=3125559876`);
    expect(list.body.data).toHaveLength(0);
  });

  it('copies MMS media into the blob store (fetch-media job)', async () => {
    const r = await postWebhook(
      s,
      '/webhooks/twilio/messaging',
      inbound({ From: '+13125550111', Body: '', NumMedia: '1', MediaUrl0: mediaUrl, MediaContentType0: 'image/png' }),
    );
    expect(r.status).toBe(200);
    const conv = await eventually(async () => {
      const l = await a.client.get(`/api/companies/${a.companyId}/conversations?search=3125550111`);
      const c = l.body.data[0];
      return c && c.latestItem.details.media[0]?.url.startsWith(`${s.ctx.config.publicUrl}/files/c/${a.companyId}/mms/`) ? c : null;
    });
    const media = conv.latestItem.details.media[0];
    expect(media.contentType).toBe('image/png');
    expect((await fetch(media.url)).status).toBe(401); // the company's users only (platform/blob/access.ts)
    expect((await a.client.get(new URL(media.url).pathname)).body).toBe('fake-png-bytes');
  });
});

describe('outbound messages', () => {
  it('sends through the carrier and follows status callbacks to delivered', async () => {
    const r = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '(312) 555-1234', content: 'We open at 9.' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      isInbound: false,
      details: { type: 'message', content: 'We open at 9.', deliveryState: 'sending', errorCode: null, media: [] },
    });
    const conversationId = r.body.conversationId;
    const delivered = await eventually(async () => {
      const items = await itemsOf(a, conversationId);
      const it = items.find((i) => i.id === r.body.id);
      return it?.details.deliveryState === 'delivered' ? it : null;
    }, 15_000);
    expect(delivered.details.errorCode).toBeNull();
    // The sandbox handset received it from our number.
    const handset = await a.client.get(`/api/simulator/handsets/${encodeURIComponent('+13125551234')}/messages`);
    expect(JSON.stringify(handset.body)).toContain('We open at 9.');
    // A late 'queued' (a status key not seen before, so not deduplicated) does not move it backwards.
    const row = await s.ctx.db.selectFrom('conversation_items').select('carrier_sid').where('id', '=', r.body.id).executeTakeFirstOrThrow();
    const late = await postWebhook(s, `/webhooks/twilio/messaging/status`, { MessageSid: row.carrier_sid!, MessageStatus: 'queued' });
    expect(late.status).toBe(200);
    const after = (await itemsOf(a, conversationId)).find((i) => i.id === r.body.id);
    expect(after.details.deliveryState).toBe('delivered');
  });

  it('marks a message to an unreachable handset undelivered with 30003', async () => {
    const r = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125550000', content: 'Anyone there?' });
    expect(r.status).toBe(201);
    const item = await eventually(async () => {
      const it = (await itemsOf(a, r.body.conversationId)).find((i) => i.id === r.body.id);
      return it?.details.deliveryState === 'undelivered' ? it : null;
    }, 15_000);
    expect(item.details).toMatchObject({ errorCode: 30003, errorText: 'Unreachable destination handset' });
  });

  it('sends MMS from multipart with stored media, replying in a conversation', async () => {
    const list = await a.client.get(`/api/companies/${a.companyId}/conversations?search=3125551234`);
    const conv = list.body.data[0];
    const form = new FormData();
    form.set('company_id', String(a.companyId));
    form.set('conversation_id', String(conv.id));
    form.set('content', 'Here is the map');
    form.append('media[]', new Blob([Buffer.from('map-bytes')], { type: 'image/jpeg' }), 'map.jpg');
    const r = await a.client.post('/api/message', form);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.conversationId).toBe(conv.id);
    expect(r.body.details.media).toHaveLength(1);
    expect(r.body.details.media[0].url).toMatch(new RegExp(`/files/c/${a.companyId}/mms/[0-9a-f]{32}-map\\.jpg$`));
    expect((await a.client.get(new URL(r.body.details.media[0].url).pathname)).body).toBe('map-bytes');
  });

  it('validates input with field errors', async () => {
    const long = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125551234', content: 'x'.repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.body.errors.content).toEqual(['Max 1000 characters per SMS']);
    const ok = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125551234', content: 'x'.repeat(1000) });
    expect(ok.status).toBe(201);
    const empty = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125551234', content: '  ' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.content).toBeDefined();
    const badTo = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '12', content: 'hi' });
    expect(badTo.status).toBe(422);
    expect(badTo.body.errors.to).toBeDefined();
    const mmsLong = new FormData();
    mmsLong.set('company_id', String(a.companyId));
    mmsLong.set('number_id', String(number.id));
    mmsLong.set('to', '+13125551234');
    mmsLong.set('content', 'y'.repeat(1001));
    mmsLong.append('media', new Blob([Buffer.from('a')], { type: 'image/png' }), 'a.png');
    const m = await a.client.post('/api/message', mmsLong);
    expect(m.status).toBe(422);
    expect(m.body.errors.content).toEqual(['Max 1000 characters per MMS']);
  });

  it('refuses another company and unsubscribed contacts', async () => {
    const forbidden = await b.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125551234', content: 'hi' });
    expect(forbidden.status).toBe(403);
    const notTheirNumber = await b.client.post('/api/message', { company_id: b.companyId, number_id: number.id, to: '+13125551234', content: 'hi' });
    expect(notTheirNumber.status).toBe(422);
    expect(notTheirNumber.body.errors.number_id).toBeDefined();
    const { createContact } = await import('../contacts/contacts.service.js');
    const contact = await createContact(s.ctx, a.companyId, { name: 'Opted Out', number: '+13125550222' });
    // STOP from the contact unsubscribes them.
    await postWebhook(s, '/webhooks/twilio/messaging', inbound({ From: '+13125550222', Body: 'STOP' }));
    const list = await a.client.get(`/api/companies/${a.companyId}/conversations?search=3125550222`);
    expect(list.body.data[0].contact).toEqual({ id: contact.id, name: 'Opted Out', subscribed: false });
    const r = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125550222', content: 'hi' });
    expect(r.status).toBe(422);
    expect(r.body.errors.to[0]).toMatch(/unsubscribed/);
  });
});

// keep `io` referenced for the helper's types
void io;
