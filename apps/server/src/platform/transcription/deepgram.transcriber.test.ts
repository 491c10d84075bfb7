/**
 * The Deepgram adapter (official `@deepgram/sdk`) against a local stand-in of Deepgram's pre-recorded
 * API (`POST /v1/listen`, docs: developers.deepgram.com "Multichannel", "Utterances", "Errors"): the
 * request it sends (key, options, the audio as it is), the mapping of a two-channel response to
 * segments, and its failures — 401/400 not retryable; 429, 5xx, a timeout and an unreachable host
 * retryable — then, through the real server, that the transcription job stores Deepgram's segments
 * by speaker, retries a 503 and fails the transcript with Deepgram's message, and fails a 401 at once.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { transcriptionTuning, useTranscriber } from '../../modules/transcription/transcription.jobs.js';
import { DeepgramTranscriber } from './deepgram.transcriber.js';
import { SandboxTranscriber } from './sandbox.transcriber.js';
import { TranscriptionError } from './transcription.port.js';
import { writeWav } from './wav.js';

type Seen = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: Buffer };
type Reply = { status: number; body: unknown; delayMs?: number };

let standIn: http.Server;
let base: string;
const seen: Seen[] = [];
let reply: (req: Seen) => Reply = () => ({ status: 500, body: { err_code: 'INTERNAL', err_msg: 'no reply set' } });

const KEY = 'dg-test-key-0123456789';

/** The words of an utterance with Deepgram's per-word fields, spread evenly over [start, end]. */
function words(text: string, start: number, end: number, speaker = 0) {
  const list = text.split(' ');
  const step = (end - start) / list.length;
  return list.map((w, i) => ({
    word: w.toLowerCase().replace(/[^a-z0-9$']/g, ''),
    start: Math.round((start + i * step) * 1000) / 1000,
    end: Math.round((start + (i + 1) * step) * 1000) / 1000,
    confidence: 0.98,
    speaker,
    speaker_confidence: 0,
    punctuated_word: w,
  }));
}

type Line = { channel: number; start: number; end: number; text: string };

/**
 * A pre-recorded response as Deepgram documents it for `multichannel=true&utterances=true`:
 * `metadata` (request id, duration, channels, models), one `results.channels[]` entry per audio
 * channel (alternatives with the channel's transcript and words, detected language), and
 * `results.utterances[]` with start/end in seconds and their `channel`.
 */
function deepgramResponse(lines: Line[], duration: number, channels = 2, language = 'en') {
  const model = '2187e11a-3532-4498-b076-81fa530bdd49';
  return {
    metadata: {
      transaction_key: 'deprecated',
      request_id: crypto.randomUUID(),
      sha256: crypto.createHash('sha256').update(JSON.stringify(lines)).digest('hex'),
      created: new Date().toISOString(),
      duration,
      channels,
      models: [model],
      model_info: { [model]: { name: 'general-nova-3', version: '2025-01-01.0', arch: 'nova-3' } },
    },
    results: {
      channels: Array.from({ length: channels }, (_, c) => {
        const mine = lines.filter((l) => l.channel === c);
        return {
          alternatives: [
            {
              transcript: mine.map((l) => l.text).join(' '),
              confidence: 0.97,
              words: mine.flatMap((l) => words(l.text, l.start, l.end)),
            },
          ],
          detected_language: language,
          language_confidence: 0.99,
        };
      }),
      utterances: lines.map((l) => ({
        start: l.start,
        end: l.end,
        confidence: 0.96,
        channel: l.channel,
        transcript: l.text,
        words: words(l.text, l.start, l.end),
        speaker: 0,
        id: crypto.randomUUID(),
      })),
    },
  };
}

const LINES: Line[] = [
  { channel: 0, start: 0.48, end: 3.2, text: 'Hi, I saw your ad for kitchen remodels.' },
  { channel: 1, start: 3.6, end: 7.04, text: 'Thanks for calling! A full remodel starts at $12,000.' },
  { channel: 0, start: 7.5, end: 9.9, text: 'Okay, can you book me for Monday?' },
  { channel: 1, start: 10.2, end: 11.36, text: 'Monday at 9 AM works.' },
];

/** A two-channel 16-bit WAV of `seconds` (silence): what the carrier stores for a recorded call. */
const twoChannelWav = (seconds: number) => writeWav([new Int16Array(8000 * seconds), new Int16Array(8000 * seconds)], 8000);

beforeAll(async () => {
  standIn = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const s: Seen = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      const r =
        s.path !== '/v1/listen' || s.method !== 'POST'
          ? { status: 404, body: { err_code: 'NOT_FOUND', err_msg: 'Not found.' } }
          : req.headers.authorization !== `Token ${KEY}`
            ? { status: 401, body: { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.', request_id: crypto.randomUUID() } }
            : reply(s);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status, { 'content-type': 'application/json', 'dg-request-id': crypto.randomUUID() });
        res.end(JSON.stringify(r.body));
      };
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});
afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((r) => standIn.close(r));
});
beforeEach(() => {
  seen.length = 0;
});

