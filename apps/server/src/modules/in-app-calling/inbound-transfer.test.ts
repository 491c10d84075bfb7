/**
 * Transfer of an inbound call answered in the app (docs/calling.md "Transfer of an answered inbound call"), through
 * the real server and the sandbox simulator: the answering user transfers the caller to a number (the simulator's
 * engine follows the redirect and dials it; the call ends 12 Connected, forwarded to that number, the user's
 * softphone told 'ended'), or to another user, who is rung, answers and hangs up. Only the answerer may transfer;
 * another company 403; a call not answered in the app 404; mute is recorded for the answerer. A transfer nobody takes
 * goes on to the extension's voicemail (the call stays answered) or a goodbye; a decline ends the ring at once.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let b: Account;
let outsider: Account;
const sockets: Socket[] = [];
type Ev = { type: string; callId?: number; reason?: string; joinToken?: string };

async function listen(account: Account): Promise<Ev[]> {
  const so = await connectSocket(s, account.client);
  sockets.push(so);
  expect(await subscribe(so, `user.${account.userId}`)).toEqual({ ok: true });
  const got: Ev[] = [];
  so.on('in-app calling', (e: Ev) => got.push(e));
  return got;
}

const inApp = (account: Account) => `/api/companies/${a.companyId}/in-app-calling`;
const controls = (callId: number) => `/api/companies/${a.companyId}/outbound-calls/${callId}`;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Alice' });
  b = await createAccount(s, { firstName: 'Bob' });
  outsider = await createAccount(s, { firstName: 'Olga' });
  await addCompanyMember(s.ctx, a.companyId, b.userId, 'administrator');
  for (const acc of [a, b]) expect((await acc.client.post(`${inApp(acc)}/status`, { status: 'active' })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  for (const so of sockets) so.close();
  await s?.close();
});

/**
 * Places a simulator call to a number that rings `a` in the app; `a` answers. `voicemail`: the entry takes messages
 * (the caller leaves 3 s), `forwards`: the simulator's answer of dialed numbers.
 * @returns the call id and the pending simulator answer.
 */
async function answeredCall(areaIndex: number, evA: Ev[], opts: { voicemail?: boolean; forwards?: Record<string, string> } = {}) {
  const n = await buyTestNumber(a, '415', areaIndex);
  await s.ctx.db.insertInto('user_numbers').values({ company_id: a.companyId, user_id: a.userId, number_id: n.id }).execute();
  const route = { type: 'in-app-calling', timeout: 20, voicemail_enabled: opts.voicemail ?? false };
  expect((await a.client.put(`/api/numbers/${n.id}`, { routes: [route] })).status).toBe(200);
  const sim = a.client.post('/api/simulator/calls', { from: '+13125550161', to: n.number, talk_seconds: 20, voicemail_seconds: 3, forwards: opts.forwards });
  const ring = await eventually(async () => evA.find((e) => e.type === 'ringing' && !evA.some((x) => x.type === 'ended' && x.callId === e.callId)));
  const callId = ring.callId!;
  expect((await a.client.post(`${inApp(a)}/calls/${callId}/answer`)).status).toBe(200);
  return { callId, sim, number: n };
}

