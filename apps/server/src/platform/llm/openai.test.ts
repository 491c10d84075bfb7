/**
 * The OpenAI-compatible adapter of the language-model port against a local stand-in of
 * `POST /v1/chat/completions` (request {model, messages}, answer `choices[0].message.content`; errors
 * `{error: {message, type, code}}`): the request it sends, grounded answers and NOT_FOUND, and its
 * failures (429, 5xx, 401, a timeout, an unreachable host, a body that is not a completion) as
 * `LlmUnavailableError`; the LLM_* settings in `loadConfig`; and, through the real server, that
 * `POST /api/calls/{id}/converse` uses the configured model and answers offline when it fails.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { loadConfig } from '../config.js';
import { languageModel, offlineModel, type LlmPassage } from './index.js';
import { LlmUnavailableError, openAiCompatibleModel } from './openai.js';

type ChatRequest = { model: string; temperature: number; messages: Array<{ role: string; content: string }> };
type Seen = { method: string; path: string; headers: http.IncomingHttpHeaders; body: ChatRequest };
type Reply = { status: number; body: unknown; delayMs?: number; raw?: string };

let standIn: http.Server;
let base: string;
const seen: Seen[] = [];
let reply: (req: Seen) => Reply = () => ({ status: 500, body: { error: { message: 'no reply set', type: 'server_error' } } });

/** A chat completion as the API returns it. */
const completion = (content: string | null, model = 'gpt-4o-mini') => ({
  id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model: `${model}-2024-07-18`,
  choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 182, completion_tokens: 14, total_tokens: 196 },
  system_fingerprint: 'fp_f85bea6784',
});

const PASSAGES: LlmPassage[] = [
  { id: 3, speaker: 1, start: 12.5, end: 16.2, text: 'A full remodel starts at twelve thousand dollars.' },
  { id: 4, speaker: 2, start: 16.8, end: 18.1, text: 'Okay, please book me for Monday.' },
];

beforeAll(async () => {
  standIn = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = {} as ChatRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      } catch (e) {
        if (!(e instanceof SyntaxError)) throw e;
      }
      const s: Seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      const r: Reply =
        s.path !== '/v1/chat/completions' || s.method !== 'POST'
          ? { status: 404, body: { error: { message: 'Not found', type: 'invalid_request_error' } } }
          : req.headers.authorization !== 'Bearer sk-test'
            ? {
                status: 401,
                body: { error: { message: 'Incorrect API key provided: sk-wrong.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
              }
            : reply(s);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status, { 'content-type': r.raw ? 'text/html' : 'application/json' });
        res.end(r.raw ?? JSON.stringify(r.body));
      };
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((r) => standIn.close(r));
});
beforeEach(() => {
  seen.length = 0;
});

const model = (over: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) =>
  openAiCompatibleModel({ apiKey: 'sk-test', baseUrl: base, model: 'gpt-4o-mini', timeoutMs: 5000, ...over });

describe('openAiCompatibleModel against POST /v1/chat/completions', () => {
  it('sends the model and the numbered passages with the bearer key, and answers with the passages it cites', async () => {
    reply = () => ({ status: 200, body: completion('A full remodel starts at $12,000 [3].') });
    const a = await model().answer('What price did we quote?', PASSAGES);
    expect(a).toEqual({ answer: 'A full remodel starts at $12,000.', found: true, cited: [3] });

    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body.model).toBe('gpt-4o-mini');
    expect(req.body.temperature).toBe(0);
    expect(req.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(req.body.messages[0]!.content).toMatch(/ONLY the numbered transcript passages/);
    expect(req.body.messages[1]!.content).toBe(
      'Transcript passages:\n[3] (Agent, 12.5s) A full remodel starts at twelve thousand dollars.\n[4] (Client, 16.8s) Okay, please book me for Monday.\n\nQuestion: What price did we quote?',
    );
  });

  it('NOT_FOUND, an empty answer, or an answer citing no given passage is "not found"; no passages sends nothing', async () => {
    for (const content of ['NOT_FOUND', '', null, 'They paid $9,000 [7].', 'About twelve thousand dollars.']) {
      reply = () => ({ status: 200, body: completion(content) });
      expect(await model().answer('What price did we quote?', PASSAGES)).toEqual({ answer: '', found: false, cited: [] });
    }
    seen.length = 0;
    expect(await model().answer('Anything?', [])).toEqual({ answer: '', found: false, cited: [] });
    expect(seen).toHaveLength(0);
  });

  it('429, 5xx and a bad key throw LlmUnavailableError with the status and the provider’s message', async () => {
    const cases = [
      [429, 'Rate limit reached for gpt-4o-mini in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1.', 'rate_limit_exceeded'],
      [500, 'The server had an error while processing your request. Sorry about that!', 'server_error'],
      [503, 'The engine is currently overloaded, please try again later', 'server_error'],
    ] as const;
    for (const [status, message, code] of cases) {
      reply = () => ({ status, body: { error: { message, type: code, param: null, code } } });
      const e = await model()
        .answer('What price?', PASSAGES)
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(LlmUnavailableError);
      expect(e).toMatchObject({ status, message: `The language model answered HTTP ${status}: ${message}` });
    }
    const e401 = await model({ apiKey: 'sk-wrong' })
      .answer('What price?', PASSAGES)
      .catch((x: unknown) => x);
    expect(e401).toMatchObject({
      name: 'LlmUnavailableError',
      status: 401,
      message: 'The language model answered HTTP 401: Incorrect API key provided: sk-wrong.',
    });
  });

  it('a timeout, an unreachable host and a body that is not a completion throw LlmUnavailableError (status 0)', async () => {
    reply = () => ({ status: 200, body: completion('late [3]'), delayMs: 3000 });
    const started = Date.now();
    const slow = await model({ timeoutMs: 300 })
      .answer('What price?', PASSAGES)
      .catch((x: unknown) => x);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(slow).toBeInstanceOf(LlmUnavailableError);
    expect(slow).toMatchObject({ status: 0, message: 'The language model did not answer within 300 ms' });

    const down = await model({ baseUrl: 'http://127.0.0.1:9/v1' })
      .answer('What price?', PASSAGES)
      .catch((x: unknown) => x);
    expect(down).toBeInstanceOf(LlmUnavailableError);
    expect(down).toMatchObject({ status: 0 });
    expect((down as Error).message).toMatch(/^The language model could not be reached/);

    reply = () => ({ status: 200, body: null, raw: '<html><body>Gateway login</body></html>' });
    expect(
      await model()
        .answer('What price?', PASSAGES)
        .catch((x: unknown) => x),
    ).toBeInstanceOf(LlmUnavailableError);
    reply = () => ({ status: 200, body: { object: 'list', data: [] } });
    expect(
      await model()
        .answer('What price?', PASSAGES)
        .catch((x: unknown) => x),
    ).toMatchObject({ message: 'The language model answered without choices' });
  });
});

