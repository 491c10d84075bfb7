/**
 * Notification counts and blocks through the real server: unread counts per type and per number,
 * muting per number and channel type (per user), validation and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
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
    MessageSid: `SMnotif${String(sid).padStart(27, '0')}`,
    From: from,
    To: to,
    Body: body,
    NumMedia: '0',
  });
  expect(r.status).toBe(200);
}
const url = (path: string, companyId = a.companyId) => `/api/companies/${companyId}/${path}`;

beforeAll(async () => {
  s = await startTestServer();
  [a, b] = await Promise.all([createAccount(s), createAccount(s)]);
  n1 = await buyTestNumber(a, '212');
  n2 = await buyTestNumber(a, '617');
  bNumber = await buyTestNumber(b, '415');
  await text(n1.number, '+13125550301', 'one');
  await text(n1.number, '+13125550301', 'two');
  await text(n1.number, '+13125550302', 'three');
  await text(n2.number, '+13125550303', 'four');
  await text(bNumber.number, '+13125550304', 'not a');
  const call = await a.client.post('/api/simulator/calls', { from: '+13125550305', to: n2.number, voicemail_seconds: 3 });
  expect(call.status).toBe(200);
  const row = await s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', call.body.sid).executeTakeFirstOrThrow();
  const vm =
    (await s.ctx.db.selectFrom('voicemails').select('id').where('call_id', '=', row.id).executeTakeFirst()) ??
    (await s.ctx.db
      .insertInto('voicemails')
      .values({ company_id: a.companyId, call_id: row.id, number_id: n2.id, recording_url: 'http://x/vm.wav', duration_s: 3 })
      .returning('id')
      .executeTakeFirstOrThrow());
  await events.publish(s.ctx, 'call.changed', {
    callId: row.id,
    companyId: a.companyId,
    numberId: n2.id,
    from: '+13125550305',
    status: 4,
    voicemailId: vm.id,
  });
});
afterAll(async () => {
  await s?.close();
});

describe('notification counts', () => {
  it('counts unread items per type and per number', async () => {
    const r = await a.client.get(url('notificationCounts'));
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(4);
    expect(r.body).toEqual({ message: 4, call: 0, voicemail: 1, fax: 0, total: 5 });
    const byNumber = await a.client.get(url('notificationCountsByNumber'));
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.data.find((x: any) => x.number_id === n1.id)).toEqual({ number_id: n1.id, message: 3, call: 0, voicemail: 0, fax: 0 });
    expect(byNumber.body.data.find((x: any) => x.number_id === n2.id).message).toBe(1);
    expect(byNumber.body.data.some((x: any) => x.number_id === bNumber.id)).toBe(false);
    expect((await b.client.get(url('notificationCounts'))).status).toBe(403);
    expect((await b.client.get(url('notificationCountsByNumber'))).status).toBe(403);
  });

  it('mutes a number per channel type for the caller only, and unmutes', async () => {
    const blocked = await a.client.post(url('notificationBlocks'), { number_id: n1.id, channel_types: ['sms'] });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(blocked.body.data).toEqual([{ number_id: n1.id, hasNotificationBlocks: true, channel_types: ['sms'] }]);
    // Idempotent.
    expect((await a.client.post(url('notificationBlocks'), { number_id: n1.id, channel_types: ['sms'] })).body.data).toHaveLength(1);
    let counts = (await a.client.get(url('notificationCounts'))).body;
    expect(counts.message).toBe(1);
    expect(counts.total).toBe(2);
    const byNumber = (await a.client.get(url('notificationCountsByNumber'))).body.data;
    expect(byNumber.some((x: any) => x.number_id === n1.id)).toBe(false);

    await a.client.post(url('notificationBlocks'), { number_ids: [n2.id], channel_types: ['call', 'voicemail', 'fax'] });
    counts = (await a.client.get(url('notificationCounts'))).body;
    expect(counts).toEqual({ message: 1, call: 0, voicemail: 0, fax: 0, total: 1 });
    const list = await a.client.get(url('notificationBlocks'));
    expect(list.body.data).toEqual([
      { number_id: n1.id, hasNotificationBlocks: true, channel_types: ['sms'] },
      { number_id: n2.id, hasNotificationBlocks: true, channel_types: ['call', 'fax', 'voicemail'] },
    ]);

    const unmuted = await a.client.request('DELETE', url('notificationBlocks'), { number_ids: [n1.id, n2.id], channel_types: ['sms', 'voicemail', 'call'] });
    expect(unmuted.status).toBe(200);
    expect(unmuted.body.data).toEqual([{ number_id: n2.id, hasNotificationBlocks: true, channel_types: ['fax'] }]);
    expect((await a.client.get(url('notificationCounts'))).body.total).toBe(5);
  });

  it('validates the body and refuses other companies', async () => {
    const noNumber = await a.client.post(url('notificationBlocks'), { channel_types: ['sms'] });
    expect(noNumber.status).toBe(422);
    expect(noNumber.body.errors.number_id).toBeDefined();
    const badChannel = await a.client.post(url('notificationBlocks'), { number_id: n1.id, channel_types: ['email'] });
    expect(badChannel.status).toBe(422);
    const noChannels = await a.client.post(url('notificationBlocks'), { number_id: n1.id, channel_types: [] });
    expect(noChannels.status).toBe(422);
    expect(noChannels.body.errors.channel_types).toBeDefined();
    const foreign = await a.client.post(url('notificationBlocks'), { number_ids: [bNumber.id], channel_types: ['sms'] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.number_ids).toBeDefined();
    expect((await b.client.post(url('notificationBlocks'), { number_id: n1.id, channel_types: ['sms'] })).status).toBe(403);
    expect((await b.client.get(url('notificationBlocks'))).status).toBe(403);
    expect((await b.client.get(url('notificationBlocks', b.companyId))).body.data).toEqual([]);
  });
});
