/**
 * Issue 23 items 2-4 through the real server and the sandbox carrier (docs/calling.md "Who rings for an in-app
 * line", "Names of people in a call"; docs/transcription.md "Voicemails"; docs/call-intelligence.md "Search"):
 *
 * - a number assigned to an invited user who is away still rings the owner, who is active (not voicemail);
 * - a call answered in the browser on a number that records and transcribes is recorded in two channels and
 *   transcribed, like a forwarded call; the call detail names the answering person ("Alice Owner (app)"), not
 *   "user 1"; the Twilio dialect's TwiML of such a line carries `record="record-from-answer-dual"`;
 * - a voicemail's transcript is in the call detail (`voicemail_transcription`) and the Voicemail list, and found by
 *   transcript search; the backfill indexes voicemails transcribed before search took them.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { backfillVoicemailDocs } from '../call-intelligence/call-intelligence.indexing.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { transcriptionTuning } from '../transcription/transcription.jobs.js';

let s: TestServer;
let owner: Account;
let invitee: Account;
const sockets: Socket[] = [];

type Ev = { type: string; callId?: number };

const base = () => `/api/companies/${owner.companyId}/in-app-calling`;

/** The owner's `in-app calling` events on `user.{id}`. */
async function ownerEvents(): Promise<Ev[]> {
  const so = await connectSocket(s, owner.client);
  sockets.push(so);
  expect(await subscribe(so, `user.${owner.userId}`)).toEqual({ ok: true });
  const got: Ev[] = [];
  so.on('in-app calling', (e: Ev) => got.push(e));
  return got;
}

/** An in-app line assigned to the invitee (the spec's user `numbers`), recorded and transcribed when asked. */
async function inAppLine(areaCode: string, settings: Record<string, unknown> = {}) {
  const n = await buyTestNumber(owner, areaCode);
  const put = await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ type: 'in-app-calling', voicemail_enabled: true, timeout: 20 }], ...settings });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  expect((await owner.client.put(`/api/companies/${owner.companyId}/users/${invitee.userId}`, { numbers: [n.id] })).status).toBe(200);
  return n;
}