describe('LLM settings', () => {
  it('loadConfig reads LLM_* with the documented defaults; languageModel picks the adapter from them', () => {
    const offline = loadConfig({});
    expect(offline.llm).toEqual({ apiKey: '', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', timeoutMs: 20_000 });
    expect(languageModel(offline)).toBe(offlineModel);

    const hosted = loadConfig({
      LLM_API_KEY: 'sk-x',
      LLM_BASE_URL: 'http://llm.internal:8000/v1/',
      LLM_MODEL: 'llama-3.1-8b-instruct',
      LLM_TIMEOUT_MS: '5000',
    });
    expect(hosted.llm).toEqual({ apiKey: 'sk-x', baseUrl: 'http://llm.internal:8000/v1', model: 'llama-3.1-8b-instruct', timeoutMs: 5000 });
    const m = languageModel(hosted);
    expect(m.engine).toBe('llm');
    expect(languageModel(hosted)).toBe(m);

    // Empty values mean the defaults, as before the settings moved into loadConfig.
    expect(loadConfig({ LLM_BASE_URL: '', LLM_MODEL: '' }).llm).toMatchObject({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' });
    expect(() => loadConfig({ LLM_BASE_URL: 'api.openai.com/v1' })).toThrow(/LLM_BASE_URL/);
    expect(() => loadConfig({ LLM_TIMEOUT_MS: 'soon' })).toThrow(/LLM_TIMEOUT_MS/);
  });
});

describe('POST /api/calls/{id}/converse with a configured language model', () => {
  let s: TestServer;
  let owner: Account;
  const SCRIPT = [
    { speaker: 'caller', text: 'Hello, I would like a quote for a kitchen remodel.' },
    { speaker: 'agent', text: 'Sure, the price is twelve thousand dollars.' },
    { speaker: 'caller', text: 'Great, please book me for Monday.' },
  ];

  beforeAll(async () => {
    s = await startTestServer({ llm: { apiKey: 'sk-test', baseUrl: base, model: 'gpt-4o-mini', timeoutMs: 1000 } });
    owner = await createAccount(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers with the hosted model from the config, and with the offline engine when it answers 429 or times out', async () => {
    const found = await owner.client.get('/api/numbers/search?type=local&areaCode=415&limit=20');
    const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
    const n = (await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number })).body;
    const put = await owner.client.put(`/api/numbers/${n.id}`, {
      routes: [{ forwards: [{ number: '6465550101' }] }],
      record: true,
      call_transcription_enabled: true,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const r = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: n.number, script: SCRIPT });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const call = await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', r.body.sid).executeTakeFirstOrThrow();
    await eventually(async () => (await owner.client.get(`/api/calls/${call.id}?include=transcription`)).body.transcription?.state === 'complete', 30_000);
    const ask = () => owner.client.post(`/api/calls/${call.id}/converse`, { message: 'What price did we quote?' });

    reply = (req) => {
      const id = /\[(\d+)\] \(Agent[^)]*\) Sure, the price/.exec(req.body.messages[1]!.content)?.[1];
      return { status: 200, body: completion(`We quoted twelve thousand dollars [${id}].`) };
    };
    const hosted = await ask();
    expect(hosted.status, JSON.stringify(hosted.body)).toBe(200);
    expect(hosted.body.data).toMatchObject({ engine: 'llm', found: true, answer: 'We quoted twelve thousand dollars.' });
    expect(hosted.body.data.sources).toEqual([expect.objectContaining({ speaker: 1, text: SCRIPT[1]!.text })]);
    expect(seen.at(-1)!.body.model).toBe('gpt-4o-mini');

    reply = () => ({ status: 429, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } });
    const limited = await ask();
    expect(limited.body.data).toMatchObject({ engine: 'offline', found: true });
    expect(limited.body.data.answer).toMatch(/twelve thousand dollars/i);

    reply = () => ({ status: 200, body: completion('late'), delayMs: 3000 });
    const late = await ask();
    expect(late.body.data).toMatchObject({ engine: 'offline', found: true });
  }, 90_000);
});
