/** Greetings: real synthesized speech, CRUD, and playing in the call flow (docs/telephony.md). */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let owner: Account;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, isArray: (n) => ['Play', 'Say'].includes(n) });

/** Peak absolute 16-bit sample of a PCM WAV body (after the 44-byte header). */
function peak(wav: Buffer): number {
  let max = 0;
  for (let i = 44; i + 1 < wav.length; i += 2) max = Math.max(max, Math.abs(wav.readInt16LE(i)));
  return max;
}

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

describe('greetings', () => {
  it('lists voices and speaks: a RIFF/WAVE PCM body with audible samples', async () => {
    const voices = await owner.client.get('/api/greetings/voices');
    expect(voices.body.data.map((v: any) => v.id)).toContain('en/en-us');
    const res = await fetch(`${s.url}/api/greetings/speak`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `XSRF-TOKEN=${owner.client.cookie('XSRF-TOKEN')}; ${sessionCookie()}`,
        'x-xsrf-token': decodeURIComponent(owner.client.cookie('XSRF-TOKEN')!),
      },
      body: JSON.stringify({ content: 'Thank you for calling. Please hold.', voice: 'en/en-us' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('audio/wav');
    const wav = Buffer.from(await res.arrayBuffer());
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.subarray(8, 12).toString('latin1')).toBe('WAVE');
    expect(wav.readUInt16LE(20)).toBe(1); // PCM
    expect(wav.length).toBeGreaterThan(22050); // over half a second at 22.05 kHz 16-bit
    expect(peak(wav)).toBeGreaterThan(1000);
    expect((await owner.client.post('/api/greetings/speak', { content: 'x', voice: 'klingon' })).status).toBe(422);
  });

  it('creates from text (multipart), updates with _method=PUT, uploads audio, deletes; isolation by company', async () => {
    const form = new FormData();
    form.set('company_id', String(owner.companyId));
    form.set('name', 'Main menu');
    form.set('content', 'For sales press one.');
    form.set('voice', 'en/en-us');
    const created = await owner.client.post('/api/greetings', form);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const g = created.body.data;
    expect(g).toMatchObject({ name: 'Main menu', source: 'tts', voice: 'en/en-us' });
    expect((await fetch(g.url)).status).toBe(401); // files are the company's (platform/blob/access.ts)
    const audio = await fetch(g.url, { headers: { cookie: sessionCookie() } });
    expect(audio.status).toBe(200);
    expect(
      Buffer.from(await audio.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('RIFF');

    const upd = new FormData();
    upd.set('_method', 'PUT');
    upd.set('id', String(g.id));
    upd.set('company_id', String(owner.companyId));
    upd.set('content', 'For support press two.');
    const updated = await owner.client.post('/api/greetings', upd);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.content).toBe('For support press two.');
    expect(updated.body.data.url).not.toBe(g.url);
    expect((await fetch(g.url, { headers: { cookie: sessionCookie() } })).status).toBe(404);

    const up = new FormData();
    up.set('company_id', String(owner.companyId));
    up.set('name', 'Hold music');
    up.set('file', new Blob([Buffer.from('RIFF....WAVEfmt ')], { type: 'audio/wav' }), 'hold.wav');
    const uploaded = await owner.client.post('/api/greetings', up);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data.source).toBe('upload');
    const bad = new FormData();
    bad.set('company_id', String(owner.companyId));
    bad.set('name', 'Bad');
    bad.set('file', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'x.txt');
    expect((await owner.client.post('/api/greetings', bad)).status).toBe(422);
    const empty = new FormData();
    empty.set('company_id', String(owner.companyId));
    empty.set('name', 'Nothing');
    expect((await owner.client.post('/api/greetings', empty)).body.errors.content).toBeDefined();

    const list = await owner.client.get(`/api/greetings?company_id=${owner.companyId}`);
    expect(list.body.data.map((x: any) => x.name)).toEqual(['Hold music', 'Main menu']);
    const other = await createAccount(s);
    expect((await other.client.get(`/api/greetings/${g.id}`)).status).toBe(404);
    expect((await other.client.delete(`/api/greetings/${g.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/greetings?company_id=${owner.companyId}`)).status).toBe(403);
    expect((await owner.client.delete(`/api/greetings/${uploaded.body.data.id}`)).status).toBe(200);
    expect((await owner.client.get(`/api/greetings/${uploaded.body.data.id}`)).status).toBe(404);
  });

  it('plays assigned greetings in the call flow: menu prompt, voicemail greeting, whisper, hold music', async () => {
    const make = async (name: string, content: string) => {
      const f = new FormData();
      f.set('company_id', String(owner.companyId));
      f.set('name', name);
      f.set('content', content);
      return (await owner.client.post('/api/greetings', f)).body.data as { id: number; url: string };
    };
    const [menu, vm, whisper, hold] = [
      await make('Menu', 'Press one or two.'),
      await make('VM', 'Leave a message.'),
      await make('Whisper', 'Website caller.'),
      await make('Hold', 'Please hold.'),
    ];
    const found = await owner.client.get('/api/numbers/search?type=local&areaCode=312&limit=10');
    const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
    const n = (await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number })).body;
    await owner.client.put(`/api/numbers/${n.id}`, {
      routes: [
        { extension: 1, type: 'voicemail' },
        { extension: 2, confirm_key: 1, onhold_music_id: hold.id, forwards: [{ number: '6465550101' }] },
      ],
    });
    const put = await owner.client.put(`/api/numbers/${n.id}/greetings`, {
      assignments: [
        { extension: 0, kind: 'menu', greeting_id: menu.id },
        { extension: 1, kind: 'voicemail', greeting_id: vm.id },
        { extension: 2, kind: 'whisper', greeting_id: whisper.id },
      ],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data).toHaveLength(3);
    const other = await createAccount(s);
    expect((await other.client.put(`/api/numbers/${n.id}/greetings`, { assignments: [] })).status).toBe(404);

    const call = (digits?: string) => 'CA' + crypto.randomBytes(16).toString('hex') + (digits ?? '');
    const sid = call();
    const first = xml.parse(
      (await postWebhook(s, '/webhooks/twilio/voice', { CallSid: sid, From: '+13125550142', To: n.number, CallStatus: 'ringing' })).body,
    ).Response;
    // The carrier gets signed URLs of the greetings' audio, which it fetches without a session.
    const signed = (url: string) => expect.stringMatching(new RegExp(`^${url.replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}\\?expires=\\d+&signature=[\\w-]{43}$`));
    expect(first.Gather.Play).toEqual([signed(menu.url)]);
    expect((await fetch(first.Gather.Play[0])).status).toBe(200);
    const g = new URL(first.Gather.action);
    const one = xml.parse((await postWebhook(s, g.pathname + g.search, { CallSid: sid, Digits: '1' })).body).Response;
    expect(one.Play).toEqual([signed(vm.url)]);
    const sid2 = call();
    await postWebhook(s, '/webhooks/twilio/voice', { CallSid: sid2, From: '+13125550142', To: n.number, CallStatus: 'ringing' });
    const two = xml.parse((await postWebhook(s, g.pathname + g.search, { CallSid: sid2, Digits: '2' })).body).Response;
    expect(two.Play).toEqual([signed(hold.url)]);
    const w = new URL(two.Dial.Number.url);
    const leg = xml.parse((await postWebhook(s, w.pathname + w.search, { CallSid: call(), ParentCallSid: sid2, To: '+16465550101' })).body).Response;
    expect(leg.Gather.Play).toEqual([signed(whisper.url)]);
    expect(leg.Gather.Say).toEqual(['Press 1 to accept the call.']);
  });
});

function sessionCookie(): string {
  return `switchboard_session=${owner.client.cookie('switchboard_session')}`;
}
