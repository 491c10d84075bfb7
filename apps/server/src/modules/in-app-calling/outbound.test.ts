/**
 * Outbound calling end to end over HTTP and the sandbox (docs/calling.md): caller-ID choices per
 * role and the remembered choice, 403/404/422 on placing, the sandbox softphone connect ringing the
 * simulator's handset, answer, keypad tones and hold heard by the handset, hang-up with the status
 * and duration stored, cancel while ringing (5 No Answer), a blind transfer to a number and to a
 * user (rung in the app, answers, hangs up), hold music from the number's on-hold greeting, lines
 * said on the handset making a two-speaker transcript, and another company's calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let b: Account;
let outsider: Account;
let n1: { id: number; number: string };
let n2: { id: number; number: string };
let foreign: { id: number; number: string };

const base = () => `/api/companies/${a.companyId}/outbound-calls`;

type Handset = {
  sid: string;
  from: string;
  to: string;
  state: string;
  digits: string;
  on_hold: boolean;
  transferred_to: string | null;
  end_reason: string | null;
  hold_music_url: string | null;
  lines: Array<{ speaker: string; text: string; at: number }>;
};

async function handsetFor(acc: Account, to: string): Promise<Handset> {
  return eventually(async () => {
    const r = await acc.client.get('/api/simulator/handset-calls');
    const h = (r.body.data as Handset[]).find((x) => x.to === to && x.state !== 'ended');
    if (!h) throw new Error('not ringing yet');
    return h;
  });
}

async function place(acc: Account, callerId: number, to: string) {
  const r = await acc.client.post(base(), { caller_id: callerId, to });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const c = await acc.client.post('/api/simulator/softphone/connect', { token: r.body.token });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  expect(c.body.status).toBe('ringing');
  return r.body as { call_id: number; from: string; to: string; token: string };
}

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Alice' });
  b = await createAccount(s, { firstName: 'Bob' });
  outsider = await createAccount(s, { firstName: 'Olga' });
  await addCompanyMember(s.ctx, a.companyId, b.userId, 'user');
  n1 = await buyTestNumber(a, '415', 5);
  n2 = await buyTestNumber(a, '415', 6);
  foreign = await buyTestNumber(outsider, '212', 5);
  await s.ctx.db.insertInto('user_numbers').values({ company_id: a.companyId, user_id: b.userId, number_id: n1.id }).execute();
  for (const acc of [a, b]) expect((await acc.client.post(`/api/companies/${a.companyId}/in-app-calling/status`, { status: 'active' })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('outbound calling', () => {
  it('caller IDs per role, remembered per user; 403/404/422 on placing', async () => {
    const mine = await a.client.get(`${base()}/caller-ids`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((n: { id: number }) => n.id)).toEqual([n1.id, n2.id]);
    expect(mine.body.selected_id).toBe(n1.id);
    const bob = await b.client.get(`${base()}/caller-ids`);
    expect(bob.body.data.map((n: { id: number }) => n.id)).toEqual([n1.id]);
    // A `user` may not show an unassigned number: 422 on the field, nothing stored.
    const denied = await b.client.post(base(), { caller_id: n2.id, to: '+13125550100' });
    expect(denied.status).toBe(422);
    expect(denied.body.errors.caller_id[0]).toBe('You can only send messages and place calls from the numbers assigned to you.');
    expect((await b.client.put(`${base()}/caller-id`, { number_id: n2.id })).status).toBe(422);
    // Another company's number: 404; a non-member: 403; bad input: 422.
    expect((await a.client.post(base(), { caller_id: foreign.id, to: '+13125550100' })).status).toBe(404);
    expect((await outsider.client.post(base(), { caller_id: n1.id, to: '+13125550100' })).status).toBe(403);
    const bad = await a.client.post(base(), { caller_id: n1.id, to: '12ab' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.to[0]).toBe('The number is not a valid phone number.');
    expect((await a.client.post(base(), { caller_id: 'x', to: '+13125550100' })).status).toBe(422);
    // Remembered: the choice made with PUT, then the one a call was placed with.
    expect((await a.client.put(`${base()}/caller-id`, { number_id: n2.id })).status).toBe(200);
    expect((await a.client.get(`${base()}/caller-ids`)).body.selected_id).toBe(n2.id);
  });

  it('the sandbox rings the handset; answer, DTMF, hold, hang-up store a connected call with its duration', async () => {
    const placed = await place(a, n1.id, '(312) 555-0142');
    expect(placed).toMatchObject({ from: n1.number, to: '+13125550142' });
    expect((await a.client.get(`${base()}/caller-ids`)).body.selected_id).toBe(n1.id);
    const h = await handsetFor(a, '+13125550142');
    expect(h).toMatchObject({ from: n1.number, state: 'ringing' });
    // The other company sees nothing of it.
    expect((await outsider.client.get('/api/simulator/handset-calls')).body.data).toEqual([]);
    expect((await outsider.client.post(`/api/simulator/handset-calls/${h.sid}/answer`)).status).toBe(404);
    // Controls before the answer: not in progress.
    expect((await a.client.post(`${base()}/${placed.call_id}/dtmf`, { digits: '1' })).status).toBe(409);
    expect((await a.client.post(`/api/simulator/handset-calls/${h.sid}/answer`)).status).toBe(200);
    expect((await a.client.post(`/api/simulator/handset-calls/${h.sid}/answer`)).status).toBe(409);
    expect((await a.client.post(`${base()}/${placed.call_id}/dtmf`, { digits: '12#' })).status).toBe(200);
    expect((await a.client.post(`${base()}/${placed.call_id}/dtmf`, { digits: 'x' })).status).toBe(422);
    expect((await a.client.post(`${base()}/${placed.call_id}/hold`, { hold: true })).body.data.on_hold).toBe(true);
    expect((await a.client.post(`${base()}/${placed.call_id}/mute`, { muted: true })).body.data.muted).toBe(true);
    // Another member cannot drive Alice's call; another company gets 403 (not a member).
    expect((await b.client.post(`${base()}/${placed.call_id}/hold`, { hold: false })).status).toBe(403);
    expect((await outsider.client.post(`${base()}/${placed.call_id}/hangup`)).status).toBe(403);
    const during = (await a.client.get('/api/simulator/handset-calls')).body.data.find((x: Handset) => x.sid === h.sid);
    // No on-hold greeting on the number: the carrier's default music.
    expect(during).toMatchObject({ state: 'answered', digits: '12#', on_hold: true, hold_music_url: null });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await a.client.post(`/api/simulator/handset-calls/${h.sid}/hangup`)).status).toBe(200);
    const call = await eventually(async () => {
      const c = await a.client.get(`/api/calls/${placed.call_id}`);
      if (c.body.status !== 12) throw new Error(`status ${c.body.status}`);
      return c.body;
    });
    expect(call).toMatchObject({ direction: 'outbound', status: 12, to: '+13125550142' });
    expect(call.duration_s).toBeGreaterThanOrEqual(1);
    const events = await s.ctx.db.selectFrom('call_events').select('detail').where('call_id', '=', placed.call_id).execute();
    const controls = events.map((e) => (e.detail as { control?: string }).control).filter(Boolean);
    expect(controls).toEqual(['dtmf', 'hold', 'mute']);
  }, 60_000);

  it('a number that records records the outbound call in two channels; its transcript is loaded with the agent on channel 0', async () => {
    const put = await a.client.put(`/api/numbers/${n2.id}`, { record: true, call_transcription_enabled: true });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const placed = await place(a, n2.id, '(312) 555-0177');
    const h = await handsetFor(a, '+13125550177');
    expect((await a.client.post(`/api/simulator/handset-calls/${h.sid}/answer`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await a.client.post(`/api/simulator/handset-calls/${h.sid}/hangup`)).status).toBe(200);
    const detail = await eventually(async () => {
      const c = await a.client.get(`/api/calls/${placed.call_id}?include=transcription`);
      if (c.body.recording?.state !== 'stored' || c.body.transcription?.state !== 'complete') throw new Error(JSON.stringify(c.body.recording));
      return c.body;
    }, 30_000);
    expect(detail.recording).toMatchObject({ channels: 2, state: 'stored' });
    expect(detail.recording.duration_s).toBeGreaterThanOrEqual(1);
    const audio = await a.client.get(detail.recording.url);
    expect(audio.status).toBe(200);
    const t = await s.ctx.db.selectFrom('transcripts').select('metadata').where('call_id', '=', placed.call_id).executeTakeFirstOrThrow();
    expect(t.metadata).toMatchObject({ direction: 'outbound' });
    // The other company cannot play it.
    expect([403, 404]).toContain((await outsider.client.get(detail.recording.url)).status);
  }, 60_000);

  it('hanging up while it rings cancels the call: 5 No Answer', async () => {
    const placed = await place(a, n1.id, '+13125550143');
    const h = await handsetFor(a, '+13125550143');
    expect((await a.client.post(`${base()}/${placed.call_id}/hangup`)).status).toBe(200);
    await eventually(async () => {
      const c = await a.client.get(`/api/calls/${placed.call_id}`);
      if (c.body.status !== 5) throw new Error(`status ${c.body.status}`);
      return c.body;
    });
    const after = (await a.client.get('/api/simulator/handset-calls')).body.data.find((x: Handset) => x.sid === h.sid);
    expect(after).toMatchObject({ state: 'ended', end_reason: 'canceled' });
  }, 30_000);

  it('the handset rejecting ends the call 5 No Answer; a `user` places calls from an assigned number', async () => {
    const placed = await place(b, n1.id, '+13125550144');
    const h = await handsetFor(b, '+13125550144');
    expect((await b.client.post(`/api/simulator/handset-calls/${h.sid}/reject`)).status).toBe(200);
    await eventually(async () => {
      const c = await b.client.get(`/api/calls/${placed.call_id}`);
      if (c.body.status !== 5) throw new Error(`status ${c.body.status}`);
      return c.body;
    });
  }, 30_000);

  it('a blind transfer to a number leaves the browser; the handset talks on; 422s for bad targets', async () => {
    const placed = await place(a, n1.id, '+13125550145');
    const h = await handsetFor(a, '+13125550145');
    await a.client.post(`/api/simulator/handset-calls/${h.sid}/answer`);
    expect((await a.client.post(`${base()}/${placed.call_id}/transfer`, {})).status).toBe(422);
    expect((await a.client.post(`${base()}/${placed.call_id}/transfer`, { number: 'nope' })).status).toBe(422);
    expect((await a.client.post(`${base()}/${placed.call_id}/transfer`, { user_id: outsider.userId })).status).toBe(422);
    const t = await a.client.post(`${base()}/${placed.call_id}/transfer`, { number: '(646) 555-0190' });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body.data.transferred_to).toBe('+16465550190');
    const moved = (await a.client.get('/api/simulator/handset-calls')).body.data.find((x: Handset) => x.sid === h.sid);
    expect(moved).toMatchObject({ state: 'answered', transferred_to: '+16465550190' });
    // The agent hanging up no longer ends the transferred leg.
    await a.client.post(`${base()}/${placed.call_id}/hangup`);
    expect((await a.client.get('/api/simulator/handset-calls')).body.data.find((x: Handset) => x.sid === h.sid).state).toBe('answered');
    await a.client.post(`/api/simulator/handset-calls/${h.sid}/hangup`);
    const call = await eventually(async () => {
      const c = await a.client.get(`/api/calls/${placed.call_id}`);
      if (c.body.status !== 12) throw new Error(`status ${c.body.status}`);
      return c.body;
    });
    expect(call.forwarded_to).toBe('+16465550190');
  }, 30_000);
  it("hold plays the number's on-hold greeting (a signed URL the carrier fetches), resume stops it", async () => {
    const f = new FormData();
    f.set('company_id', String(a.companyId));
    f.set('name', 'Hold please');
    f.set('content', 'Thanks for holding, we will be right with you.');
    const g = await a.client.post('/api/greetings', f);
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    const routed = await a.client.put(`/api/numbers/${n1.id}`, {
      routes: [{ extension: 0, onhold_music_id: g.body.data.id, forwards: [{ number: '6465550101' }] }],
    });
    expect(routed.status, JSON.stringify(routed.body)).toBe(200);
    const placed = await place(a, n1.id, '+13125550146');
    const h = await handsetFor(a, '+13125550146');
    await a.client.post(`/api/simulator/handset-calls/${h.sid}/answer`);
    expect((await a.client.post(`${base()}/${placed.call_id}/hold`, { hold: true })).status).toBe(200);
    const held = (await handsetFor(a, '+13125550146')) as Handset;
    expect(held.on_hold).toBe(true);
    expect(held.hold_music_url).toMatch(/\/files\/.+\?/);
    // Signed: fetched without a session, like the carrier's <Play> does.
    const audio = await fetch(held.hold_music_url!);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toMatch(/audio/);
    expect((await a.client.post(`${base()}/${placed.call_id}/hold`, { hold: false })).status).toBe(200);
    expect(await handsetFor(a, '+13125550146')).toMatchObject({ on_hold: false, hold_music_url: null });
    await a.client.post(`${base()}/${placed.call_id}/hangup`);
  }, 30_000);

  it('a blind transfer to a user rings them in the app; they answer, the call is theirs, and their hang-up ends it', async () => {
    const placed = await place(a, n1.id, '+13125550147');
    const h = await handsetFor(a, '+13125550147');
    await a.client.post(`/api/simulator/handset-calls/${h.sid}/answer`);
    // Not yourself.
    const self = await a.client.post(`${base()}/${placed.call_id}/transfer`, { user_id: a.userId });
    expect(self.status).toBe(422);
    expect(self.body.errors.user_id[0]).toBe('You are already on this call.');
    const t = await a.client.post(`${base()}/${placed.call_id}/transfer`, { user_id: b.userId });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body).toMatchObject({ message: 'Call transferred', data: { call_id: placed.call_id, transferred_to: `user_${b.userId}` } });
    const moved = (await a.client.get('/api/simulator/handset-calls')).body.data.find((x: Handset) => x.sid === h.sid);
    expect(moved).toMatchObject({ state: 'answered', transferred_to: `client:user_${b.userId}` });
    // Bob is rung like an inbound call; Alice is not.
    const inApp = `/api/companies/${a.companyId}/in-app-calling/calls/${placed.call_id}`;
    expect((await b.client.get(`${inApp}/can-answer-call`)).body).toEqual({ canAnswer: true });
    expect((await a.client.get(`${inApp}/can-answer-call`)).body).toMatchObject({ canAnswer: false, reason: 'not_rung' });
    const answered = await b.client.post(`${inApp}/answer`);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect((await b.client.post(`${inApp}/answer`)).status).toBe(409);
    const connected = await a.client.get(`/api/calls/${placed.call_id}`);
    expect(connected.body).toMatchObject({ status: 12, forwarded_to: `user_${b.userId}` });
    // The call is Bob's to drive now (he answered it).
    expect((await b.client.post(`${base()}/${placed.call_id}/mute`, { muted: true })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await b.client.post(`${inApp}/hangup`)).status).toBe(200);
    const call = await eventually(async () => {
      const c = await a.client.get(`/api/calls/${placed.call_id}`);
      if (!c.body.ended_at) throw new Error('still talking');
      return c.body;
    }, 15_000);
    expect(call).toMatchObject({ status: 12, forwarded_to: `user_${b.userId}` });
    expect((await a.client.get('/api/simulator/handset-calls')).body.data.find((x: Handset) => x.sid === h.sid).state).toBe('ended');
    const events = await s.ctx.db.selectFrom('call_events').select('detail').where('call_id', '=', placed.call_id).execute();
    expect(events.map((e) => e.detail)).toContainEqual(expect.objectContaining({ control: 'transfer', to_user: b.userId, by: a.userId }));
  }, 60_000);

  it('a transfer the user declines ends the call at once (the handset hangs up); it stays answered', async () => {
    const placed = await place(a, n1.id, '+13125550149');
    const h = await handsetFor(a, '+13125550149');
    await a.client.post(`/api/simulator/handset-calls/${h.sid}/answer`);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await a.client.post(`${base()}/${placed.call_id}/transfer`, { user_id: b.userId })).status).toBe(200);
    const inApp = `/api/companies/${a.companyId}/in-app-calling/calls/${placed.call_id}`;
    const ring = await s.ctx.db.selectFrom('in_app_calls').select('join_token').where('call_id', '=', placed.call_id).executeTakeFirstOrThrow();
    expect((await b.client.post(`${inApp}/reject`, { joinToken: ring.join_token })).status).toBe(200);
    const call = await eventually(async () => {
      const c = await a.client.get(`/api/calls/${placed.call_id}`);
      if (!c.body.ended_at) throw new Error('still going');
      return c.body;
    }, 15_000);
    expect(call).toMatchObject({ status: 12, forwarded_to: '+13125550149' });
    expect(call.answered_at).toBeTruthy();
    expect((await a.client.get('/api/simulator/handset-calls')).body.data.find((x: Handset) => x.sid === h.sid).state).toBe('ended');
  }, 60_000);

  it('lines said on the handset and for the agent make a two-speaker transcript of the outbound call', async () => {
    const placed = await place(a, n2.id, '+13125550148');
    const h = await handsetFor(a, '+13125550148');
    const say = (who: Account, sid: string, body: unknown) => who.client.post(`/api/simulator/handset-calls/${sid}/say`, body);
    // Not talking yet: 409; bad input: 422; another company's call: 404.
    expect((await say(a, h.sid, { speaker: 'caller', text: 'Hello?' })).status).toBe(409);
    await a.client.post(`/api/simulator/handset-calls/${h.sid}/answer`);
    expect((await say(a, h.sid, { speaker: 'robot', text: 'Hi' })).status).toBe(422);
    expect((await say(a, h.sid, { speaker: 'caller', text: '  ' })).status).toBe(422);
    expect((await say(outsider, h.sid, { speaker: 'caller', text: 'Hello?' })).status).toBe(404);
    const first = await say(a, h.sid, { speaker: 'caller', text: 'Hello, this is Dana speaking.' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.lines).toEqual([{ speaker: 'caller', text: 'Hello, this is Dana speaking.', at: expect.any(Number) }]);
    expect((await say(a, h.sid, { speaker: 'agent', text: 'Hi Dana, I am calling about your plumbing quote.' })).status).toBe(200);
    expect((await say(a, h.sid, { speaker: 'caller', text: 'Great, the leak is in the kitchen.' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await a.client.post(`/api/simulator/handset-calls/${h.sid}/hangup`)).status).toBe(200);
    const detail = await eventually(async () => {
      const c = await a.client.get(`/api/calls/${placed.call_id}?include=transcription`);
      if (c.body.transcription?.state !== 'complete') throw new Error(JSON.stringify(c.body.transcription ?? c.body.recording));
      return c.body;
    }, 45_000);
    const segments = detail.transcription.segments as Array<{ channel: number; speaker: number; transcript: string; start: number }>;
    expect(segments.map((x) => [x.speaker, x.channel, x.transcript])).toEqual([
      [2, 1, 'Hello, this is Dana speaking.'],
      [1, 0, 'Hi Dana, I am calling about your plumbing quote.'],
      [2, 1, 'Great, the leak is in the kitchen.'],
    ]);
    expect(segments[1]!.start).toBeGreaterThan(segments[0]!.start);
    expect(detail.transcription.statistics.agent).toBeGreaterThan(0);
    expect(detail.transcription.statistics.client).toBeGreaterThan(0);
    // The call is over: no more lines.
    expect((await say(a, h.sid, { speaker: 'caller', text: 'Bye' })).status).toBe(409);
  }, 90_000);
});