describe('DeepgramTranscriber against the pre-recorded API', () => {
  it('posts the audio as it is with the key and the multichannel options, and maps the utterances to segments by channel with their times', async () => {
    reply = () => ({ status: 200, body: deepgramResponse(LINES, 11.8) });
    const audio = twoChannelWav(12);
    const result = await new DeepgramTranscriber({ apiKey: KEY, baseUrl: base }).transcribe(audio, 'audio/wav');

    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/listen');
    expect(Object.fromEntries(req.query)).toEqual({ model: 'nova-3', multichannel: 'true', utterances: 'true', smart_format: 'true', detect_language: 'true' });
    expect(req.headers.authorization).toBe(`Token ${KEY}`);
    expect(req.headers['content-type']).toBe('audio/wav');
    expect(req.body.equals(audio)).toBe(true);

    expect(result).toEqual({
      provider: 'deepgram',
      language: 'en',
      audioS: 11.8,
      channels: 2,
      segments: LINES.map((l) => ({ channel: l.channel, transcript: l.text, start: l.start, end: l.end })),
    });
  });

  it('sorts utterances by time, drops empty ones, and reads the detected language of any channel', async () => {
    const shuffled = [LINES[3]!, LINES[0]!, { channel: 1, start: 2, end: 2.1, text: '  ' }, LINES[2]!, LINES[1]!];
    const body = deepgramResponse(shuffled, 11.8, 2, 'es');
    body.results.channels[0]!.detected_language = undefined as unknown as string;
    reply = () => ({ status: 200, body });
    const result = await new DeepgramTranscriber({ apiKey: KEY, baseUrl: base }).transcribe(twoChannelWav(1));
    expect(result.segments.map((s) => s.transcript)).toEqual(LINES.map((l) => l.text));
    expect(result.language).toBe('es');
  });

  it('silence: a response without utterances has no segments', async () => {
    reply = () => ({ status: 200, body: deepgramResponse([], 4.2) });
    const result = await new DeepgramTranscriber({ apiKey: KEY, baseUrl: base }).transcribe(twoChannelWav(4));
    expect(result).toMatchObject({ segments: [], audioS: 4.2, channels: 2 });
  });

  it('a bad key (401) and bad audio (400) are not retryable, with Deepgram’s message', async () => {
    const wrongKey = new DeepgramTranscriber({ apiKey: 'not-the-key', baseUrl: base });
    const e401 = await wrongKey.transcribe(twoChannelWav(1)).catch((e: unknown) => e);
    expect(e401).toBeInstanceOf(TranscriptionError);
    expect(e401).toMatchObject({ retryable: false, message: 'Deepgram answered 401: Invalid credentials.' });

    reply = () => ({
      status: 400,
      body: { err_code: 'Bad Request', err_msg: 'Bad Request: failed to process audio: corrupt or unsupported data', request_id: crypto.randomUUID() },
    });
    const e400 = await new DeepgramTranscriber({ apiKey: KEY, baseUrl: base }).transcribe(Buffer.from('not audio')).catch((e: unknown) => e);
    expect(e400).toMatchObject({ retryable: false, message: 'Deepgram answered 400: Bad Request: failed to process audio: corrupt or unsupported data' });
  });

  it('429 and 5xx are retryable, and the SDK does not retry on its own (one request each)', async () => {
    const dg = new DeepgramTranscriber({ apiKey: KEY, baseUrl: base });
    for (const [status, body] of [
      [429, { err_code: 'TOO_MANY_REQUESTS', err_msg: 'Too many requests. Please try again later', request_id: 'r1' }],
      [500, { err_code: 'INTERNAL_SERVER_ERROR', err_msg: 'Internal server error.', request_id: 'r2' }],
      [503, { err_code: 'SERVICE_UNAVAILABLE', err_msg: 'Service unavailable.', request_id: 'r3' }],
    ] as const) {
      seen.length = 0;
      reply = () => ({ status, body });
      const e = await dg.transcribe(twoChannelWav(1)).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TranscriptionError);
      expect(e).toMatchObject({ retryable: true, message: `Deepgram answered ${status}: ${body.err_msg}` });
      expect(seen).toHaveLength(1);
    }
  });

  it('a timeout and an unreachable host are retryable', async () => {
    reply = () => ({ status: 200, body: deepgramResponse(LINES, 11.8), delayMs: 3000 });
    const slow = new DeepgramTranscriber({ apiKey: KEY, baseUrl: base, timeoutS: 0.4 });
    const started = Date.now();
    const timedOut = await slow.transcribe(twoChannelWav(1)).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(timedOut).toBeInstanceOf(TranscriptionError);
    expect(timedOut).toMatchObject({ retryable: true });
    expect((timedOut as Error).message).toBe('Deepgram did not answer in time (DEEPGRAM_TIMEOUT_S).');

    const down = await new DeepgramTranscriber({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', timeoutS: 2 })
      .transcribe(twoChannelWav(1))
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(TranscriptionError);
    expect(down).toMatchObject({ retryable: true });
    expect((down as Error).message).toMatch(/^Deepgram could not be reached/);
  });

  it('needs a key', () => {
    expect(() => new DeepgramTranscriber({ apiKey: '' })).toThrow(/DEEPGRAM_API_KEY/);
  });
});

describe('the transcription job with Deepgram', () => {
  let s: TestServer;
  let owner: Account;
  const SCRIPT = [
    { speaker: 'caller', text: 'Hello, I would like a quote.' },
    { speaker: 'agent', text: 'Sure, it is twelve thousand dollars.' },
  ];

  beforeAll(async () => {
    transcriptionTuning.retryDelayS = 0;
    s = await startTestServer();
    owner = await createAccount(s);
    useTranscriber(s.ctx, new DeepgramTranscriber({ apiKey: KEY, baseUrl: base }));
  });
  afterAll(async () => {
    if (s) useTranscriber(s.ctx, new SandboxTranscriber());
    await s?.close();
  });

  /** A recorded, transcribed inbound call through the simulator; its id. */
  async function recordedCall(): Promise<number> {
    const found = await owner.client.get('/api/numbers/search?type=local&areaCode=415&limit=20');
    const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
    const n = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number });
    expect(n.status, JSON.stringify(n.body)).toBe(201);
    const put = await owner.client.put(`/api/numbers/${n.body.id}`, {
      routes: [{ forwards: [{ number: '6465550101' }] }],
      record: true,
      call_transcription_enabled: true,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const r = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: n.body.number, script: SCRIPT });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', r.body.sid).executeTakeFirstOrThrow()).id;
  }

  const settled = (callId: number) =>
    eventually(async () => {
      const d = await owner.client.get(`/api/calls/${callId}?include=transcription`);
      return d.body.transcription && d.body.transcription.state !== 'loading' ? d.body.transcription : null;
    }, 60_000);

  it('stores Deepgram’s segments by speaker (inbound: channel 0 the client, 1 the agent) from the stored two-channel recording', async () => {
    reply = () => ({ status: 200, body: deepgramResponse(LINES, 11.8) });
    const callId = await recordedCall();
    const t = await settled(callId);
    expect(t.state).toBe('complete');
    expect(
      t.segments.map((x: { channel: number; speaker: number; transcript: string; start: number; end: number }) => [
        x.channel,
        x.speaker,
        x.transcript,
        x.start,
        x.end,
      ]),
    ).toEqual(LINES.map((l) => [l.channel, l.channel === 0 ? 2 : 1, l.text, l.start, l.end]));
    expect(t.metadata).toMatchObject({ provider: 'deepgram', language: 'en', audio_s: 11.8, error: null });
    expect(t.statistics.agent + t.statistics.client).toBeCloseTo(100, 5);

    const posted = seen.filter((x) => x.path === '/v1/listen');
    expect(posted).toHaveLength(1);
    const rec = await s.ctx.db.selectFrom('call_recordings').selectAll().where('call_id', '=', callId).executeTakeFirstOrThrow();
    expect(posted[0]!.body.equals((await s.ctx.blobs.get(rec.blob_key!))!)).toBe(true);
  });

  it('a 503 is retried by the job, then the transcript fails with Deepgram’s message and no segments', async () => {
    reply = () => ({ status: 503, body: { err_code: 'SERVICE_UNAVAILABLE', err_msg: 'Service unavailable.', request_id: 'r' } });
    const callId = await recordedCall();
    const t = await settled(callId);
    expect(t.state).toBe('failed');
    expect(t.metadata.error).toBe('Transcription failed: Deepgram answered 503: Service unavailable.');
    expect(t.segments).toEqual([]);
    expect(seen.filter((x) => x.path === '/v1/listen')).toHaveLength(4); // the first attempt and 3 retries
  });

  it('a 401 fails the transcript at once (not retried)', async () => {
    useTranscriber(s.ctx, new DeepgramTranscriber({ apiKey: 'revoked-key', baseUrl: base }));
    try {
      const callId = await recordedCall();
      const t = await settled(callId);
      expect(t.state).toBe('failed');
      expect(t.metadata.error).toBe('Transcription failed: Deepgram answered 401: Invalid credentials.');
      await new Promise((r) => setTimeout(r, 500));
      expect(seen.filter((x) => x.path === '/v1/listen')).toHaveLength(1);
    } finally {
      useTranscriber(s.ctx, new DeepgramTranscriber({ apiKey: KEY, baseUrl: base }));
    }
  });
});
