/**
 * In-app calling end to end over HTTP, Socket.IO and the sandbox simulator: status active/away
 * (SIP provisioning), token 422 without SIP fields, two active users rung on `user.{id}`, the
 * first answer wins (200 / 409), the other user hears 'answered', the call is 12 Connected with
 * forwarded_to user_A; channel isolation; can-answer-call; reject; no answer → voicemail.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { verifySandboxClientToken } from '../../carriers/sandbox/sandbox.token.js';

let s: TestServer;
let a: Account;
let b: Account;
let outsider: Account;
const sockets: Socket[] = [];

type Ev = { type: string; callId?: number; byUserId?: number; joinToken?: string; from?: string; numberLabel?: string };

function collect(socket: Socket): Ev[] {
  const got: Ev[] = [];
  socket.on('in-app calling', (e: Ev) => got.push(e));
  return got;
}

/**
 * Assigns the number to both members (the spec's user `numbers`): `b` is a `user`, rung only for
 * the numbers assigned to them (docs/accounts.md "Per-user routing"); assigned, the number rings
 * exactly its assignees.
 */
async function assignToBoth(numberId: number): Promise<void> {
  await s.ctx.db
    .insertInto('user_numbers')
    .values([a.userId, b.userId].map((user_id) => ({ company_id: a.companyId, user_id, number_id: numberId })))
    .execute();
}

const base = (acc: Account) => `/api/companies/${a.companyId}/in-app-calling`;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Alice' });
  b = await createAccount(s, { firstName: 'Bob' });
  outsider = await createAccount(s, { firstName: 'Olga' });
  await addCompanyMember(s.ctx, a.companyId, b.userId, 'user');
}, 60_000);

afterAll(async () => {
  for (const so of sockets) so.close();
  await s?.close();
});

