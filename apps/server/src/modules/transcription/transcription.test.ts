/**
 * Recording and transcription through the real server (docs/transcription.md): the number settings
 * and the template rule, a recorded sandbox call whose typed lines become a two-channel recording and
 * a complete transcript with both speakers and talk shares, the recording route (company, ranges),
 * a provider failure (retries, then failed with a clear message, no segments), and a voicemail's
 * transcript in the inbox item and the alert e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { readWav, SANDBOX_SCRIPT_CHUNK } from '../../platform/transcription/index.js';
import { TranscriptionError } from '../../platform/transcription/transcription.port.js';
import { speakerOf, talkShares, transcriptionTuning, useTranscriber } from './transcription.jobs.js';

let s: TestServer;
let owner: Account;
let other: Account;

async function buyNumber(account: Account) {
  const found = await account.client.get('/api/numbers/search?type=local&areaCode=415&limit=20');
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const r = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; number: string };
}

async function recordedNumber(extra: Record<string, unknown> = {}) {
  const n = await buyNumber(owner);
  const r = await owner.client.put(`/api/numbers/${n.id}`, {
    routes: [{ forwards: [{ number: '6465550101' }], voicemail_enabled: true, email_alert_address: 'vm@example.test' }],
    record: true,
    call_transcription_enabled: true,
    ...extra,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return n;
}

const SCRIPT = [
  { speaker: 'caller', text: 'Hello, I would like a quote for a kitchen remodel.' },
  { speaker: 'agent', text: 'Sure, the price is twelve thousand dollars.' },
  { speaker: 'caller', text: 'Great, please book me for Monday.' },
];

const callOf = (sid: string) => s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', sid).executeTakeFirstOrThrow();

beforeAll(async () => {
  transcriptionTuning.retryDelayS = 0;
  s = await startTestServer();
  owner = await createAccount(s);
  other = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

describe('speakers', () => {
  it('channel 0 is the caller of an inbound call and the agent of an outbound one; mono is mixed; a voicemail is the client', () => {
    expect([speakerOf(0, 2, false), speakerOf(1, 2, false)]).toEqual([2, 1]);
    expect([speakerOf(0, 2, false, true), speakerOf(1, 2, false, true)]).toEqual([1, 2]);
    expect(speakerOf(0, 1, false, true)).toBe(0);
    expect(speakerOf(0, 1, true)).toBe(2);
  });
});

describe('talk shares', () => {
  it('agent and client percentages of summed talk time', () => {
    expect(
      talkShares([
        { speaker: 2, start: 0, end: 3 },
        { speaker: 1, start: 3, end: 4 },
      ]),
    ).toEqual({ agent: 25, client: 75 });
    expect(talkShares([])).toEqual({ agent: null, client: null });
  });
});

describe('number settings', () => {
  it('stores record and transcription; with ai_eav_enabled they are left as they were (spec 002 §5); bad input 422; another company 403/404', async () => {
    const n = await buyNumber(owner);
    let r = await owner.client.put(`/api/numbers/${n.id}`, { record: true, call_transcription_enabled: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ record: true, call_transcription_enabled: true, ai_eav_enabled: false });
    r = await owner.client.put(`/api/numbers/${n.id}`, { ai_eav_enabled: true, record: false, call_transcription_enabled: false });
    expect(r.body.data).toMatchObject({ record: true, call_transcription_enabled: true, ai_eav_enabled: true });
    r = await owner.client.put(`/api/numbers/${n.id}`, { record: 'yes' });
    expect(r.status).toBe(422);
    r = await other.client.put(`/api/numbers/${n.id}`, { record: false });
    expect([403, 404]).toContain(r.status);
  });
});

describe('a recorded sandbox call', () => {
  it('yields a two-channel recording and a complete transcript with both speakers and talk shares', async () => {
    const n = await recordedNumber();
    const r = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: n.number, script: SCRIPT });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const call = await callOf(r.body.sid);
    expect(call.status).toBe(12);

    const detail = await eventually(async () => {
      const d = await owner.client.get(`/api/calls/${call.id}?include=transcription`);
      return d.body.transcription?.state === 'complete' ? d.body : null;
    }, 30_000);
    const t = detail.transcription;
    expect(t.segments.map((x: any) => [x.channel, x.speaker, x.transcript])).toEqual([
      [0, 2, SCRIPT[0]!.text],
      [1, 1, SCRIPT[1]!.text],
      [0, 2, SCRIPT[2]!.text],
    ]);
    for (let i = 1; i < t.segments.length; i++) expect(t.segments[i].start).toBeGreaterThanOrEqual(t.segments[i - 1].end);
    expect(t.metadata).toMatchObject({ provider: 'sandbox', language: 'en', error: null, source: 'recording' });
    expect(t.metadata.audio_s).toBeGreaterThan(0);
    const spoken = (speaker: number) => t.segments.filter((x: any) => x.speaker === speaker).reduce((a: number, x: any) => a + x.end - x.start, 0);
    const agentPct = Math.round((spoken(1) / (spoken(1) + spoken(2))) * 10000) / 100;
    expect(t.statistics.agent).toBeCloseTo(agentPct, 1);
    expect(t.statistics.agent + t.statistics.client).toBeCloseTo(100, 5);
    expect(t.text).toBe(`Client: ${SCRIPT[0]!.text}\nAgent: ${SCRIPT[1]!.text}\nClient: ${SCRIPT[2]!.text}`);
    expect(detail.recording).toMatchObject({ channels: 2, state: 'stored', url: `/api/calls/${call.id}/recording` });

    // The stored recording: a two-channel WAV with speech on both channels.
    const rec = await s.ctx.db.selectFrom('call_recordings').selectAll().where('call_id', '=', call.id).executeTakeFirstOrThrow();
    const wav = readWav((await s.ctx.blobs.get(rec.blob_key!))!);
    expect(wav.channels).toBe(2);
    expect(wav.chunks.has(SANDBOX_SCRIPT_CHUNK)).toBe(true);
    let energy = [0, 0];
    for (let i = 0; i + 3 < wav.data.length; i += 4)
      energy = [energy[0]! + Math.abs(wav.data.readInt16LE(i)), energy[1]! + Math.abs(wav.data.readInt16LE(i + 2))];
    expect(energy[0]).toBeGreaterThan(0);
    expect(energy[1]).toBeGreaterThan(0);

    // The route: ranges for the owner, 404 for another company.
    const range = await owner.client.request('GET', `/api/calls/${call.id}/recording`, undefined, { range: 'bytes=0-11' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toMatch(/^bytes 0-11\/\d+$/);
    expect(range.headers.get('content-type')).toBe('audio/wav');
    const all = await owner.client.get(`/api/calls/${call.id}/recording`);
    expect(all.status).toBe(200);
    expect(Number(all.headers.get('content-length'))).toBe((await s.ctx.blobs.stat(rec.blob_key!))!.size);
    expect((await other.client.get(`/api/calls/${call.id}/recording`)).status).toBe(404);
    expect((await other.client.get(`/api/calls/${call.id}?include=transcription`)).status).toBe(404);

    // readTranscript: a repeat of the recording callback changes nothing (one transcript).
    const rows = await s.ctx.db.selectFrom('transcripts').selectAll().where('call_id', '=', call.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('a number without record has no recording and no transcript', async () => {
    const n = await recordedNumber({ record: false });
    const r = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: n.number, script: SCRIPT });
    const call = await callOf(r.body.sid);
    const d = await owner.client.get(`/api/calls/${call.id}?include=transcription`);
    expect(d.body).toMatchObject({ recording: null, transcription: null });
  });

  it('a provider failure is retried, then the transcript is failed with a clear message and no segments', async () => {
    let attempts = 0;
    useTranscriber(s.ctx, {
      name: 'deepgram',
      async transcribe() {
        attempts++;
        throw new TranscriptionError('Deepgram answered 503: service unavailable', true);
      },
    });
    try {
      const n = await recordedNumber();
      const r = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: n.number, script: SCRIPT });
      const call = await callOf(r.body.sid);
      const t = await eventually(async () => {
        const d = await owner.client.get(`/api/calls/${call.id}?include=transcription`);
        return d.body.transcription?.state === 'failed' ? d.body.transcription : null;
      }, 60_000);
      expect(attempts).toBe(4);
      expect(t.metadata.error).toBe('Transcription failed: Deepgram answered 503: service unavailable');
      expect(t.segments).toEqual([]);
      expect(t.text).toBe('');
      const row = await s.ctx.db.selectFrom('transcripts').selectAll().where('call_id', '=', call.id).executeTakeFirstOrThrow();
      expect(await s.ctx.db.selectFrom('transcript_segments').selectAll().where('transcript_id', '=', row.id).execute()).toEqual([]);
    } finally {
      useTranscriber(s.ctx, new (await import('../../platform/transcription/sandbox.transcriber.js')).SandboxTranscriber());
    }
  });
});

describe('voicemail', () => {
  it('is transcribed; its text is in the alert e-mail and in the inbox item', async () => {
    const n = await recordedNumber();
    const r = await owner.client.post('/api/simulator/calls', {
      from: '3125550142',
      to: n.number,
      forwards: { '6465550101': 'no-answer' },
      voicemail_seconds: 2,
      script: [{ speaker: 'caller', text: 'Please call me back about the invoice.' }],
    });
    expect(r.status).toBe(200);
    const call = await callOf(r.body.sid);
    const mail = await eventually(
      () =>
        s.ctx.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('to_address', '=', 'vm@example.test')
          .where('text_body', 'like', `%/calls/${call.id}%`)
          .executeTakeFirst(),
      30_000,
    );
    expect(mail.text_body).toContain('Transcript: Client: Please call me back about the invoice.');
    const vm = await s.ctx.db
      .selectFrom('transcripts')
      .selectAll()
      .where('call_id', '=', call.id)
      .where('voicemail_id', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(vm.state).toBe('complete');

    // The inbox's voicemail item carries the text (both item pages), and only for its company.
    const items = await owner.client.get(`/api/inbox/conversations/items?company_id=${owner.companyId}&types[]=voicemail`);
    expect(items.status, JSON.stringify(items.body)).toBe(200);
    const item = (items.body.data as Array<{ conversationId: number; details: { callId: number; transcript?: { state: string; text: string } | null } }>).find(
      (i) => i.details.callId === call.id,
    );
    expect(item?.details.transcript).toEqual({ state: 'complete', text: expect.stringContaining('Please call me back about the invoice.') });
    const thread = await owner.client.get(`/api/companies/${owner.companyId}/conversations/${item!.conversationId}/items`);
    expect(thread.status).toBe(200);
    const inThread = (thread.body.data as Array<{ details: { callId: number; type: string; transcript?: unknown } }>).find((i) => i.details.callId === call.id);
    expect(inThread?.details.type).toBe('voicemail');
    expect(inThread?.details.transcript).toEqual({ state: 'complete', text: expect.stringContaining('invoice') });
    const stranger = await other.client.get(`/api/companies/${owner.companyId}/conversations/${item!.conversationId}/items`);
    expect([403, 404]).toContain(stranger.status);
  });
});
