/**
 * Voice webhooks through the real server: Twilio-signed form posts (signatures made with the
 * `twilio` package), TwiML parsed back, stored rows asserted.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { storeInboundCall } from './call-batching.js';
import { planInboundCall } from './call-flow.js';
import { listCallActivity } from './call-records.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, isArray: (name) => ['Number', 'Say'].includes(name) });
const twiml = (body: string) => xml.parse(body).Response as Record<string, any>;
const sid = () => 'CA' + crypto.randomBytes(16).toString('hex');
const CALLER = '+13125550142';

let s: TestServer;
let owner: Account;

async function buyNumber(account: Account, areaCode = '212') {
  const found = await account.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}&limit=5`);
  expect(found.status).toBe(200);
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const r = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(r.status).toBe(201);
  return r.body as { id: number; number: string };
}

async function setRoutes(account: Account, id: number, body: Record<string, unknown>) {
  const r = await account.client.put(`/api/numbers/${id}`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

const db = () => s.ctx.db;
const callRow = (callSid: string) => db().selectFrom('calls').selectAll().where('carrier_sid', '=', callSid).executeTakeFirst();

function start(to: string, callSid: string, from = CALLER) {
  return postWebhook(s, '/webhooks/twilio/voice', {
    CallSid: callSid,
    AccountSid: s.ctx.config.twilioAccountSid,
    From: from,
    To: to,
    CallStatus: 'ringing',
    Direction: 'inbound',
    FromState: 'IL',
  });
}

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

describe('voice webhooks', () => {
  it('answers 403 to a missing or wrong signature and stores nothing', async () => {
    const n = await buyNumber(owner);
    const callSid = sid();
    const missing = await fetch(`${s.url}/webhooks/twilio/voice`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ CallSid: callSid, From: CALLER, To: n.number }),
    });
    expect(missing.status).toBe(403);
    const wrong = await postWebhook(s, '/webhooks/twilio/voice', { CallSid: callSid, From: CALLER, To: n.number }, { token: 'not-the-token' });
    expect(wrong.status).toBe(403);
    expect(await callRow(callSid)).toBeUndefined();
  });

  it('handles a duplicate delivery once, with identical TwiML', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ extension: 1, forwards: [{ number: '(646) 555-0101' }] }] });
    const callSid = sid();
    const a = await start(n.number, callSid);
    const b = await start(n.number, callSid);
    expect(a.status).toBe(200);
    expect(b.body).toBe(a.body);
    const dial = twiml(a.body).Dial;
    expect(dial.Number[0]['#text'] ?? dial.Number[0]).toBe('+16465550101');
    expect(dial.timeout).toBe('20');
    const rows = await db().selectFrom('calls').selectAll().where('carrier_sid', '=', callSid).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe(1);
    expect(rows[0]!.from_state).toBe('IL');
  });

  it('handles concurrent duplicate deliveries once: one call, one set of events, identical TwiML', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ extension: 1, forwards: [{ number: '(646) 555-0101' }] }] });
    const callSid = sid();
    const answers = await Promise.all(Array.from({ length: 5 }, () => start(n.number, callSid)));
    for (const r of answers) {
      expect(r.status).toBe(200);
      expect(r.body).toBe(answers[0]!.body);
    }
    expect(twiml(answers[0]!.body).Dial).toBeDefined();
    const rows = await db().selectFrom('calls').selectAll().where('carrier_sid', '=', callSid).execute();
    expect(rows).toHaveLength(1);
    const events = await db().selectFrom('call_events').select(['status', 'detail']).where('call_id', '=', rows[0]!.id).orderBy('id').execute();
    expect(events.map((e) => e.status)).toEqual([1, 1]);
    expect((events[0]!.detail as Record<string, unknown>).from).toBe(CALLER);
    expect((events[1]!.detail as Record<string, unknown>).dialing).toEqual(['+16465550101']);
    const receipt = await db().selectFrom('webhook_receipts').selectAll().where('key', '=', `voice:${callSid}:start`).execute();
    expect(receipt).toHaveLength(1);
    expect(receipt[0]!.status_code).toBe(200);
    expect(receipt[0]!.body).toBe(answers[0]!.body);
  });

  it('stores a burst of new calls by group commit: each call, its events and receipt once; repeats in the burst answer the same TwiML', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ extension: 1, forwards: [{ number: '(646) 555-0101' }] }] });
    const sids = Array.from({ length: 12 }, () => sid());
    const answers = await Promise.all(
      sids.flatMap((callSid, i) => [start(n.number, callSid, `+1312555${String(7000 + i)}`), start(n.number, callSid, `+1312555${String(7000 + i)}`)]),
    );
    for (const [i, r] of answers.entries()) {
      expect(r.status).toBe(200);
      expect(r.body).toBe(answers[i - (i % 2)]!.body);
    }
    const rows = await db().selectFrom('calls').select(['id', 'carrier_sid', 'from_number', 'status']).where('carrier_sid', 'in', sids).execute();
    expect(rows.map((r) => r.carrier_sid).sort()).toEqual([...sids].sort());
    for (const [i, callSid] of sids.entries()) expect(rows.find((r) => r.carrier_sid === callSid)!.from_number).toBe(`+1312555${7000 + i}`);
    const events = await db()
      .selectFrom('call_events')
      .select(['call_id', 'status'])
      .where(
        'call_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    for (const r of rows) expect(events.filter((e) => e.call_id === r.id).map((e) => e.status)).toEqual([1, 1]);
    const receipts = await db()
      .selectFrom('webhook_receipts')
      .select(['key', 'body'])
      .where(
        'key',
        'in',
        sids.map((x) => `voice:${x}:start`),
      )
      .execute();
    expect(receipts).toHaveLength(12);
    // The inbox thread follows (coalesced after the answers): one call item per call.
    await eventually(
      async () =>
        (
          await db()
            .selectFrom('conversation_items')
            .select('id')
            .where(
              'call_id',
              'in',
              rows.map((r) => r.id),
            )
            .execute()
        ).length === 12,
    );
  });

  it("links a new call to the company's contact with the caller's number (oldest), on both paths, never another company's", async () => {
    const other = await createAccount(s);
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ extension: 1, forwards: [{ number: '(646) 555-0101' }] }] });
    const rr = await buyNumber(owner, '312');
    await setRoutes(owner, rr.id, {
      routes: [{ extension: 1, round_robin: 'round_robin', type: 'sequential', forwards: [{ number: '(646) 555-0101' }, { number: '(646) 555-0102' }] }],
    });
    const add = (companyId: number, name: string, number: string) =>
      db()
        .insertInto('contacts')
        .values({ company_id: companyId, name, number })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    await add(other.companyId, 'Theirs', '+13125557101'); // same number in another company: never matched
    const oldest = await add(owner.companyId, 'Known caller', '+13125557101');
    await add(owner.companyId, 'Same number, newer', '+13125557101');
    await add(other.companyId, 'Only theirs', '+13125557102');

    const known = sid(),
      onlyTheirs = sid(),
      viaTransaction = sid();
    await Promise.all([start(n.number, known, '+13125557101'), start(n.number, onlyTheirs, '+13125557102'), start(rr.number, viaTransaction, '+13125557101')]);
    expect((await callRow(known))?.contact_id).toBe(oldest);
    expect((await callRow(onlyTheirs))?.contact_id).toBeNull();
    expect((await callRow(viaTransaction))?.contact_id).toBe(oldest); // round robin: the transactional path
    const item = await eventually(async () =>
      db()
        .selectFrom('conversation_items')
        .innerJoin('conversations', 'conversations.id', 'conversation_items.conversation_id')
        .select(['conversations.contact_id'])
        .where('conversation_items.call_id', '=', (await callRow(known))!.id)
        .executeTakeFirst(),
    );
    expect(item.contact_id).toBe(oldest);
  });

  it('one group-commit statement: a key twice in a batch, an already stored key and a stored SID without receipt each behave as alone', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ extension: 1, forwards: [{ number: '(646) 555-0101' }] }] });
    const [fresh, twice, stored, orphan] = [sid(), sid(), sid(), sid()];
    await start(n.number, stored);
    await start(n.number, orphan);
    await db().deleteFrom('webhook_receipts').where('key', '=', `voice:${orphan}:start`).execute();
    const params = (callSid: string) => ({ CallSid: callSid, From: CALLER, To: n.number, FromState: 'IL' });
    const plans = await Promise.all([fresh, twice, twice, stored, orphan].map((x) => planInboundCall(s.ctx, s.ctx.carrier.parseVoice(params(x)))));
    const receipt = (callSid: string) => ({
      key: `voice:${callSid}:start`,
      status_code: 200,
      content_type: 'text/xml',
      body: `<Response>${callSid}</Response>`,
    });
    // Submitted in the same tick: one batch, one statement.
    const out = await Promise.all([fresh, twice, twice, stored, orphan].map((x, i) => storeInboundCall(s.ctx, plans[i]!, receipt(x))));
    expect(out[0]!.call.carrier_sid).toBe(fresh);
    expect(out[1]!.call.carrier_sid).toBe(twice);
    expect(out[2]).toBeUndefined();
    expect(out[3]).toBeUndefined();
    const orphanRows = await db().selectFrom('calls').selectAll().where('carrier_sid', '=', orphan).execute();
    expect(orphanRows).toHaveLength(1);
    expect(out[4]!.call.id).toBe(orphanRows[0]!.id);
    expect(await db().selectFrom('calls').select('id').where('carrier_sid', '=', twice).execute()).toHaveLength(1);
    const receipts = await db()
      .selectFrom('webhook_receipts')
      .select(['key', 'body'])
      .where(
        'key',
        'in',
        [fresh, twice, stored, orphan].map((x) => `voice:${x}:start`),
      )
      .orderBy('key')
      .execute();
    expect(receipts).toHaveLength(4);
    expect(receipts.find((r) => r.key === `voice:${stored}:start`)!.body).not.toBe(`<Response>${stored}</Response>`);
    expect(receipts.find((r) => r.key === `voice:${twice}:start`)!.body).toBe(`<Response>${twice}</Response>`);
    const orphanEvents = await db().selectFrom('call_events').select('status').where('call_id', '=', orphanRows[0]!.id).execute();
    expect(orphanEvents).toHaveLength(4);
  });

  it('keeps the stored call when a delivery comes again after its receipt was cleaned up (events added, one call)', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ extension: 1, forwards: [{ number: '(646) 555-0101' }] }] });
    const callSid = sid();
    const a = await start(n.number, callSid);
    expect(a.status).toBe(200);
    await db().deleteFrom('webhook_receipts').where('key', '=', `voice:${callSid}:start`).execute();
    const b = await start(n.number, callSid);
    expect(b.status).toBe(200);
    expect(b.body).toBe(a.body);
    const rows = await db().selectFrom('calls').selectAll().where('carrier_sid', '=', callSid).execute();
    expect(rows).toHaveLength(1);
    const events = await db().selectFrom('call_events').select('status').where('call_id', '=', rows[0]!.id).execute();
    expect(events).toHaveLength(4);
    const receipt = await db().selectFrom('webhook_receipts').select(['status_code', 'body']).where('key', '=', `voice:${callSid}:start`).executeTakeFirst();
    expect(receipt).toEqual({ status_code: 200, body: a.body });
  });

  it('sees routing and block changes at once (the call-flow caches are invalidated on write)', async () => {
    const acct = await createAccount(s); // its own company: the block must not change other tests' block lists
    const n = await buyNumber(acct);
    await setRoutes(acct, n.id, { routes: [{ extension: 1, forwards: [{ number: '(646) 555-0101' }] }] });
    const caller = '+13125550177';
    const first = twiml((await start(n.number, sid(), caller)).body).Dial; // fills the caches
    expect(first.Number[0]['#text'] ?? first.Number[0]).toBe('+16465550101');
    await setRoutes(acct, n.id, { routes: [{ extension: 1, forwards: [{ number: '(646) 555-0102' }] }] });
    const second = twiml((await start(n.number, sid(), caller)).body).Dial;
    expect(second.Number[0]['#text'] ?? second.Number[0]).toBe('+16465550102');
    expect((await acct.client.post('/api/blocks', { company_id: acct.companyId, target: caller, global: true, action: 'reject' })).status).toBe(201);
    const blockedSid = sid();
    expect(twiml((await start(n.number, blockedSid, caller)).body).Reject).toBeDefined();
    expect((await callRow(blockedSid))!.status).toBe(13);
  });

  it('rejects an unknown To', async () => {
    const r = await start('+12125550999', sid());
    expect(r.status).toBe(200);
    expect(twiml(r.body).Reject).toBeDefined();
  });

  it('rejects a blocked caller and records status 13', async () => {
    const n = await buyNumber(owner);
    const blocker = await owner.client.post('/api/blocks', { company_id: owner.companyId, target: '(773) 555-0199', global: true, action: 'reject' });
    expect(blocker.status).toBe(201);
    expect(blocker.body.message).toBe('+17735550199 has been blocked');
    const callSid = sid();
    const r = await start(n.number, callSid, '+17735550199');
    expect(twiml(r.body).Reject).toBeDefined();
    expect((await callRow(callSid))!.status).toBe(13);
    const list = await owner.client.get(`/api/blocks/${owner.companyId}`);
    expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 50, total: 1 });
    const del = await owner.client.delete(`/api/blocks/${blocker.body.data.id}`);
    expect(del.body.message).toBe('+17735550199 has been unblocked');
    const again = sid();
    expect(twiml((await start(n.number, again, '+17735550199')).body).Reject).toBeUndefined();
  });

  it('sends a closed schedule with voicemail to Record, and a recording stores the voicemail (status 4)', async () => {
    const n = await buyNumber(owner);
    const closed = {
      preset: 4,
      timezone: 'UTC',
      hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open: null, close: null }])),
    };
    await setRoutes(owner, n.id, { schedule: closed, routes: [{ extension: 1, voicemail_enabled: true, forwards: [{ number: '6465550101' }] }] });
    const callSid = sid();
    const r = twiml((await start(n.number, callSid)).body);
    expect(r.Say[0]).toBe('Please leave a message after the tone.');
    expect(r.Record.action).toContain('/webhooks/twilio/voice/recording');
    expect(r.Dial).toBeUndefined();
    // The recording lives at a URL the fetch job downloads from (the sandbox serves /files, signed).
    await s.ctx.blobs.put('sandbox/recordings/REtest.wav', Buffer.from('RIFF....WAVE'));
    const rec = await postWebhook(s, new URL(r.Record.action).pathname + new URL(r.Record.action).search, {
      CallSid: callSid,
      RecordingUrl: s.ctx.blobs.signedUrl('sandbox/recordings/REtest.wav', 60_000),
      RecordingDuration: '7',
      RecordingSid: 'REtest',
    });
    expect(rec.status).toBe(200);
    const call = (await callRow(callSid))!;
    expect(call.status).toBe(4);
    const vm = await db().selectFrom('voicemails').selectAll().where('call_id', '=', call.id).executeTakeFirstOrThrow();
    expect(vm.duration_s).toBe(7);
    await eventually(async () =>
      (await db().selectFrom('voicemails').select('recording_url').where('id', '=', vm.id).executeTakeFirst())?.recording_url.includes(
        `/files/c/${owner.companyId}/recordings/`,
      ),
    );
    const detail = await owner.client.get(`/api/calls/${call.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.status_label).toBe('Voicemail');
    expect(detail.body.voicemail.duration_s).toBe(7);
  });

  it("plays a menu for two entries and dials the chosen entry's forwards", async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, {
      routes: [
        { extension: 2, label: 'Support', forwards: [{ number: '6465550102' }, { number: '6465550103' }], timeout: 15 },
        { extension: 1, label: 'Sales', forwards: [{ number: '6465550101' }] },
      ],
    });
    const callSid = sid();
    const g = twiml((await start(n.number, callSid)).body).Gather;
    expect(g.numDigits).toBe('1');
    expect(g.Say.join(' ')).toBe('For Sales, press 1. For Support, press 2.');
    const path = new URL(g.action).pathname + new URL(g.action).search;
    const bad = twiml((await postWebhook(s, path, { CallSid: callSid, Digits: '9' })).body);
    expect(bad.Gather.Say[0]).toBe('Sorry, that is not a valid choice.');
    const chosen = twiml((await postWebhook(s, path, { CallSid: callSid, Digits: '2' })).body);
    // same delivery key (attempt 1) → the stored answer; use attempt 2's URL for the real choice
    expect(chosen.Gather).toBeDefined();
    const path2 = new URL(bad.Gather.action).pathname + new URL(bad.Gather.action).search;
    const dial = twiml((await postWebhook(s, path2, { CallSid: callSid, Digits: '2' })).body).Dial;
    expect(dial.Number.map((x: any) => x['#text'] ?? x)).toEqual(['+16465550102', '+16465550103']);
    expect(dial.timeout).toBe('15');
    const call = (await callRow(callSid))!;
    expect(call.status).toBe(2);
    expect(call.extension).toBe(2);
  });

  it('moves a sequential entry to the next forward on no-answer, then no answer ends with status 5', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, {
      routes: [{ type: 'sequential', caller_id_pass_thru: false, forwards: [{ number: '6465550101' }, { number: '6465550102' }] }],
    });
    const callSid = sid();
    const d1 = twiml((await start(n.number, callSid)).body).Dial;
    expect(d1.Number).toHaveLength(1);
    expect(d1.callerId).toBe(n.number);
    const p1 = new URL(d1.action);
    const d2 = twiml((await postWebhook(s, p1.pathname + p1.search, { CallSid: callSid, DialCallStatus: 'no-answer' })).body).Dial;
    expect(d2.Number[0]['#text'] ?? d2.Number[0]).toBe('+16465550102');
    const p2 = new URL(d2.action);
    const end = twiml((await postWebhook(s, p2.pathname + p2.search, { CallSid: callSid, DialCallStatus: 'busy' })).body);
    expect(end.Hangup).toBeDefined();
    expect((await callRow(callSid))!.status).toBe(5);
    await postWebhook(s, '/webhooks/twilio/voice/status', { CallSid: callSid, CallStatus: 'completed', CallDuration: '42' });
    const row = (await callRow(callSid))!;
    expect(row.status).toBe(5);
    expect(row.duration_s).toBe(42);
    expect(row.ended_at).not.toBeNull();
  });

  it('whispers and asks for the confirm key; the right key connects, another hangs up', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, {
      routes: [{ confirm_key: 5, confirm_whisper: 'Call from the website', confirm_key_wait: 8, forwards: [{ number: '6465550101' }] }],
    });
    const callSid = sid();
    const dial = twiml((await start(n.number, callSid)).body).Dial;
    const url = new URL(dial.Number[0].url);
    expect(url.pathname).toBe('/webhooks/twilio/voice/whisper');
    const leg = 'CA' + crypto.randomBytes(16).toString('hex');
    const w = twiml((await postWebhook(s, url.pathname + url.search, { CallSid: leg, ParentCallSid: callSid, To: '+16465550101' })).body);
    expect(w.Gather.Say).toEqual(['Call from the website', 'Press 5 to accept the call.']);
    expect(w.Gather.timeout).toBe('8');
    expect(w.Hangup).toBeDefined();
    const c = new URL(w.Gather.action);
    const ok = await postWebhook(s, c.pathname + c.search, { CallSid: leg, To: '+16465550101', Digits: '5' });
    expect(twiml(ok.body)).toBe('');
    const leg2 = 'CA' + crypto.randomBytes(16).toString('hex');
    const no = await postWebhook(s, c.pathname + c.search, { CallSid: leg2, To: '+16465550101', Digits: '3' });
    expect(twiml(no.body).Hangup).toBeDefined();
    const d = new URL(dial.action);
    await postWebhook(s, d.pathname + d.search, { CallSid: callSid, DialCallStatus: 'completed', DialCallDuration: '30' });
    const row = (await callRow(callSid))!;
    expect(row.status).toBe(12);
    expect(row.forwarded_to).toBe('+16465550101');
    expect(row.answered_at).not.toBeNull();
  });

  it('goes to voicemail after no answer when enabled; a hang-up before recording becomes 3 Hangup', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ voicemail_enabled: true, forwards: [{ number: '6465550101' }] }] });
    const callSid = sid();
    const d = new URL(twiml((await start(n.number, callSid)).body).Dial.action);
    const vm = twiml((await postWebhook(s, d.pathname + d.search, { CallSid: callSid, DialCallStatus: 'no-answer' })).body);
    expect(vm.Record).toBeDefined();
    expect(vm.Record.playBeep).toBe('true');
    await postWebhook(s, '/webhooks/twilio/voice/status', { CallSid: callSid, CallStatus: 'completed', CallDuration: '12' });
    expect((await callRow(callSid))!.status).toBe(3);
  });

  it("hides another company's call (404)", async () => {
    const n = await buyNumber(owner);
    const callSid = sid();
    await start(n.number, callSid);
    const other = await createAccount(s);
    const id = (await callRow(callSid))!.id;
    expect((await other.client.get(`/api/calls/${id}`)).status).toBe(404);
    expect((await owner.client.get(`/api/calls/${id}`)).status).toBe(200);
  });

  it('lists call activity newest first, voicemail calls as kind voicemail, with the filters', async () => {
    const all = await listCallActivity(s.ctx, owner.companyId, { limit: 100, offset: 0, calls: true, voicemails: true });
    expect(all.total).toBe(all.items.length);
    expect(all.items.length).toBeGreaterThan(5);
    const times = all.items.map((i) => i.created_at.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const vms = await listCallActivity(s.ctx, owner.companyId, { limit: 100, offset: 0, calls: false, voicemails: true });
    expect(vms.items.length).toBe(1);
    expect(vms.items[0]).toMatchObject({ kind: 'voicemail', status: 4, status_label: 'Voicemail', voicemail: { duration_s: 7, is_read: false } });
    const calls = await listCallActivity(s.ctx, owner.companyId, { limit: 2, offset: 0, calls: true, voicemails: false });
    expect(calls.items).toHaveLength(2);
    expect(calls.total).toBe(all.total - 1);
    expect(calls.items.every((i) => i.kind === 'call' && i.voicemail === null)).toBe(true);
  });
});
