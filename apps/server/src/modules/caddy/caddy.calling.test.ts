/**
 * Calls in the browser from consumer numbers, live usage on the `caddy` channel and account deletion of recordings
 * (docs/consumer-area.md "Calls in the browser", "Live updates", "Account deletion"), through the real server and the
 * sandbox carrier:
 * - a call placed from a consumer number (the calls module's outbound call, connected by the sandbox softphone,
 *   answered and hung up by the outside handset) shows in that number's activity, moves the minutes on that
 *   account's socket only (another account's socket hears nothing), and another account cannot connect its token;
 * - an inbound call rings the account's screens (`call ringing`), is answered and hung up through the consumer routes;
 * - a socket without a consumer session (none, a business session's token) is refused, and sign-out closes it;
 * - deleting the account deletes its call recordings and voicemails with their audio: the file's signed URL answers 404.
 */
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, uniqueEmail, type Account } from '../../../test/fixtures.js';
import { ApiClient, eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { answerHandsetCall, handsetCallsRepository, hangupHandsetCall } from '../../carriers/sandbox/sandbox.handset-calls.js';
import { simulateCall, simulateMessage } from '../../carriers/sandbox/sandbox.simulator.js';
import { waitForBrowserAnswer, waitForBrowserHangup } from '../in-app-calling/in-app-calling.service.js';
import { waitForBrowserAnswerOfCall } from '../in-app-calling/outbound.service.js';
import { applyRoutingToNumbers, findRoutingById } from '../numbers/numbers.service.js';
import { caddyRepository } from './caddy.repository.js';

let s: TestServer;
let business: Account;
const sockets: Socket[] = [];

beforeAll(async () => {
  s = await startTestServer();
  business = await createAccount(s);
}, 120_000);

afterAll(async () => {
  for (const so of sockets) so.disconnect();
  await s?.close();
});

async function mailedCode(email: string): Promise<string> {
  return eventually(async () => {
    const [mail] = await s.ctx.mailer.outbox(1, email);
    return mail ? /\b(\d{6})\b/.exec(mail.subject)?.[1] : undefined;
  });
}

/** A new consumer with one number from the catalogue (area code `area`). */
async function consumerWithNumber(area: string) {
  const email = uniqueEmail('caddy-call');
  const client = new ApiClient(s.url);
  expect((await client.post('/api/caddy/auth/register', { provider: 'email', email, password: 'correct horse 42', name: 'Caller' })).status).toBe(202);
  const session = await client.post('/api/caddy/auth/register', { provider: 'email', email, code: await mailedCode(email) });
  client.bearer = session.body.data.token;
  const offer = await client.get(`/api/caddy/catalog?areaCode=${area}&limit=1`);
  const added = await client.post('/api/caddy/catalog/add', { number: offer.body.data[0].number });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return { client, accountId: session.body.data.accountId as number, number: added.body.data as { id: number; number: string } };
}

type Heard = Array<{ event: string; payload: any; channel: string }>;
/** A socket of the consumer namespace with `token`; collects every event it hears. */
function consumerSocket(token: string | undefined): { socket: Socket; heard: Heard; connected: Promise<boolean> } {
  const socket = io(`${s.url}/caddy`, { path: '/socket.io', transports: ['websocket'], auth: token ? { token } : {}, reconnection: false, forceNew: true });
  sockets.push(socket);
  const heard: Heard = [];
  socket.onAny((event: string, payload: unknown, channel: string) => heard.push({ event, payload, channel }));
  const connected = new Promise<boolean>((resolve) => {
    socket.on('connect', () => resolve(true));
    socket.on('connect_error', () => resolve(false));
  });
  return { socket, heard, connected };
}

const legs = (ctx: TestServer['ctx']) => ({
  waitForAnswer: (sid: string, ms: number) => waitForBrowserAnswer(ctx, sid, ms),
  waitForHangup: (callId: number, ms: number) => waitForBrowserHangup(ctx, callId, ms),
  waitForCallAnswer: (callId: number, ms: number) => waitForBrowserAnswerOfCall(ctx, callId, ms),
});

describe('consumer calls in the browser, live usage on the caddy channel, deletion of recordings', () => {
  it('places a call from a consumer number in the sandbox: activity, minutes live on that account only; inbound rings and is answered', async () => {
    const a = await consumerWithNumber('312');
    const b = await consumerWithNumber('415');
    // Sockets: none without a consumer session; each account hears only its own channel.
    expect(await consumerSocket(undefined).connected).toBe(false);
    expect(await consumerSocket('not-a-token').connected).toBe(false);
    expect(await consumerSocket(business.client.bearer ?? 'business-cookie-session').connected).toBe(false);
    const sa = consumerSocket(a.client.bearer);
    const sb = consumerSocket(b.client.bearer);
    expect(await sa.connected).toBe(true);
    expect(await sb.connected).toBe(true);
    await eventually(async () => (sa.heard.some((h) => h.event === 'usage updated') ? true : undefined));
    await eventually(async () => (sb.heard.some((h) => h.event === 'usage updated') ? true : undefined));
    expect(sa.heard[0]).toMatchObject({ channel: `caddy.${a.accountId}`, payload: { minutesUsed: 0 } });
    const bHeardBefore = sb.heard.length;

    // Ready: a softphone identity, and the number rings in the app.
    const ready = await a.client.get('/api/caddy/calling');
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body.data).toMatchObject({ carrier: 'sandbox', identity: expect.stringMatching(/^user_\d+$/) });
    const numberRow = (await caddyRepository.listNumbers(s.ctx.db, a.accountId))[0]!;
    expect((await findRoutingById(s.ctx, numberRow.number_id))!.routes[0]).toMatchObject({ type: 'in-app-calling', voicemail_enabled: true });

    // Placing: validation, another account's number, then the call.
    expect((await a.client.post(`/api/caddy/numbers/${a.number.id}/calls`, { to: 'nope' })).status).toBe(422);
    expect((await b.client.post(`/api/caddy/numbers/${a.number.id}/calls`, { to: '+14155550177' })).status).toBe(404);
    const placed = await a.client.post(`/api/caddy/numbers/${a.number.id}/calls`, { to: '+14155550177' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.data).toMatchObject({ carrier: 'sandbox', from: a.number.number, to: '+14155550177' });
    const callId = placed.body.data.callId as number;
    // Only the account's own calling user connects the token.
    expect((await b.client.post('/api/caddy/calls/connect', { token: placed.body.data.token })).status).toBe(422);
    expect((await b.client.post(`/api/caddy/calls/${callId}/hangup`, {})).status).toBe(404);
    const connected = await a.client.post('/api/caddy/calls/connect', { token: placed.body.data.token });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    // The outside handset rings with the consumer's number; it answers, talks a moment and hangs up.
    const leg = await eventually(async () => handsetCallsRepository.findLiveByParent(s.ctx.db, connected.body.data.sid));
    expect(leg.from_number).toBe(a.number.number);
    await answerHandsetCall(s.ctx, leg.sid);
    await new Promise((r) => setTimeout(r, 1200));
    await hangupHandsetCall(s.ctx, leg.sid);

    // Live on A's channel: the call ended answered, then the minute counted.
    const ended = await eventually(async () => sa.heard.find((h) => h.event === 'call updated' && h.payload.callId === callId && h.payload.endedAt));
    expect(ended.payload).toMatchObject({ numberId: a.number.id, direction: 'outbound', answered: true, otherParty: '+14155550177' });
    const minutes = await eventually(async () => sa.heard.find((h) => h.event === 'usage updated' && h.payload.minutesUsed >= 1));
    expect(minutes.channel).toBe(`caddy.${a.accountId}`);
    // The number's activity shows the call.
    const activity = await eventually(async () => {
      const r = await a.client.get(`/api/caddy/numbers/${a.number.id}/activity`);
      return r.body.data.find((i: { kind: string }) => i.kind === 'call');
    });
    expect(activity).toMatchObject({ kind: 'call', direction: 'outbound', otherParty: '+14155550177' });

    // A text to A moves A's texts live, on A's socket only.
    await simulateMessage(s.ctx, { from: '+14155550178', to: a.number.number, body: 'Call me back' });
    await eventually(async () => sa.heard.find((h) => h.event === 'usage updated' && h.payload.textsIn === 1));

    // Inbound: the call rings A's screens; A answers and hangs up through the consumer routes.
    const inbound = simulateCall(s.ctx, { from: '+14155550179', to: a.number.number, talk_seconds: 30 }, legs(s.ctx));
    const ring = await eventually(async () => sa.heard.find((h) => h.event === 'call ringing'));
    expect(ring.payload).toMatchObject({ numberId: a.number.id, from: '+14155550179', to: a.number.number });
    expect((await b.client.post(`/api/caddy/calls/${ring.payload.callId}/answer`, {})).status).toBe(404);
    const answered = await a.client.post(`/api/caddy/calls/${ring.payload.callId}/answer`, {});
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect((await a.client.post(`/api/caddy/calls/${ring.payload.callId}/hangup`, {})).status).toBe(200);
    expect((await inbound)?.status).toBe('completed');
    await eventually(async () => sa.heard.find((h) => h.event === 'call updated' && h.payload.callId === ring.payload.callId && h.payload.endedAt));

    // B heard nothing of A's calls, texts or usage.
    expect(sb.heard.slice(bHeardBefore)).toEqual([]);
    expect(sb.heard.every((h) => h.channel === `caddy.${b.accountId}`)).toBe(true);

    // Sign-out closes the socket of that session.
    const closed = new Promise<void>((resolve) => sb.socket.on('disconnect', () => resolve()));
    expect((await b.client.post('/api/caddy/auth/logout', {})).status).toBe(200);
    await closed;
  }, 90_000);

  it('deleting the account deletes its call recordings and voicemails with their audio (the URLs answer 404)', async () => {
    const a = await consumerWithNumber('212');
    await a.client.get('/api/caddy/calling');
    const account = (await caddyRepository.findAccount(s.ctx.db, a.accountId))!;
    const numberRow = (await caddyRepository.listNumbers(s.ctx.db, a.accountId))[0]!;
    const routing = (await findRoutingById(s.ctx, numberRow.number_id))!;
    await applyRoutingToNumbers(s.ctx, null, account.company_id, [numberRow.number_id], { routes: routing.routes, schedule: routing.schedule, record: true });

    // A recorded call placed from the number, answered by the handset.
    const placed = await a.client.post(`/api/caddy/numbers/${a.number.id}/calls`, { to: '+14155550180' });
    const connected = await a.client.post('/api/caddy/calls/connect', { token: placed.body.data.token });
    const leg = await eventually(async () => handsetCallsRepository.findLiveByParent(s.ctx.db, connected.body.data.sid));
    await answerHandsetCall(s.ctx, leg.sid);
    await new Promise((r) => setTimeout(r, 1200));
    await hangupHandsetCall(s.ctx, leg.sid);
    const recording = await eventually(async () => {
      const r = await s.ctx.db.selectFrom('call_recordings').selectAll().where('company_id', '=', account.company_id).executeTakeFirst();
      return r?.state === 'stored' && r.blob_key ? r : undefined;
    }, 30_000);
    // A voicemail: an inbound call declined in the screens.
    const sa = consumerSocket(a.client.bearer);
    expect(await sa.connected).toBe(true);
    const inbound = simulateCall(s.ctx, { from: '+14155550181', to: a.number.number, voicemail_seconds: 2 }, legs(s.ctx));
    const ring = await eventually(async () => sa.heard.find((h) => h.event === 'call ringing'));
    expect((await a.client.post(`/api/caddy/calls/${ring.payload.callId}/reject`, { joinToken: ring.payload.joinToken })).status).toBe(200);
    await inbound;
    const voicemail = await eventually(async () => {
      const v = await s.ctx.db.selectFrom('voicemails').selectAll().where('company_id', '=', account.company_id).executeTakeFirst();
      // Copied into the blob store under the company's key (job calls.fetch-recording).
      const key = v ? s.ctx.blobs.keyOf(v.recording_url) : null;
      return key && key.includes(`/${account.company_id}/`) ? v : undefined;
    }, 30_000);

    const urls = [recording.blob_key!, s.ctx.blobs.keyOf(voicemail.recording_url)!].map((key) => {
      const u = new URL(s.ctx.blobs.signedUrl(key, 60_000));
      return `${s.url}${u.pathname}${u.search}`;
    });
    for (const url of urls) expect((await fetch(url)).status).toBe(200);

    const del = await a.client.delete('/api/caddy/accounts');
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    for (const url of urls) expect((await fetch(url)).status, url).toBe(404);
    expect(await s.ctx.blobs.get(recording.blob_key!)).toBeNull();
    expect(await s.ctx.db.selectFrom('call_recordings').select('id').where('company_id', '=', account.company_id).execute()).toEqual([]);
    expect(await s.ctx.db.selectFrom('voicemails').select('id').where('company_id', '=', account.company_id).execute()).toEqual([]);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select('changes')
      .where('company_id', '=', account.company_id)
      .where('action', '=', 'caddy.account.deleted')
      .executeTakeFirstOrThrow();
    expect(audit.changes).toMatchObject({ recordingsDeleted: 1, voicemailsDeleted: 1 });
  }, 90_000);
});