describe('in-app calling', () => {
  it('token is 422 without SIP fields; going active provisions them; away keeps them', async () => {
    const t = await a.client.post(`${base(a)}/token`);
    expect(t.status).toBe(422);
    expect(t.body.errors.sip_address[0]).toMatch(/SIP/);

    const act = await a.client.post(`${base(a)}/status`, { status: 'active' });
    expect(act.status, JSON.stringify(act.body)).toBe(200);
    expect(act.body.data).toMatchObject({ id: a.userId, in_app_calling_status: 'active', has_sip: true, can_take_calls: true });
    const me = await a.client.get('/api/user');
    expect(me.body).toMatchObject({ in_app_calling_status: 'active', sip_user: `user_${a.userId}` });
    expect(me.body.sip_address).toMatch(/^sip:user_\d+@sandbox/);

    const tok = await a.client.post(`${base(a)}/token`);
    expect(tok.status).toBe(200);
    expect(tok.body).toMatchObject({ identity: `user_${a.userId}`, carrier: 'sandbox' });
    expect(verifySandboxClientToken(s.ctx.config, tok.body.token)?.sub).toBe(`user_${a.userId}`);

    const away = await a.client.post(`${base(a)}/status`, { status: 'away' });
    expect(away.body.data).toMatchObject({ in_app_calling_status: 'away', has_sip: true, can_take_calls: false });
    expect((await a.client.post(`${base(a)}/status`, { status: 'busy' })).status).toBe(422);
    expect((await outsider.client.post(`${base(a)}/status`, { status: 'active' })).status).toBe(403);
    expect((await outsider.client.get(`${base(a)}/users`)).status).toBe(403);
  });

  it('rings both active users; the first answer wins, the other gets 409 and "answered"; the call is 12 Connected', async () => {
    expect((await a.client.post(`${base(a)}/status`, { status: 'active' })).status).toBe(200);
    expect((await b.client.post(`${base(b)}/status`, { status: 'active' })).status).toBe(200);
    const users = await a.client.get(`${base(a)}/users`);
    expect(
      users.body.data
        .filter((u: { can_take_calls: boolean }) => u.can_take_calls)
        .map((u: { id: number }) => u.id)
        .sort(),
    ).toEqual([a.userId, b.userId].sort());

    const sa = await connectSocket(s, a.client);
    const sb = await connectSocket(s, b.client);
    const so = await connectSocket(s, outsider.client);
    sockets.push(sa, sb, so);
    expect(await subscribe(sa, `user.${a.userId}`)).toEqual({ ok: true });
    expect(await subscribe(sb, `user.${b.userId}`)).toEqual({ ok: true });
    expect((await subscribe(so, `user.${a.userId}`)).ok).toBe(false);
    expect((await subscribe(sb, `user.${a.userId}`)).ok).toBe(false);
    const evA = collect(sa);
    const evB = collect(sb);
    const evO = collect(so);

    const n = await buyTestNumber(a, '415');
    await assignToBoth(n.id);
    expect(
      (await a.client.put(`/api/numbers/${n.id}`, { label: 'Front desk', routes: [{ type: 'in-app-calling', voicemail_enabled: true, timeout: 20 }] })).status,
    ).toBe(200);

    const sim = a.client.post('/api/simulator/calls', { from: '+13125550142', to: n.number, talk_seconds: 1 });
    const ringA = await eventually(async () => evA.find((e) => e.type === 'ringing'));
    const ringB = await eventually(async () => evB.find((e) => e.type === 'ringing'));
    expect(ringA).toMatchObject({ from: '+13125550142', numberLabel: 'Front desk' });
    expect(ringB.callId).toBe(ringA.callId);
    expect(ringA.joinToken).toBeTruthy();
    const callId = ringA.callId!;

    expect((await a.client.get(`${base(a)}/calls/${callId}/can-answer-call`)).body).toEqual({ canAnswer: true });
    expect((await outsider.client.get(`${base(a)}/calls/${callId}/can-answer-call`)).status).toBe(403);

    const [ansA, ansB] = await Promise.all([
      a.client.post(`${base(a)}/calls/${callId}/answer`),
      new Promise((r) => setTimeout(r, 30)).then(() => b.client.post(`${base(b)}/calls/${callId}/answer`)),
    ]);
    expect(ansA.status, JSON.stringify(ansA.body)).toBe(200);
    expect(ansA.body.data).toMatchObject({ state: 'answered', answered_by: a.userId });
    expect(ansB.status).toBe(409);
    expect(ansB.body.message).toBe('This call was already answered.');
    await eventually(async () => evB.find((e) => e.type === 'answered' && e.callId === callId && e.byUserId === a.userId));

    const call = await b.client.get(`/api/calls/${callId}`);
    expect(call.body).toMatchObject({ status: 12, forwarded_to: `user_${a.userId}` });
    expect(call.body.history.some((h: { detail: { answered_by?: number } }) => h.detail.answered_by === a.userId)).toBe(true);
    expect((await b.client.get(`${base(b)}/calls/${callId}/can-answer-call`)).body).toEqual({ canAnswer: false, reason: 'answered' });

    const done = await sim;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.status).toBe('completed');
    expect(done.body.log.some((l: { step: string; detail: string }) => l.step === 'connected' && l.detail.includes(`user_${a.userId}`))).toBe(true);
    const after = await a.client.get(`/api/calls/${callId}`);
    expect(after.body).toMatchObject({ status: 12, forwarded_to: `user_${a.userId}` });
    await eventually(async () => evB.find((e) => e.type === 'ended' && e.callId === callId));
    expect(evO).toEqual([]);
  }, 60_000);

  it('declined by everyone → the entry takes voicemail; the join token is required', async () => {
    const sa = await connectSocket(s, a.client);
    const sb = await connectSocket(s, b.client);
    sockets.push(sa, sb);
    await subscribe(sa, `user.${a.userId}`);
    await subscribe(sb, `user.${b.userId}`);
    const evA = collect(sa);
    const evB = collect(sb);
    const n = await buyTestNumber(a, '415', 1);
    await assignToBoth(n.id);
    await a.client.put(`/api/numbers/${n.id}`, { routes: [{ type: 'in-app-calling', voicemail_enabled: true, timeout: 20 }] });
    const sim = a.client.post('/api/simulator/calls', { from: '+13125550143', to: n.number, voicemail_seconds: 3 });
    const ring = await eventually(async () => evA.find((e) => e.type === 'ringing'));
    await eventually(async () => evB.find((e) => e.type === 'ringing'));
    expect((await a.client.post(`${base(a)}/calls/${ring.callId}/reject`, { joinToken: 'wrong' })).status).toBe(403);
    expect((await a.client.post(`${base(a)}/calls/${ring.callId}/reject`, { joinToken: ring.joinToken })).status).toBe(200);
    expect((await a.client.get(`${base(a)}/calls/${ring.callId}/can-answer-call`)).body).toEqual({ canAnswer: false, reason: 'rejected' });
    expect((await b.client.post(`${base(b)}/calls/${ring.callId}/reject`, { joinToken: ring.joinToken })).status).toBe(200);
    const done = await sim;
    expect(done.body.status).toBe('completed');
    const call = await a.client.get(`/api/calls/${ring.callId}`);
    expect(call.body.status).toBe(4);
    expect((await b.client.post(`${base(b)}/calls/${ring.callId}/answer`)).status).toBe(409);
  }, 60_000);

  it("outbound token records an outbound call; 404 for another company's number", async () => {
    const n = await buyTestNumber(a, '415', 2);
    const r = await a.client.post('/api/v1/calls/token', { number_id: n.id, destination: '(312) 555-0199' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ from: n.number, to: '+13125550199', identity: `user_${a.userId}` });
    const call = await a.client.get(`/api/calls/${r.body.call_id}`);
    expect(call.body).toMatchObject({ direction: 'outbound', status: 1, to: '+13125550199' });
    expect((await outsider.client.post('/api/v1/calls/token', { number_id: n.id, destination: '3125550199' })).status).toBe(404);
    expect((await a.client.post('/api/v1/calls/token', { number_id: n.id, destination: 'abc' })).status).toBe(422);
  });

  it('a browser-placed call dials the destination from the company number and records the result', async () => {
    const n = await buyTestNumber(a, '415', 3);
    const t = await a.client.post('/api/v1/calls/token', { number_id: n.id, destination: '+13125550177' });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    const sid = 'CA' + 'b'.repeat(32);
    const params = {
      CallSid: sid,
      AccountSid: s.ctx.config.twilioAccountSid,
      From: `client:user_${a.userId}`,
      To: '+13125550177',
      call_id: String(t.body.call_id),
      CallStatus: 'ringing',
      Direction: 'inbound',
    };
    const forged = await postWebhook(s, '/webhooks/twilio/voice/client', params, { token: 'wrong-token' });
    expect(forged.status).toBe(403);
    const first = await postWebhook(s, '/webhooks/twilio/voice/client', params);
    expect(first.status).toBe(200);
    expect(first.body).toContain(`callerId="${n.number}"`);
    expect(first.body).toMatch(/<Number>\+13125550177<\/Number>/);
    expect((await postWebhook(s, '/webhooks/twilio/voice/client', params)).body).toBe(first.body);
    // Someone else's client identity cannot use this call.
    const other = await postWebhook(s, '/webhooks/twilio/voice/client', { ...params, CallSid: 'CA' + 'c'.repeat(32), From: `client:user_${outsider.userId}` });
    expect(other.body).toContain('<Hangup');
    const dial = await postWebhook(s, `/webhooks/twilio/voice/client/dial?call=${t.body.call_id}`, {
      CallSid: sid,
      DialCallStatus: 'completed',
      DialCallDuration: '42',
    });
    expect(dial.status).toBe(200);
    const call = await a.client.get(`/api/calls/${t.body.call_id}`);
    expect(call.body).toMatchObject({ direction: 'outbound', status: 12, duration_s: 42, carrier_sid: sid });
  });
});
