/**
 * Hold on Twilio for calls placed from the browser, through the real server (docs/calling.md
 * "Twilio"): the server runs with the Twilio adapter pointed at a local stand-in for Twilio's REST
 * API (carriers/twilio/twilio.test-helpers.ts), and the test posts Twilio-signed webhooks as Twilio
 * would. Checked: the REST requests made (the dialed party moved into its queue, the browser leg
 * redirected to dial the queue, both legs completed on hang-up), the TwiML answered (the Dial
 * action while held, the waiting loop, the queue music, the resumed Dial) and the call's end state
 * after a resume, after a hang-up while held, and after the held party hangs up; transfer while
 * held is refused with a clear message; a browser gone while held (no more loops) ends the call.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import type { CarrierPort } from '../../carriers/carrier.port.js';
import { TwilioCarrier } from '../../carriers/twilio/twilio.carrier.js';
import { TwilioRestStandIn } from '../../carriers/twilio/twilio.test-helpers.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { checkHeldBrowserLeg } from './browser-calls.js';

let s: TestServer;
let a: Account;
let n1: { id: number; number: string };
let n2: { id: number; number: string };
let sandbox: CarrierPort;
const rest = new TwilioRestStandIn();

const base = () => `/api/companies/${a.companyId}/outbound-calls`;
const sidOf = (c: string) => 'CA' + c.repeat(32);

/** The path and query of a URL in TwiML (`&amp;` decoded), for posting Twilio's next request to it. */
function pathOf(url: string): string {
  const u = new URL(url.replace(/&amp;/g, '&'));
  return u.pathname + u.search;
}

/**
 * A call placed from the dialer (token from the sandbox, which issues softphone tokens in tests),
 * connected as Twilio would (`voice.client`, browser leg `browser`), the callee's leg `child`
 * answered: both in progress at the REST stand-in.
 */
async function connected(numberId: number, to: string, browser: string, child: string): Promise<number> {
  s.ctx.carrier = sandbox;
  const r = await a.client.post(base(), { caller_id: numberId, to });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  s.ctx.carrier = twilioCarrier;
  const c = await postWebhook(s, '/webhooks/twilio/voice/client', {
    CallSid: browser,
    From: `client:user_${a.userId}`,
    To: to,
    call_id: String(r.body.call_id),
    CallStatus: 'in-progress',
  });
  expect(c.body).toContain(`<Dial action="${s.ctx.config.publicUrl}/webhooks/twilio/voice/client/dial?call=${r.body.call_id}"`);
  rest.addCall(browser);
  rest.addCall(child, browser);
  return r.body.call_id as number;
}

/** Holds the call and plays Twilio's part: the browser's Dial ends (its action) as the party is enqueued. */
async function hold(callId: number, browser: string, talkS: number): Promise<{ enqueue: string; held: string }> {
  const from = rest.requests.length;
  const h = await a.client.post(`${base()}/${callId}/hold`, { hold: true });
  expect(h.status, JSON.stringify(h.body)).toBe(200);
  expect(h.body.data.on_hold).toBe(true);
  const enqueue = rest.since(from).find((q) => q.method === 'POST')!.form.Twiml!;
  const action = await postWebhook(s, `/webhooks/twilio/voice/client/dial?call=${callId}`, {
    CallSid: browser,
    CallStatus: 'in-progress',
    DialCallStatus: 'completed',
    DialCallDuration: String(talkS),
  });
  expect(action.status).toBe(200);
  return { enqueue, held: action.body };
}

let twilioCarrier: TwilioCarrier;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Alice' });
  n1 = await buyTestNumber(a, '415', 7);
  n2 = await buyTestNumber(a, '415', 8);
  expect((await a.client.post(`/api/companies/${a.companyId}/in-app-calling/status`, { status: 'active' })).status).toBe(200);
  sandbox = s.ctx.carrier;
  twilioCarrier = new TwilioCarrier({ ...s.ctx.config, twilioAccountSid: 'AC' + '0'.repeat(32) }, { httpClient: rest.httpClient });
}, 60_000);

afterAll(async () => {
  if (sandbox) s.ctx.carrier = sandbox;
  await s?.close();
});

