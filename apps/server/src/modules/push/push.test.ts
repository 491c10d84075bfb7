/**
 * Push through the real server with the sandbox adapter (docs/push.md): the beam token, browser
 * subscriptions and VoIP tokens (stored, listed, deleted, 422s), and the pushes recorded for an
 * inbound SMS to a number of the company and for an in-app ring — to the people who would see
 * them only (not another company's users, not a `user` whose numbers do not include it).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let member: Account;
let other: Account;

/** A subscription as a browser would send it: a real P-256 public key and a 16-byte auth secret. */
function browserSubscription(endpoint: string) {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') } };
}

const token64 = () => crypto.randomBytes(32).toString('hex');

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Alice' });
  member = await createAccount(s, { firstName: 'Uma' });
  other = await createAccount(s, { firstName: 'Olga' });
  await addCompanyMember(s.ctx, a.companyId, member.userId, 'user');
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('beam token and devices', () => {
  it('gives the VAPID public key (a 65-byte P-256 point), the same on every call; 401 signed out', async () => {
    const r = await a.client.get('/api/user/beam-token');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ user_id: a.userId, service_worker: '/push-sw.js', subscribe_path: '/api/user/push-subscriptions' });
    expect(r.body.token).toBe(r.body.vapid_public_key);
    const key = Buffer.from(r.body.token, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect((await other.client.get('/api/user/beam-token')).body.token).toBe(r.body.token);
    const anon = await fetch(`${s.url}/api/user/beam-token`);
    expect(anon.status).toBe(401);
  });

  it('stores a subscription per endpoint (re-subscribing moves it), lists it by origin, deletes it', async () => {
    const sub = browserSubscription('https://push.example.test/send/abc');
    const r = await a.client.post('/api/user/push-subscriptions', sub);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ message: 'Notifications turned on for this browser', data: { kind: 'web', label: 'https://push.example.test' } });
    const rows = await s.ctx.db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', sub.endpoint).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: a.userId, p256dh: sub.keys.p256dh, auth: sub.keys.auth });

    // The same browser signed in as another person: the endpoint now belongs to them.
    expect((await other.client.post('/api/user/push-subscriptions', sub)).status).toBe(201);
    expect((await a.client.get('/api/user/push-subscriptions')).body.data).toEqual([]);
    expect((await other.client.get('/api/user/push-subscriptions')).body.data.map((d: { label: string }) => d.label)).toEqual(['https://push.example.test']);

    expect((await a.client.request('DELETE', '/api/user/push-subscriptions', { endpoint: sub.endpoint })).status).toBe(404);
    const del = await other.client.request('DELETE', '/api/user/push-subscriptions', { endpoint: sub.endpoint });
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Notifications turned off for this browser');
    expect(await s.ctx.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', sub.endpoint).execute()).toEqual([]);
  });

  it('answers 422 with field errors on bad subscriptions and tokens', async () => {
    const good = browserSubscription('https://push.example.test/x');
    const missing = await a.client.post('/api/user/push-subscriptions', { keys: good.keys });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.endpoint).toBeDefined();
    expect((await a.client.post('/api/user/push-subscriptions', { ...good, endpoint: 'not a url' })).body.errors.endpoint).toBeDefined();
    const shortKey = await a.client.post('/api/user/push-subscriptions', {
      ...good,
      keys: { ...good.keys, p256dh: crypto.randomBytes(33).toString('base64url') },
    });
    expect(shortKey.status).toBe(422);
    expect(Object.keys(shortKey.body.errors)).toEqual(['keys.p256dh']);
    const noAuth = await a.client.post('/api/user/push-subscriptions', { ...good, keys: { p256dh: good.keys.p256dh } });
    expect(noAuth.status).toBe(422);
    expect(noAuth.body.errors['keys.auth']).toBeDefined();
    expect((await a.client.post('/api/user/push-subscriptions', { endpoint: good.endpoint })).status).toBe(422);

    const badToken = await a.client.post('/api/apns-voip-device-tokens', { token: 'xyz' });
    expect(badToken.status).toBe(422);
    expect(badToken.body.errors.token).toBeDefined();
    expect((await a.client.post('/api/apns-voip-device-tokens', {})).status).toBe(422);
    expect((await a.client.post('/api/apns-voip-device-tokens', { token: token64(), device_name: 'x'.repeat(101) })).body.errors.device_name).toBeDefined();
    expect((await a.client.get('/api/user/push-notifications?limit=0')).status).toBe(422);
    expect(await s.ctx.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', a.userId).execute()).toEqual([]);
  });

  it('stores a VoIP token (hex, lower-cased) for the caller; only its owner deletes it', async () => {
    const t = token64().toUpperCase();
    const r = await a.client.post('/api/apns-voip-device-tokens', { token: t, device_name: 'Alice iPhone' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ message: 'VoIP device token saved', data: { kind: 'apns', label: 'Alice iPhone' } });
    const row = await s.ctx.db.selectFrom('apns_voip_tokens').selectAll().where('user_id', '=', a.userId).executeTakeFirstOrThrow();
    expect(row.token).toBe(t.toLowerCase());
    expect((await other.client.delete(`/api/apns-voip-device-tokens/${t}`)).status).toBe(404);
    expect((await a.client.delete(`/api/apns-voip-device-tokens/${t}`)).body.message).toBe('VoIP device token removed');
    expect(await s.ctx.db.selectFrom('apns_voip_tokens').select('id').where('user_id', '=', a.userId).execute()).toEqual([]);
  });
});

