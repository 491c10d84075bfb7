/**
 * The menu after an invalid or missing choice (docs/telephony.md "Menu replays and fallback"),
 * through the real server and Twilio-signed voice webhooks: the menu is replayed
 * `menu_replays` times, then the number's `menu_fallback` (first extension, voicemail, hang up)
 * takes the call. Settings are saved with PUT /api/numbers/{id}.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, isArray: (name) => ['Number', 'Say'].includes(name) });
const twiml = (body: string) => xml.parse(body).Response as Record<string, any>;
const sid = () => 'CA' + crypto.randomBytes(16).toString('hex');
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const SALES = '+16465550111';
const SUPPORT = '+16465550122';

let s: TestServer;
let owner: Account;

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

/** A bought number with a two-extension menu (1 Sales, 2 Support) and the given menu settings. */
async function menuNumber(settings: Record<string, unknown> = {}) {
  const pick = (await owner.client.get('/api/numbers/search?type=local&areaCode=646&limit=20')).body.data[Math.floor(Math.random() * 20)];
  const bought = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const saved = await owner.client.put(`/api/numbers/${bought.body.id}`, {
    routes: [
      { extension: 1, label: 'Sales', forwards: [{ number: SALES }] },
      { extension: 2, label: 'Support', forwards: [{ number: SUPPORT }] },
    ],
    ...settings,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.data as { id: number; number: string; menu_replays: number; menu_fallback: string };
}

/** Starts a call to `to`; returns the call's SID and the first menu's Gather. */
async function call(to: string) {
  const callSid = sid();
  const first = await postWebhook(s, '/webhooks/twilio/voice', {
    CallSid: callSid,
    AccountSid: s.ctx.config.twilioAccountSid,
    From: '+13125550199',
    To: to,
    CallStatus: 'ringing',
    Direction: 'inbound',
  });
  expect(first.status).toBe(200);
  return { callSid, gather: twiml(first.body).Gather as { action: string; Say: string[] } };
}

const press = async (callSid: string, action: string, digits: string) =>
  twiml((await postWebhook(s, pathOf(action), { CallSid: callSid, Digits: digits })).body);
const callRow = (callSid: string) => s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', callSid).executeTakeFirstOrThrow();
const invalidEvents = async (callId: number) =>
  (await s.ctx.db.selectFrom('call_events').select('detail').where('call_id', '=', callId).orderBy('id').execute())
    .map((e) => e.detail as Record<string, unknown>)
    .filter((d) => d.invalid === true);

describe('menu replays and fallback', () => {
  it('by default replays the menu twice (invalid digit, then no input), then connects the first extension', async () => {
    const n = await menuNumber();
    expect(n).toMatchObject({ menu_replays: 2, menu_fallback: 'first' });
    const { callSid, gather } = await call(n.number);
    expect(gather.Say.join(' ')).toBe('For Sales, press 1. For Support, press 2.');

    const replay1 = await press(callSid, gather.action, '9');
    expect(replay1.Gather.Say).toEqual(['Sorry, that is not a valid choice.', 'For Sales, press 1. For Support, press 2.']);
    expect(replay1.Hangup).toBeUndefined();
    const replay2 = await press(callSid, replay1.Gather.action, '');
    expect(replay2.Gather.Say).toEqual(['Sorry, we did not get your choice.', 'For Sales, press 1. For Support, press 2.']);

    const fallback = await press(callSid, replay2.Gather.action, '7');
    expect(fallback.Gather).toBeUndefined();
    expect(fallback.Say).toEqual(['Sorry, that is not a valid choice. Please hold while we connect your call.']);
    expect(fallback.Dial.Number.map((x: any) => x['#text'] ?? x)).toEqual([SALES]);

    const row = await callRow(callSid);
    expect(row).toMatchObject({ status: 2, extension: 1 });
    expect(await invalidEvents(row.id)).toEqual([
      { digits: '9', attempt: 1, invalid: true, next: 'replay' },
      { digits: '', attempt: 2, invalid: true, next: 'replay' },
      { digits: '7', attempt: 3, invalid: true, next: 'first' },
    ]);
    // The call detail words each step (not a bare "Hangup").
    const detail = await owner.client.get(`/api/calls/${row.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.history.map((e: { title?: string }) => e.title).filter((t: string) => /choice/i.test(t))).toEqual([
      'Invalid choice: menu replayed',
      'No choice: menu replayed',
      'Invalid choice: sent to the first extension',
      'Menu choice',
    ]);
  });

  it('a valid choice during a replay still reaches its extension', async () => {
    const n = await menuNumber();
    const { callSid, gather } = await call(n.number);
    const replay = await press(callSid, gather.action, '5');
    const chosen = await press(callSid, replay.Gather.action, '2');
    expect(chosen.Dial.Number.map((x: any) => x['#text'] ?? x)).toEqual([SUPPORT]);
    expect(await callRow(callSid)).toMatchObject({ status: 2, extension: 2 });
  });

  it('no replays and the voicemail fallback: the first wrong key takes a message for the first extension', async () => {
    const n = await menuNumber({ menu_replays: 0, menu_fallback: 'voicemail' });
    expect(n).toMatchObject({ menu_replays: 0, menu_fallback: 'voicemail' });
    const { callSid, gather } = await call(n.number);
    const vm = await press(callSid, gather.action, '');
    expect(vm.Say[0]).toBe('Sorry, we did not get your choice.');
    expect(vm.Say).toContain('Please leave a message after the tone.');
    expect(vm.Record).toBeDefined();
    expect(pathOf(vm.Record.action)).toContain('ext=1');
    const row = await callRow(callSid);
    expect(row.extension).toBe(1);
    expect(await invalidEvents(row.id)).toEqual([{ digits: '', attempt: 1, invalid: true, next: 'voicemail' }]);
  });

  it('the hang-up fallback says goodbye after the last replay', async () => {
    const n = await menuNumber({ menu_replays: 1, menu_fallback: 'hangup' });
    const { callSid, gather } = await call(n.number);
    const replay = await press(callSid, gather.action, '8');
    expect(replay.Gather).toBeDefined();
    const end = await press(callSid, replay.Gather.action, '8');
    expect(end.Say).toEqual(['Sorry, that is not a valid choice. Goodbye.']);
    expect(end.Hangup).toBeDefined();
    const row = await callRow(callSid);
    expect(row.extension).toBeNull();
    expect((await invalidEvents(row.id)).map((d) => d.next)).toEqual(['replay', 'hangup']);
  });

  it('refuses impossible menu settings with 422 field errors and keeps the stored ones', async () => {
    const n = await menuNumber({ menu_replays: 3 });
    const many = await owner.client.put(`/api/numbers/${n.id}`, { menu_replays: 6 });
    expect(many.status).toBe(422);
    expect(many.body.errors.menu_replays).toBeDefined();
    const kind = await owner.client.put(`/api/numbers/${n.id}`, { menu_fallback: 'operator' });
    expect(kind.status).toBe(422);
    expect(kind.body.errors.menu_fallback).toBeDefined();
    expect((await owner.client.get(`/api/numbers/${n.id}`)).body).toMatchObject({ menu_replays: 3, menu_fallback: 'first' });
  });
});