describe('hold on Twilio (queue based)', () => {
  it('holds: the party waits in its queue, the browser leg waits quietly; resume bridges them; the end is 12 Connected with talk and hold time', async () => {
    const browser = sidOf('a');
    const child = sidOf('b');
    const callId = await connected(n1.id, '+13125550161', browser, child);
    const { enqueue, held } = await hold(callId, browser, 20);
    // The callee's leg went into the call's own queue (no on-hold greeting: Twilio's default music).
    expect(enqueue).toMatch(
      new RegExp(`<Enqueue action="[^"]+/webhooks/twilio/voice/client/hold\\?sid=${browser}&amp;step=left&amp;n=\\d+" method="POST">hold-${browser}</Enqueue>`),
    );
    expect(rest.queues.size).toBe(1);
    // The browser's Dial action while held keeps the browser leg: a pause and a redirect, not a hang-up.
    expect(held).toMatch(
      /<Response><Pause length="30"\/><Redirect method="POST">[^<]+\/webhooks\/twilio\/voice\/client\/hold\?sid=CAa+&amp;step=loop&amp;n=\d+<\/Redirect><\/Response>$/,
    );
    let call = (await a.client.get(`/api/calls/${callId}`)).body;
    expect(call.ended_at ?? null).toBeNull();
    // The loop goes on while held.
    const loopUrl = /<Redirect method="POST">([^<]+)<\/Redirect>/.exec(held)![1]!;
    const loop = await postWebhook(s, pathOf(loopUrl), { CallSid: browser, CallStatus: 'in-progress' });
    expect(loop.body).toMatch(/<Pause length="30"\/><Redirect method="POST">[^<]+step=loop&amp;n=\d+<\/Redirect>/);
    expect(loop.body).not.toBe(held);
    // The queue's wait TwiML (when a greeting plays) without a greeting: a pause, then again.
    const wait = await postWebhook(s, `/webhooks/twilio/voice/client/hold?sid=${browser}&step=wait&n=1`, { CallSid: child, CallStatus: 'in-progress' });
    expect(wait.body).toMatch(/<Pause length="10"\/><Redirect method="POST">[^<]+step=wait&amp;n=2<\/Redirect>/);
    // Holding again changes nothing; transfer while held is refused.
    const before = rest.requests.length;
    expect((await a.client.post(`${base()}/${callId}/hold`, { hold: true })).status).toBe(200);
    expect(rest.requests.length).toBe(before);
    const transfer = await a.client.post(`${base()}/${callId}/transfer`, { number: '+16465550123' });
    expect(transfer.status).toBe(409);
    expect(transfer.body.message).toBe('Take the call off hold before transferring it.');

    // Resume: the browser leg dials the queue.
    const r = await a.client.post(`${base()}/${callId}/hold`, { hold: false });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.on_hold).toBe(false);
    const resume = rest.requests.at(-1)!;
    expect(resume).toMatchObject({ method: 'POST', path: `/Calls/${browser}.json` });
    expect(resume.form.Twiml).toMatch(new RegExp(`<Dial action="([^"]+step=dial[^"]+)" method="POST" timeout="5"><Queue>hold-${browser}</Queue></Dial>`));
    expect(rest.queues.values().next().value!.members).toEqual([]);
    // The loop, if it comes once more, hangs up its old document (the browser now follows the resume).
    expect((await postWebhook(s, pathOf(loopUrl.replace(/n=(\d+)/, 'n=99')), { CallSid: browser, CallStatus: 'in-progress' })).body).toContain('<Hangup/>');
    // The dequeued party's queue action after the bridge (still in progress): nothing ends.
    const leftUrl = /action="([^"]+)"/.exec(enqueue)![1]!;
    expect((await postWebhook(s, pathOf(leftUrl), { CallSid: child, CallStatus: 'in-progress' })).body).toContain('<Hangup/>');
    expect((await a.client.get(`/api/calls/${callId}`)).body.ended_at ?? null).toBeNull();

    // The resumed Dial ends (the party hangs up after 5 s more): 12 Connected, talk and hold time.
    const dialUrl = /<Dial action="([^"]+)"/.exec(resume.form.Twiml!)![1]!;
    const end = await postWebhook(s, pathOf(dialUrl), { CallSid: browser, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '5' });
    expect(end.body).toContain('<Hangup/>');
    call = (await a.client.get(`/api/calls/${callId}`)).body;
    expect(call).toMatchObject({ direction: 'outbound', status: 12 });
    expect(call.duration_s).toBeGreaterThanOrEqual(20);
    const events = (await s.ctx.db.selectFrom('call_events').selectAll().where('call_id', '=', callId).orderBy('id').execute()).map(
      (e) => (e.detail as { control?: string }).control,
    );
    expect(events.filter(Boolean)).toEqual(['hold', 'resume']);
  }, 30_000);

  it('hang-up while held ends both legs, removes the queue and stores 12 Connected', async () => {
    const browser = sidOf('c');
    const child = sidOf('d');
    const callId = await connected(n1.id, '+13125550162', browser, child);
    const { enqueue } = await hold(callId, browser, 12);
    const from = rest.requests.length;
    const h = await a.client.post(`${base()}/${callId}/hangup`);
    expect(h.status).toBe(200);
    const made = rest.since(from).map((r) => `${r.method} ${r.path} ${r.form.Status ?? ''}`.trim());
    expect(made).toContain(`POST /Calls/${browser}.json completed`);
    expect(made).toContain(`POST /Calls/${child}.json completed`);
    expect(made.some((m) => m.startsWith('DELETE /Queues/'))).toBe(true);
    expect(rest.calls.get(child)!.status).toBe('completed');
    const call = (await a.client.get(`/api/calls/${callId}`)).body;
    expect(call).toMatchObject({ status: 12 });
    expect(call.ended_at).toBeTruthy();
    expect(call.duration_s).toBeGreaterThanOrEqual(12);
    // Twilio then reports the party leaving its queue: the call keeps its outcome.
    const leftUrl = /action="([^"]+)"/.exec(enqueue)![1]!;
    expect((await postWebhook(s, pathOf(leftUrl), { CallSid: child, CallStatus: 'completed' })).body).toContain('<Hangup/>');
    expect((await a.client.get(`/api/calls/${callId}`)).body).toMatchObject({ status: 12, duration_s: call.duration_s });
  }, 30_000);

  it('the held party hanging up ends the call (12 Connected) and the browser leg', async () => {
    const browser = sidOf('e');
    const child = sidOf('f');
    const callId = await connected(n2.id, '+13125550163', browser, child);
    const { enqueue, held } = await hold(callId, browser, 8);
    const leftUrl = /action="([^"]+)"/.exec(enqueue)![1]!;
    const left = await postWebhook(s, pathOf(leftUrl), { CallSid: child, CallStatus: 'completed' });
    expect(left.status).toBe(200);
    const call = (await a.client.get(`/api/calls/${callId}`)).body;
    expect(call).toMatchObject({ status: 12 });
    expect(call.duration_s).toBeGreaterThanOrEqual(8);
    // After commit the browser leg is completed through REST.
    await eventually(async () => rest.calls.get(browser)!.status === 'completed');
    // The browser leg's loop, had it come, would hang up.
    const loopUrl = /<Redirect method="POST">([^<]+)<\/Redirect>/.exec(held)![1]!;
    expect((await postWebhook(s, pathOf(loopUrl), { CallSid: browser, CallStatus: 'in-progress' })).body).toContain('<Hangup/>');
    // Hold is 409 once the call has ended.
    expect((await a.client.post(`${base()}/${callId}/hold`, { hold: false })).status).toBe(409);
  }, 30_000);

  it('hold answers 409 when the party has already left, and records nothing', async () => {
    const browser = sidOf('1');
    const child = sidOf('2');
    const callId = await connected(n2.id, '+13125550164', browser, child);
    rest.calls.get(child)!.status = 'completed';
    const h = await a.client.post(`${base()}/${callId}/hold`, { hold: true });
    expect(h.status).toBe(409);
    const events = await s.ctx.db.selectFrom('call_events').selectAll().where('call_id', '=', callId).execute();
    expect(events.some((e) => (e.detail as { control?: string }).control === 'hold')).toBe(false);
  }, 30_000);

  it("the held party hears the number's on-hold greeting through the wait TwiML, signed afresh on each loop", async () => {
    const f = new FormData();
    f.set('company_id', String(a.companyId));
    f.set('name', 'Hold please');
    f.set('content', 'Thanks for holding.');
    const g = await a.client.post('/api/greetings', f);
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    const routed = await a.client.put(`/api/numbers/${n2.id}`, {
      routes: [{ extension: 0, onhold_music_id: g.body.data.id, forwards: [{ number: '6465550101' }] }],
    });
    expect(routed.status, JSON.stringify(routed.body)).toBe(200);
    const browser = sidOf('3');
    const child = sidOf('4');
    const callId = await connected(n2.id, '+13125550165', browser, child);
    const { enqueue } = await hold(callId, browser, 3);
    const waitUrl = /waitUrl="([^"]+)"/.exec(enqueue)![1]!;
    expect(waitUrl).toContain(`/webhooks/twilio/voice/client/hold?sid=${browser}&amp;step=wait&amp;n=`);
    const wait = await postWebhook(s, pathOf(waitUrl), { CallSid: child, CallStatus: 'in-progress', QueueSid: 'QU1', QueuePosition: '1' });
    expect(wait.status).toBe(200);
    const play = /<Play>([^<]+)<\/Play><Redirect method="POST">([^<]+)<\/Redirect>/.exec(wait.body);
    expect(play, wait.body).not.toBeNull();
    const audio = await fetch(play![1]!.replace(/&amp;/g, '&'));
    expect(audio.status).toBe(200);
    // The next loop is a delivery of its own with a fresh answer.
    expect((await postWebhook(s, pathOf(play![2]!), { CallSid: child, CallStatus: 'in-progress' })).body).toContain('<Play>');
    // Once the call has ended, the queue's music stops.
    expect((await a.client.post(`${base()}/${callId}/hangup`)).status).toBe(200);
    expect((await postWebhook(s, pathOf(play![2]!), { CallSid: child, CallStatus: 'in-progress' })).body).toContain('<Hangup/>');
  }, 30_000);

  it('a browser that goes away while held (no more loops) ends the call and both legs', async () => {
    const browser = sidOf('5');
    const child = sidOf('6');
    const callId = await connected(n1.id, '+13125550166', browser, child);
    await hold(callId, browser, 4);
    // The browser leg's check is scheduled (pg-boss), 75 s on.
    const jobs = await sql<{ data: { callId: number } }>`select data from pgboss.job where name = 'calls.held-leg-check'`.execute(s.ctx.db);
    expect(jobs.rows.some((j) => j.data.callId === callId)).toBe(true);
    // Still looping: nothing happens.
    await checkHeldBrowserLeg(s.ctx, callId, new Date(Date.now() + 30_000));
    expect((await a.client.get(`/api/calls/${callId}`)).body.status).toBe(1);
    // No loop for 75 s: the call ends 12 Connected, the browser leg and the held party are completed.
    await checkHeldBrowserLeg(s.ctx, callId, new Date(Date.now() + 80_000));
    expect((await a.client.get(`/api/calls/${callId}`)).body).toMatchObject({ status: 12 });
    expect(rest.calls.get(browser)!.status).toBe('completed');
    expect(rest.calls.get(child)!.status).toBe('completed');
  }, 30_000);

  it("a resume that comes before Twilio's Dial result of the hold keeps the call; the resumed Dial ends it", async () => {
    const browser = sidOf('7');
    const child = sidOf('8');
    const callId = await connected(n2.id, '+13125550167', browser, child);
    expect((await a.client.post(`${base()}/${callId}/hold`, { hold: true })).status).toBe(200);
    expect((await a.client.post(`${base()}/${callId}/hold`, { hold: false })).status).toBe(200);
    const resume = rest.requests.at(-1)!;
    const late = await postWebhook(s, `/webhooks/twilio/voice/client/dial?call=${callId}`, {
      CallSid: browser,
      CallStatus: 'in-progress',
      DialCallStatus: 'completed',
      DialCallDuration: '6',
    });
    expect(late.body).not.toContain('<Hangup/>');
    expect((await a.client.get(`/api/calls/${callId}`)).body.status).toBe(1);
    const dialUrl = /<Dial action="([^"]+)"/.exec(resume.form.Twiml!)![1]!;
    await postWebhook(s, pathOf(dialUrl), { CallSid: browser, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '9' });
    const call = (await a.client.get(`/api/calls/${callId}`)).body;
    expect(call).toMatchObject({ status: 12 });
    expect(call.duration_s).toBeGreaterThanOrEqual(9);
  }, 30_000);

  it('a loop with no hold left (the hold was refused after its Dial ended) ends the call', async () => {
    const browser = sidOf('9');
    const child = sidOf('0');
    const callId = await connected(n1.id, '+13125550168', browser, child);
    const loop = await postWebhook(s, `/webhooks/twilio/voice/client/hold?sid=${browser}&step=loop&n=5`, { CallSid: browser, CallStatus: 'in-progress' });
    expect(loop.body).toContain('<Hangup/>');
    expect((await a.client.get(`/api/calls/${callId}`)).body.status).toBe(12);
  }, 30_000);
});