describe('pushes (sandbox)', () => {
  it('records a push of an inbound SMS for the company members who see the number, not another company nor an unassigned user', async () => {
    for (const acc of [a, member, other]) {
      expect((await acc.client.post('/api/user/push-subscriptions', browserSubscription(`https://push.example.test/${acc.userId}`))).status).toBe(201);
    }
    const n = await buyTestNumber(a, '646');
    await buyTestNumber(other, '646', 1);
    const r = await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: 'SMpush000000000000000000000000001',
      From: '+13125550188',
      To: n.number,
      Body: 'Is the   shop open on Sunday?',
      NumMedia: '0',
    });
    expect(r.status).toBe(200);
    const list = await eventually(async () => {
      const res = await a.client.get('/api/user/push-notifications');
      return res.body.data.length === 1 && res.body.data[0].deliveries.length === 1 ? res : null;
    });
    const [note] = list.body.data;
    expect(note).toMatchObject({ kind: 'message', company_id: a.companyId, body: 'Is the shop open on Sunday?' });
    expect(note.title).toMatch(/^\(312\) 555-0188 → \S/);
    expect(note.url).toMatch(/^\/inbox\/\d+$/);
    expect(note.deliveries).toEqual([
      { channel: 'web', adapter: 'sandbox', outcome: 'recorded', status_code: null, error: null, created_at: expect.any(String) },
    ]);
    // The same message again (the carrier retries): absorbed, still one push.
    await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: 'SMpush000000000000000000000000001',
      From: '+13125550188',
      To: n.number,
      Body: 'x',
      NumMedia: '0',
    });
    await new Promise((res) => setTimeout(res, 700));
    expect((await a.client.get('/api/user/push-notifications')).body.data).toHaveLength(1);
    expect((await other.client.get('/api/user/push-notifications')).body.data).toEqual([]);
    // `member` is a `user` and the number is not assigned to them: the inbox does not show it, no push.
    expect((await member.client.get('/api/user/push-notifications')).body.data).toEqual([]);

    // Assigned, they get the next one.
    await s.ctx.db.insertInto('user_numbers').values({ company_id: a.companyId, user_id: member.userId, number_id: n.id }).execute();
    await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: 'SMpush000000000000000000000000002',
      From: '+13125550188',
      To: n.number,
      Body: 'Hello?',
      NumMedia: '0',
    });
    const got = await eventually(async () => {
      const res = await member.client.get('/api/user/push-notifications');
      return res.body.data.length === 1 ? res : null;
    });
    expect(got.body.data[0]).toMatchObject({ kind: 'message', body: 'Hello?' });
    await eventually(async () => ((await a.client.get('/api/user/push-notifications')).body.data.length === 2 ? true : null));
    expect((await other.client.get('/api/user/push-notifications')).body.data).toEqual([]);

    // The member mutes texts of that number (notification blocks): the owner is still pushed, the member is not.
    const mute = await member.client.post(`/api/companies/${a.companyId}/notificationBlocks`, { number_id: n.id, channel_types: ['sms'] });
    expect(mute.status, JSON.stringify(mute.body)).toBe(200);
    await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: 'SMpush000000000000000000000000003',
      From: '+13125550188',
      To: n.number,
      Body: 'Anyone?',
      NumMedia: '0',
    });
    await eventually(async () => ((await a.client.get('/api/user/push-notifications')).body.data.length === 3 ? true : null));
    await new Promise((res) => setTimeout(res, 300));
    expect((await member.client.get('/api/user/push-notifications')).body.data.map((x: { body: string }) => x.body)).toEqual(['Hello?']);
  }, 60_000);

  it('records a push of an in-app ring on the browser and the VoIP device of each rung user, once per call', async () => {
    const voip = token64();
    expect((await a.client.post('/api/apns-voip-device-tokens', { token: voip })).status).toBe(201);
    expect((await other.client.post('/api/apns-voip-device-tokens', { token: token64() })).status).toBe(201);
    expect((await a.client.post(`/api/companies/${a.companyId}/in-app-calling/status`, { status: 'active' })).status).toBe(200);
    const n = await buyTestNumber(a, '646', 2);
    const put = await a.client.put(`/api/numbers/${n.id}`, { label: 'Front desk', routes: [{ type: 'in-app-calling', voicemail_enabled: true, timeout: 5 }] });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const sim = a.client.post('/api/simulator/calls', { from: '+13125550177', to: n.number, voicemail_seconds: 1 });
    const call = await eventually(async () => {
      const res = await a.client.get('/api/user/push-notifications');
      const c = res.body.data.find((x: { kind: string; deliveries: unknown[] }) => x.kind === 'call' && x.deliveries.length === 2);
      return c ?? null;
    }, 15_000);
    expect(call).toMatchObject({ title: 'Incoming call from (312) 555-0177', body: 'To Front desk', company_id: a.companyId });
    expect(call.url).toMatch(/^\/calls\/\d+$/);
    expect(call.deliveries.map((d: { channel: string; adapter: string; outcome: string }) => `${d.channel}:${d.adapter}:${d.outcome}`).sort()).toEqual([
      'apns:sandbox:recorded',
      'web:sandbox:recorded',
    ]);
    const done = await sim;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const calls = (await a.client.get('/api/user/push-notifications')).body.data.filter((x: { kind: string }) => x.kind === 'call');
    expect(calls).toHaveLength(1);
    // The member is away (not rung) and the other company has nothing to do with the call.
    expect((await member.client.get('/api/user/push-notifications')).body.data.filter((x: { kind: string }) => x.kind === 'call')).toEqual([]);
    expect((await other.client.get('/api/user/push-notifications')).body.data).toEqual([]);
  }, 60_000);

  it('sends a test notification to the caller only (202)', async () => {
    const r = await other.client.post('/api/user/push-notifications/test');
    expect(r.status).toBe(202);
    expect(r.body.message).toBe('Test notification sent');
    const got = await eventually(async () => {
      const res = await other.client.get('/api/user/push-notifications');
      return res.body.data.length === 1 && res.body.data[0].deliveries.length === 1 ? res.body.data[0] : null;
    });
    // A test is for browsers: the VoIP token is for incoming calls only.
    expect(got).toMatchObject({ kind: 'test', company_id: null, deliveries: [{ channel: 'web', outcome: 'recorded' }] });
  });
});