beforeAll(async () => {
  transcriptionTuning.retryDelayS = 0;
  s = await startTestServer();
  owner = await createAccount(s, { firstName: 'Alice', lastName: 'Owner' });
  invitee = await createAccount(s, { firstName: 'Ivan', lastName: 'Invitee' });
  await addCompanyMember(s.ctx, owner.companyId, invitee.userId, 'user');
  expect((await owner.client.post(`${base()}/status`, { status: 'active' })).status).toBe(200);
  // The invitee was active once (SIP provisioned), now away.
  expect((await invitee.client.post(`${base()}/status`, { status: 'active' })).status).toBe(200);
  expect((await invitee.client.post(`${base()}/status`, { status: 'away' })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  for (const so of sockets) so.close();
  await s?.close();
});

describe('who rings for an in-app line', () => {
  it('a line assigned to an away invitee rings the active owner, who answers; the caller does not reach voicemail', async () => {
    const events = await ownerEvents();
    const n = await inAppLine('415');
    const sim = owner.client.post('/api/simulator/calls', { from: '+13125550142', to: n.number, talk_seconds: 1 });
    const ring = await eventually(async () => events.find((e) => e.type === 'ringing'));
    expect((await owner.client.post(`${base()}/calls/${ring.callId}/answer`)).status).toBe(200);
    const done = await sim;
    expect(done.body.status).toBe('completed');
    const call = await owner.client.get(`/api/calls/${ring.callId}`);
    expect(call.body).toMatchObject({ status: 12, forwarded_to: `user_${owner.userId}`, voicemail: null });
  }, 60_000);
});

describe('a call answered in the browser', () => {
  it('is recorded and transcribed like a forwarded call, and names the person who answered', async () => {
    const events = await ownerEvents();
    const n = await inAppLine('212', { record: true, call_transcription_enabled: true });
    const script = [
      { speaker: 'caller', text: 'Hello, my boiler is leaking in the basement.' },
      { speaker: 'agent', text: 'We can send a plumber tomorrow morning.' },
    ];
    const sim = owner.client.post('/api/simulator/calls', { from: '+13125550143', to: n.number, talk_seconds: 1, script });
    const ring = await eventually(async () => events.find((e) => e.type === 'ringing'));
    expect((await owner.client.post(`${base()}/calls/${ring.callId}/answer`)).status).toBe(200);
    const done = await sim;
    expect(done.body.status, JSON.stringify(done.body.log)).toBe('completed');
    expect(done.body.log.some((l: { step: string }) => l.step === 'record')).toBe(true);
    // The Phone simulator's call log names the person too.
    expect(done.body.log.find((l: { step: string }) => l.step === 'connected').detail).toContain(
      `talking with Alice Owner (user_${owner.userId}) in the browser`,
    );

    const detail = await eventually(async () => {
      const d = await owner.client.get(`/api/calls/${ring.callId}?include=transcription`);
      return d.body.transcription?.state === 'complete' ? d.body : null;
    }, 30_000);
    expect(detail.recording).toMatchObject({ channels: 2 });
    expect(detail.transcription.segments.map((x: { speaker: number; transcript: string }) => [x.speaker, x.transcript])).toEqual([
      [2, script[0]!.text],
      [1, script[1]!.text],
    ]);
    // The person's name everywhere in the call detail, never "user 1".
    expect(detail.forwards).toEqual([expect.objectContaining({ number: `user_${owner.userId}`, name: 'Alice Owner', outcome: 'answered' })]);
    const texts = detail.history.map((h: { text: string }) => h.text).join('\n');
    expect(texts).toContain('Ringing Alice Owner (app)');
    expect(texts).toContain('Answered in the browser by Alice Owner.');
    expect(texts).not.toMatch(/user \d+/);
  }, 90_000);

  it('Twilio dialect: the in-app Dial of a recording number records both channels with the status callback', async () => {
    const n = await inAppLine('646', { record: true });
    const r = await postWebhook(s, '/webhooks/twilio/voice', {
      CallSid: 'CA' + 'e'.repeat(32),
      AccountSid: s.ctx.config.twilioAccountSid,
      From: '+13125550144',
      To: n.number,
      CallStatus: 'ringing',
      Direction: 'inbound',
    });
    expect(r.status).toBe(200);
    expect(r.body).toContain(`<Client>user_${owner.userId}</Client>`);
    expect(r.body).toMatch(/<Dial [^>]*record="record-from-answer-dual"/);
    expect(r.body).toMatch(/recordingStatusCallback="[^"]*\/webhooks\/twilio\/voice\/recorded"/);
  });
});

describe('voicemail transcripts', () => {
  it('are in the call detail and found by transcript search; the backfill indexes older ones', async () => {
    expect((await owner.client.post(`${base()}/status`, { status: 'away' })).status).toBe(200);
    try {
      const n = await inAppLine('305', { call_transcription_enabled: true });
      const words = 'Please call me back about the water heater warranty.';
      const sim = await owner.client.post('/api/simulator/calls', {
        from: '+13125550145',
        to: n.number,
        voicemail_seconds: 4,
        script: [{ speaker: 'caller', text: words }],
      });
      expect(sim.status, JSON.stringify(sim.body)).toBe(200);
      const call = await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', sim.body.sid).executeTakeFirstOrThrow();
      const callId = Number(call.id);

      const detail = await eventually(async () => {
        const d = await owner.client.get(`/api/calls/${callId}?include=transcription`);
        return d.body.voicemail_transcription?.state === 'complete' ? d.body : null;
      }, 30_000);
      expect(detail.status).toBe(4);
      expect(detail.transcription).toBeNull();
      expect(detail.voicemail_transcription).toMatchObject({ text: `Client: ${words}`, metadata: { source: 'voicemail' } });
      // The Voicemail list shows it too.
      const list = await owner.client.get(`/api/voicemails?company_id=${owner.companyId}`);
      expect(list.status).toBe(200);
      expect(list.body.data.find((v: { call_id: number }) => v.call_id === callId)).toMatchObject({
        transcript: { state: 'complete', text: `Client: ${words}` },
      });

      const search = async () => {
        const q = new URLSearchParams({ company_id: String(owner.companyId), q: '"water heater warranty"', speaker: 'client' });
        const res = await owner.client.get(`/api/calls/search?${q}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.data as Array<{ call_id: number; passages: Array<{ highlighted: string }> }>).find((h) => h.call_id === callId) ?? null;
      };
      const hit = await eventually(search, 30_000);
      expect(hit.passages[0]!.highlighted).toContain('<mark>water</mark> <mark>heater</mark> <mark>warranty</mark>');

      // "Ask about this call" answers from the voicemail's words.
      const asked = await owner.client.post(`/api/calls/${callId}/converse`, { message: 'Which warranty is the caller asking about?' });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect(asked.body.data.found).toBe(true);
      expect(asked.body.data.sources[0]).toMatchObject({ speaker: 2, text: words });

      // A voicemail transcribed before search took voicemails has no document: the backfill writes it.
      await s.ctx.db.deleteFrom('call_search_docs').where('call_id', '=', callId).execute();
      expect(await search()).toBeNull();
      expect(await backfillVoicemailDocs(s.ctx)).toBeGreaterThanOrEqual(1);
      expect(await search()).not.toBeNull();
      expect(await backfillVoicemailDocs(s.ctx)).toBe(0);
    } finally {
      await owner.client.post(`${base()}/status`, { status: 'active' });
    }
  }, 90_000);
});