describe('transfer of an inbound call answered in the app', () => {
  it('to a number: the caller is dialed there, the answerer leaves, the call ends 12 Connected forwarded to it', async () => {
    const evA = await listen(a);
    const { callId, sim } = await answeredCall(0, evA);

    // Mute is the answerer's to record; someone else's or another company's transfer is refused.
    expect((await a.client.post(`${controls(callId)}/mute`, { muted: true })).status).toBe(200);
    expect((await b.client.post(`${controls(callId)}/transfer`, { number: '+16465550123' })).status).toBe(403);
    expect((await outsider.client.post(`${controls(callId)}/transfer`, { number: '+16465550123' })).status).toBe(403);
    expect((await a.client.post(`${controls(callId)}/transfer`, { number: 'not a number' })).status).toBe(422);

    const t = await a.client.post(`${controls(callId)}/transfer`, { number: '(646) 555-0123' });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body).toMatchObject({ message: 'Call transferred', data: { call_id: callId, transferred_to: '+16465550123' } });
    await eventually(async () => evA.find((e) => e.type === 'ended' && e.callId === callId && e.reason === 'transferred'));

    const done = await sim;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const steps = done.body.log as Array<{ step: string; detail: string }>;
    expect(steps.some((l) => l.step === 'transfer' && l.detail.includes(`user_${a.userId}`))).toBe(true);
    expect(steps.some((l) => l.detail.includes('+16465550123'))).toBe(true);
    const call = await eventually(async () => {
      const r = await a.client.get(`/api/calls/${callId}`);
      return r.body.ended_at ? r : null;
    });
    expect(call.body).toMatchObject({ status: 12, forwarded_to: '+16465550123' });
    expect(call.body.duration_s).toBeGreaterThan(0);
    const controlsSeen = (call.body.history as Array<{ detail: { control?: string } }>).map((h) => h.detail.control).filter(Boolean);
    expect(controlsSeen).toEqual(['mute', 'transfer']);
    // Over: no more controls.
    expect((await a.client.post(`${controls(callId)}/transfer`, { number: '+16465550124' })).status).toBe(404);
  }, 60_000);

  it('to a user: they are rung, answer and hang up; the first answerer can no longer act', async () => {
    const evA = await listen(a);
    const evB = await listen(b);
    const { callId, sim } = await answeredCall(1, evA);
    expect((await a.client.post(`${controls(callId)}/transfer`, { user_id: a.userId })).status).toBe(422);

    const t = await a.client.post(`${controls(callId)}/transfer`, { user_id: b.userId });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body.data.transferred_to).toBe(`user_${b.userId}`);
    // Bob's ringing card names the caller and the number called.
    const ring = await eventually(async () => evB.find((e) => e.type === 'ringing' && e.callId === callId));
    expect(ring).toMatchObject({ from: '+13125550161' });
    await eventually(async () => evA.find((e) => e.type === 'ended' && e.callId === callId && e.reason === 'transferred'));
    expect((await a.client.post(`${controls(callId)}/transfer`, { number: '+16465550125' })).status).toBe(404);

    const answered = await b.client.post(`${inApp(b)}/calls/${callId}/answer`);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await b.client.post(`${inApp(b)}/calls/${callId}/hangup`)).status).toBe(200);

    const done = await sim;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const call = await eventually(async () => {
      const r = await a.client.get(`/api/calls/${callId}`);
      return r.body.ended_at ? r : null;
    });
    expect(call.body).toMatchObject({ status: 12, forwarded_to: `user_${b.userId}` });
  }, 60_000);
  it('nobody takes the transfer: the caller leaves a voicemail on the extension, the call stays answered', async () => {
    const evA = await listen(a);
    const { callId, sim } = await answeredCall(2, evA, { voicemail: true, forwards: { '+16465550126': 'no-answer' } });
    expect((await a.client.post(`${controls(callId)}/transfer`, { number: '+16465550126' })).status).toBe(200);

    const done = await sim;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const log = done.body.log as Array<{ step: string; detail: string }>;
    expect(log.some((l) => l.step === 'say' && l.detail === 'The person you were transferred to is not available.')).toBe(true);
    expect(log.some((l) => l.step === 'record' && l.detail.includes('3 s message'))).toBe(true);
    const call = await eventually(async () => {
      const r = await a.client.get(`/api/calls/${callId}`);
      return r.body.ended_at && r.body.voicemail ? r : null;
    });
    expect(call.body).toMatchObject({ status: 12 });
    expect(call.body.answered_at).toBeTruthy();
    const vms = await a.client.get(`/api/voicemails?company_id=${a.companyId}`);
    expect((vms.body.data as Array<{ call_id: number }>).some((v) => v.call_id === callId)).toBe(true);
  }, 60_000);

  it('a user declines the transfer and the extension takes no messages: the caller hears a goodbye', async () => {
    const evA = await listen(a);
    const evB = await listen(b);
    const { callId, sim } = await answeredCall(3, evA);
    expect((await a.client.post(`${controls(callId)}/transfer`, { user_id: b.userId })).status).toBe(200);
    const ring = await eventually(async () => evB.find((e) => e.type === 'ringing' && e.callId === callId));
    expect((await b.client.post(`${inApp(b)}/calls/${callId}/reject`, { joinToken: ring.joinToken })).status).toBe(200);

    const done = await sim;
    const log = done.body.log as Array<{ step: string; detail: string }>;
    // The decline ends the ring at once (the user who transferred is no longer rung), not at the ring's timeout.
    expect(log.some((l) => l.step === 'dial' && l.detail === 'no one answered in the browser (rejected)')).toBe(true);
    expect(log.some((l) => l.step === 'say' && l.detail === 'Please try again later. Goodbye.')).toBe(true);
    expect(log.some((l) => l.step === 'record')).toBe(false);
    const call = await eventually(async () => {
      const r = await a.client.get(`/api/calls/${callId}`);
      return r.body.ended_at ? r : null;
    });
    expect(call.body).toMatchObject({ status: 12, voicemail: null });
  }, 60_000);
});
