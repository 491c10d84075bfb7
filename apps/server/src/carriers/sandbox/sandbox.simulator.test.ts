/** The sandbox simulator end to end: buy a number, route it, place calls and texts through the API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { parseTwiml } from './sandbox.simulator.js';

let s: TestServer;
let owner: Account;

async function buy(areaCode: string) {
  const pick = (await owner.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}&limit=1`)).body.data[0];
  const r = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(r.status).toBe(201);
  return r.body;
}

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => { await s?.close(); });

describe('sandbox simulator', () => {
  it('parses TwiML verbs in order with attributes and children', () => {
    const verbs = parseTwiml('<?xml version="1.0"?><Response><Say>Hi</Say><Dial action="/a" timeout="5"><Number url="/w">+1</Number></Dial><Hangup/></Response>');
    expect(verbs.map((v) => v.name)).toEqual(['Say', 'Dial', 'Hangup']);
    expect(verbs[1]!.attrs).toEqual({ action: '/a', timeout: '5' });
    expect(verbs[1]!.children[0]).toMatchObject({ name: 'Number', text: '+1', attrs: { url: '/w' } });
  });

  it('runs an answered call through a menu and confirm key: status 12 Connected', async () => {
    const n = await buy('212');
    const put = await owner.client.put(`/api/numbers/${n.id}`, { routes: [
      { extension: 1, label: 'Sales', forwards: [{ number: '6465550101' }] },
      { extension: 2, label: 'Support', forwards: [{ number: '6465550102' }, { number: '6465550103' }], confirm_key: 65534 },
    ] });
    expect(put.status).toBe(200);
    const r = await owner.client.post('/api/simulator/calls', { from: '(312) 555-0142', to: n.number, digits: '2', forwards: { '+16465550102': 'no-answer' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('completed');
    expect(r.body.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(r.body.log.map((l: any) => l.detail)).toContain('Press # to accept the call.');
    const call = await s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', r.body.sid).executeTakeFirstOrThrow();
    expect(call).toMatchObject({ status: 12, extension: 2, forwarded_to: '+16465550103', from_state: 'IL' });
    expect(call.duration_s).toBeGreaterThan(30);
    expect(call.ended_at).not.toBeNull();
    const stored = await s.ctx.db.selectFrom('sandbox_calls').selectAll().where('sid', '=', r.body.sid).executeTakeFirstOrThrow();
    expect(stored.status).toBe('completed');
  });

  it('leaves a voicemail when no one answers: status 4 with a real WAV fetched into our store', async () => {
    const n = await buy('415');
    await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ voicemail_enabled: true, forwards: [{ number: '6465550101' }] }] });
    const r = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: n.number, forwards: { '6465550101': 'no-answer' }, voicemail_seconds: 3 });
    expect(r.status).toBe(200);
    const call = await s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', r.body.sid).executeTakeFirstOrThrow();
    expect(call.status).toBe(4);
    const vm = await eventually(async () => {
      const v = await s.ctx.db.selectFrom('voicemails').selectAll().where('call_id', '=', call.id).executeTakeFirst();
      return v && v.recording_url.includes('/files/recordings/') ? v : undefined;
    });
    expect(vm.duration_s).toBe(3);
    const wav = Buffer.from(await (await fetch(vm.recording_url)).arrayBuffer());
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.length).toBe(44 + 3 * 8000 * 2);
  });

  it('rejects calls to numbers the sandbox did not sell (422) and needs a session (401)', async () => {
    const r = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: '+12125550000' });
    expect(r.status).toBe(422);
    const anon = await fetch(`${s.url}/api/simulator/calls`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anon.status).toBe(401);
  });

  it('delivers outbound messages to the handset with status callbacks; 0000 numbers are undelivered', async () => {
    const n = await buy('617');
    const cb = `${s.ctx.config.publicUrl}/webhooks/twilio/messaging/status`;
    const ok = await s.ctx.carrier.sendMessage({ from: n.number, to: '+13125550142', body: 'Hello', mediaUrls: [], statusCallback: cb });
    const bad = await s.ctx.carrier.sendMessage({ from: n.number, to: '+13125550000', body: 'Hello', mediaUrls: [], statusCallback: cb });
    expect(ok.status).toBe('queued');
    await eventually(async () => {
      const h = await owner.client.get('/api/simulator/handsets/3125550142/messages');
      return h.body.data.find((m: any) => m.sid === ok.sid)?.status === 'delivered';
    });
    await eventually(async () => {
      const h = await owner.client.get('/api/simulator/handsets/+13125550000/messages');
      const m = h.body.data.find((x: any) => x.sid === bad.sid);
      return m?.status === 'undelivered' && m.error_code === 30003;
    });
  });

  it('texts a number from a handset through the signed messaging webhook', async () => {
    const n = await buy('202');
    const r = await owner.client.post('/api/simulator/messages', { from: '(312) 555-0177', to: n.number, body: 'Hi there' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ direction: 'inbound', from: '+13125550177', to: n.number, body: 'Hi there', business_number: n.number });
    expect(r.body.data.sid).toMatch(/^SM[0-9a-f]{32}$/);
    const h = await owner.client.get('/api/simulator/handsets/3125550177/messages');
    expect(h.body.data.map((m: any) => m.sid)).toContain(r.body.data.sid);
  });
});
