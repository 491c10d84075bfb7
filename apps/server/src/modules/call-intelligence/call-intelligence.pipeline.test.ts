/**
 * End to end through the recording and transcription pipeline (docs/transcription.md, docs/call-intelligence.md):
 * a recorded simulator call is transcribed, `transcript.changed` indexes it, the search finds a phrase the caller
 * said, the question about it is answered with the right passage, and the number's AI attributes run on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let owner: Account;

const SCRIPT = [
  { speaker: 'caller', text: 'Hello, I would like a quote for a kitchen remodel.' },
  { speaker: 'agent', text: 'Sure, the price is twelve thousand dollars.' },
  { speaker: 'caller', text: 'Great, please book me for Monday.' },
];

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('a transcribed simulator call', () => {
  it('is found by a phrase the caller said, answers a question with the passage, gets its AI attributes', async () => {
    const found = await owner.client.get('/api/numbers/search?type=local&areaCode=415&limit=20');
    const pick = found.body.data[0];
    const n = (await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number })).body;
    const put = await owner.client.put(`/api/numbers/${n.id}`, {
      routes: [{ forwards: [{ number: '6465550101' }] }],
      record: true,
      call_transcription_enabled: true,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // AI attributes on (record and transcription stay as they are once it is on: spec 002 §5).
    expect((await owner.client.put(`/api/numbers/${n.id}`, { ai_eav_enabled: true })).body.data).toMatchObject({ record: true, ai_eav_enabled: true });
    const rule = await owner.client.post(`/api/companies/${owner.companyId}/ai-rules`, {
      name: 'Booked',
      target: 'qualification',
      value: 'lead',
      keywords: ['book me'],
      speaker: 2,
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);

    const r = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: n.number, script: SCRIPT });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const call = await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', r.body.sid).executeTakeFirstOrThrow();

    await eventually(async () => {
      const d = await owner.client.get(`/api/calls/${call.id}?include=transcription`);
      return d.body.transcription?.state === 'complete';
    }, 30_000);
    const hit = await eventually(async () => {
      const q = new URLSearchParams({ company_id: String(owner.companyId), q: '"kitchen remodel"', speaker: 'client' });
      const res = await owner.client.get(`/api/calls/search?${q}`);
      return res.body.data?.length ? res.body.data[0] : null;
    }, 30_000);
    expect(hit.call_id).toBe(Number(call.id));
    expect(hit.passages[0].highlighted).toBe('Hello, I would like a quote for a <mark>kitchen</mark> <mark>remodel</mark>.');

    const answer = await owner.client.post(`/api/calls/${call.id}/converse`, { message: 'What price did we quote?' });
    expect(answer.body.data.found).toBe(true);
    expect(answer.body.data.answer).toMatch(/twelve thousand dollars/i);
    expect(answer.body.data.sources[0]).toMatchObject({ speaker: 1, text: SCRIPT[1]!.text });

    const detail = await eventually(async () => {
      const d = await owner.client.get(`/api/calls/${call.id}`);
      return d.body.qualification === 3 ? d.body : null;
    }, 10_000);
    expect(detail.qualification).toBe(3);
  }, 60_000);
});
