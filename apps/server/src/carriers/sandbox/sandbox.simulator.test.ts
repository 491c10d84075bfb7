/**
 * The sandbox simulator end to end: buy a number, route it, place calls and texts through the
 * API; only for the user's own companies (another tenant gets nothing), media URLs through the
 * download guard, and no simulator at all with CARRIER=twilio.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { setDefaultAddressPolicy } from '../../platform/http/safe-fetch.js';
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
afterAll(async () => {
  await s?.close();
});

describe('sandbox simulator', () => {
  it('parses TwiML verbs in order with attributes and children', () => {
    const verbs = parseTwiml(
      '<?xml version="1.0"?><Response><Say>Hi</Say><Dial action="/a" timeout="5"><Number url="/w">+1</Number></Dial><Hangup/></Response>',
    );
    expect(verbs.map((v) => v.name)).toEqual(['Say', 'Dial', 'Hangup']);
    expect(verbs[1]!.attrs).toEqual({ action: '/a', timeout: '5' });
    expect(verbs[1]!.children[0]).toMatchObject({ name: 'Number', text: '+1', attrs: { url: '/w' } });
  });

  it('runs an answered call through a menu and confirm key: status 12 Connected', async () => {
    const n = await buy('212');
    const put = await owner.client.put(`/api/numbers/${n.id}`, {
      routes: [
        { extension: 1, label: 'Sales', forwards: [{ number: '6465550101' }] },
        { extension: 2, label: 'Support', forwards: [{ number: '6465550102' }, { number: '6465550103' }], confirm_key: 65534 },
      ],
    });
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
    const r = await owner.client.post('/api/simulator/calls', {
      from: '3125550142',
      to: n.number,
      forwards: { '6465550101': 'no-answer' },
      voicemail_seconds: 3,
    });
    expect(r.status).toBe(200);
    const call = await s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', r.body.sid).executeTakeFirstOrThrow();
    expect(call.status).toBe(4);
    const vm = await eventually(async () => {
      const v = await s.ctx.db.selectFrom('voicemails').selectAll().where('call_id', '=', call.id).executeTakeFirst();
      return v && v.recording_url.includes(`/files/c/${owner.companyId}/recordings/`) ? v : undefined;
    });
    expect(vm.duration_s).toBe(3);
    const cookie = `switchboard_session=${owner.client.cookie('switchboard_session')}`;
    const wav = Buffer.from(await (await fetch(vm.recording_url, { headers: { cookie } })).arrayBuffer());
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

  it("acts only for the signed-in user's companies: another tenant cannot call, text or read their handsets", async () => {
    const n = await buy('303');
    await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ forwards: [{ number: '6465550188' }] }] });
    const stranger = await createAccount(s);
    const calls = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from sandbox_calls where to_number = ${n.number}`.execute(s.ctx.db)).rows[0]!.n);

    const own = await owner.client.post('/api/simulator/messages', { from: '3125550191', to: n.number, body: 'For the owner' });
    expect(own.status).toBe(200);
    expect((await owner.client.get('/api/simulator/handsets/3125550191/messages')).body.data.map((m: any) => m.body)).toEqual(['For the owner']);

    // Reading the handset: nothing exchanged with another company's numbers.
    const read = await stranger.client.get('/api/simulator/handsets/3125550191/messages');
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual([]);

    // Injecting a call (whose log would show the forward numbers) or a text: refused, nothing happens.
    const before = await calls();
    const call = await stranger.client.post('/api/simulator/calls', { from: '3125550192', to: n.number });
    expect(call.status).toBe(422);
    expect(call.body).toEqual({ message: expect.any(String), errors: { to: ['This number is not served by the sandbox carrier.'] } });
    expect(JSON.stringify(call.body)).not.toContain('6465550188');
    expect(await calls()).toBe(before);
    const text = await stranger.client.post('/api/simulator/messages', { from: '3125550192', to: n.number, body: 'Injected' });
    expect(text.status).toBe(422);
    expect(text.body.errors).toEqual({ to: ['This number is not served by the sandbox carrier.'] });
    const inbox = await owner.client.get(`/api/companies/${owner.companyId}/conversations?search=3125550192`);
    expect(inbox.body.data).toEqual([]);

    // The stranger's own numbers work as usual.
    const theirs = await (async () => {
      const pick = (await stranger.client.get('/api/numbers/search?type=local&areaCode=303&limit=1')).body.data[0];
      return (await stranger.client.post('/api/numbers', { company_id: stranger.companyId, provider_id: pick.provider_id, number: pick.number })).body;
    })();
    expect((await stranger.client.post('/api/simulator/messages', { from: '3125550191', to: theirs.number, body: 'For the stranger' })).status).toBe(200);
    expect((await stranger.client.get('/api/simulator/handsets/3125550191/messages')).body.data.map((m: any) => m.body)).toEqual(['For the stranger']);
    expect((await owner.client.get('/api/simulator/handsets/3125550191/messages')).body.data.map((m: any) => m.body)).toEqual(['For the owner']);

    // An operator of the deployment may reach every sandbox number (docs/auth.md "Operators").
    const operator = await createAccount(s);
    await sql`update users set is_operator = true where id = ${operator.userId}`.execute(s.ctx.db);
    expect((await operator.client.get('/api/simulator/handsets/3125550191/messages')).body.data.map((m: any) => m.body)).toEqual([
      'For the owner',
      'For the stranger',
    ]);
    expect((await operator.client.post('/api/simulator/messages', { from: '3125550193', to: n.number, body: 'From the operator' })).status).toBe(200);
  });

  it('refuses media URLs that are not public http(s), and the download guard drops a name that resolves to loopback', async () => {
    const n = await buy('305');
    const port = new URL(s.url).port;
    for (const bad of [
      `http://127.0.0.1:${port}/metrics`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/a.png',
      `http://[::1]:${port}/metrics`,
      'data:image/png;base64,AAAA',
      'file:///etc/passwd',
    ]) {
      const r = await owner.client.post('/api/simulator/messages', {
        from: '3125550194',
        to: n.number,
        body: 'pic',
        media_urls: ['https://example.com/ok.png', bad],
      });
      expect(r.status, bad).toBe(422);
      expect(r.body.errors, bad).toEqual({ 'media_urls.1': ['The media URL must be a public http or https address.'] });
    }
    // A host name passes the first check; the download (at connect time) refuses its loopback address.
    const sneaky = `http://localhost:${port}/metrics`;
    const r = await owner.client.post('/api/simulator/messages', { from: '3125550195', to: n.number, body: 'pic', media_urls: [sneaky] });
    expect(r.status).toBe(200);
    const conv = await eventually(async () => {
      const l = await owner.client.get(`/api/companies/${owner.companyId}/conversations?search=3125550195`);
      const c = l.body.data[0];
      return c && c.latestItem.details.media.length === 0 ? c : null;
    });
    expect(fsKeys(`c/${owner.companyId}/mms`)).toEqual([]);

    // Control: the same pipeline copies the file once the test trusts that host (test-only policy).
    const previous = setDefaultAddressPolicy({ allowHosts: ['localhost'] });
    try {
      const ok = await owner.client.post('/api/simulator/messages', {
        from: '3125550196',
        to: n.number,
        body: 'pic',
        media_urls: [`http://localhost:${port}/api/docs/json`],
      });
      expect(ok.status).toBe(200);
      await eventually(async () => {
        const l = await owner.client.get(`/api/companies/${owner.companyId}/conversations?search=3125550196`);
        return l.body.data[0]?.latestItem.details.media[0]?.url.includes(`/files/c/${owner.companyId}/mms/`);
      });
      expect(fsKeys(`c/${owner.companyId}/mms`)).toHaveLength(1);
    } finally {
      setDefaultAddressPolicy(previous);
    }
  });

  it('is not registered with CARRIER=twilio (404)', async () => {
    const tw = await startTestServer({ carrier: 'twilio' });
    try {
      const a = await createAccount(tw);
      for (const [method, url] of [
        ['POST', '/api/simulator/calls'],
        ['POST', '/api/simulator/messages'],
        ['GET', '/api/simulator/handsets/3125550101/messages'],
      ] as const) {
        const r = await a.client.request(method, url, method === 'POST' ? { from: '3125550101', to: '2125550101', body: 'x' } : undefined);
        expect(r.status, url).toBe(404);
      }
    } finally {
      await tw.close();
    }
  });
});

/** Blob keys under `prefix` in the local store. */
function fsKeys(prefix: string): string[] {
  const dir = path.join(s.ctx.config.dataDir, 'blobs', prefix);
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
}
