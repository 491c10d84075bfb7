/**
 * Scheduled messages through the real server: `POST /api/inbox/message/schedule` stores a
 * `scheduledmessage` item, a job sends it at `shouldBeSentAt`, and it can be cancelled until then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber } from './messaging.test-helpers.js';
import { sendScheduledMessage } from './messaging.service.js';

let s: TestServer;
let a: Account;
let b: Account;
let number: { id: number; number: string };

const inSeconds = (n: number) => new Date(Date.now() + n * 1000).toISOString();
async function handset(e164: string): Promise<string[]> {
  const r = await a.client.get(`/api/simulator/handsets/${encodeURIComponent(e164)}/messages`);
  return (r.body.data as any[]).filter((m) => m.direction === 'outbound').map((m) => m.body);
}
async function item(conversationId: number, id: number) {
  return (await a.client.get(`/api/companies/${a.companyId}/conversations/${conversationId}/items/${id}`)).body;
}

beforeAll(async () => {
  s = await startTestServer();
  [a, b] = await Promise.all([createAccount(s), createAccount(s)]);
  number = await buyTestNumber(a, '212');
});
afterAll(async () => {
  await s?.close();
});

describe('scheduled messages', () => {
  it('sends at the time, once, as an ordinary message of the thread', async () => {
    const to = '+13125551001';
    const r = await a.client.post('/api/inbox/message/schedule', {
      company_id: a.companyId,
      number_id: number.id,
      to,
      content: 'Your car is ready',
      shouldBeSentAt: inSeconds(1.5),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ isInbound: false, details: { type: 'scheduledmessage', content: 'Your car is ready', deliveryState: null } });
    expect(Date.parse(r.body.details.shouldBeSentAt)).toBeGreaterThan(Date.now() - 100);
    expect(await handset(to)).toEqual([]);
    const conv = (await a.client.get(`/api/companies/${a.companyId}/conversations/${r.body.conversationId}`)).body;
    expect(conv.latestItem.type).toBe('scheduledmessage');

    const sent = await eventually(async () => {
      const it = await item(r.body.conversationId, r.body.id);
      return it.details.type === 'message' && it.details.deliveryState === 'delivered' ? it : null;
    }, 15_000);
    expect(Date.parse(sent.createdAt)).toBeGreaterThanOrEqual(Date.parse(r.body.details.shouldBeSentAt) - 50);
    expect(await handset(to)).toEqual(['Your car is ready']);
    // The job running again changes nothing.
    await sendScheduledMessage(s.ctx, { itemId: r.body.id });
    expect(await handset(to)).toEqual(['Your car is ready']);
    // Too late to cancel.
    const late = await a.client.delete(`/api/inbox/message/schedule/${r.body.id}`);
    expect(late.status).toBe(409);
  });

  it('is cancellable until it goes out', async () => {
    const to = '+13125551002';
    const r = await a.client.post('/api/inbox/message/schedule', {
      company_id: a.companyId,
      number_id: number.id,
      to,
      content: 'Reminder',
      shouldBeSentAt: inSeconds(120),
    });
    expect(r.status).toBe(201);
    expect((await b.client.delete(`/api/inbox/message/schedule/${r.body.id}`)).status).toBe(404);
    const c = await a.client.delete(`/api/inbox/message/schedule/${r.body.id}`);
    expect(c.status).toBe(204);
    expect((await a.client.get(`/api/companies/${a.companyId}/conversations/${r.body.conversationId}/items/${r.body.id}`)).status).toBe(404);
    // The job, when it comes, sends nothing.
    await sendScheduledMessage(s.ctx, { itemId: r.body.id });
    expect(await handset(to)).toEqual([]);
    expect((await a.client.delete(`/api/inbox/message/schedule/${r.body.id}`)).status).toBe(404);
  });

  it('does not send to a contact who opted out in the meantime', async () => {
    const to = '+13125551003';
    const r = await a.client.post('/api/inbox/message/schedule', {
      company_id: a.companyId,
      number_id: number.id,
      to,
      content: 'Sale this weekend',
      shouldBeSentAt: inSeconds(120),
    });
    expect(r.status).toBe(201);
    await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: 'SMschedule000000000000000000000001',
      From: to,
      To: number.number,
      Body: 'STOP',
      NumMedia: '0',
    });
    await sendScheduledMessage(s.ctx, { itemId: r.body.id });
    const it = await item(r.body.conversationId, r.body.id);
    expect(it.details).toMatchObject({ type: 'message', deliveryState: 'failed', errorCode: 21610, errorText: 'Recipient has opted out' });
    await new Promise((res) => setTimeout(res, 300));
    expect((await handset(to)).filter((t) => t === 'Sale this weekend')).toEqual([]);
  });

  it('accepts multipart with media', async () => {
    const form = new FormData();
    form.set('company_id', String(a.companyId));
    form.set('number_id', String(number.id));
    form.set('to', '+13125551004');
    form.set('content', 'See attached');
    form.set('shouldBeSentAt', inSeconds(300));
    form.append('media[]', new Blob([Buffer.from('png')], { type: 'image/png' }), 'a.png');
    const r = await a.client.post('/api/inbox/message/schedule', form);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.details.media).toHaveLength(1);
  });

  it('validates input and company access', async () => {
    const body = { company_id: a.companyId, number_id: number.id, to: '+13125551005', content: 'hi' };
    const past = await a.client.post('/api/inbox/message/schedule', { ...body, shouldBeSentAt: inSeconds(-60) });
    expect(past.status).toBe(422);
    expect(past.body.errors.shouldBeSentAt).toEqual(['The should be sent at must be a date after now.']);
    const garbage = await a.client.post('/api/inbox/message/schedule', { ...body, content: '', shouldBeSentAt: 'tomorrow' });
    expect(garbage.status).toBe(422);
    expect(garbage.body.errors.shouldBeSentAt).toBeDefined();
    expect(garbage.body.errors.content).toBeDefined();
    const missing = await a.client.post('/api/inbox/message/schedule', body);
    expect(missing.status).toBe(422);
    expect(missing.body.errors.shouldBeSentAt).toBeDefined();
    const long = await a.client.post('/api/inbox/message/schedule', { ...body, content: 'x'.repeat(1001), shouldBeSentAt: inSeconds(60) });
    expect(long.body.errors.content).toEqual(['Max 1000 characters per SMS']);
    expect((await b.client.post('/api/inbox/message/schedule', { ...body, shouldBeSentAt: inSeconds(60) })).status).toBe(403);
    expect((await a.client.delete('/api/inbox/message/schedule/99999999')).status).toBe(404);
  });
});
