/**
 * The activity feed through the real server: a call placed with the sandbox simulator and
 * messages in both directions, merged newest first, filtered and paged; notes on the call (flag
 * `notes`, off by default) as items of kind `note`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let b: Account;
let number: { id: number; number: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  b = await createAccount(s);
  number = await buyTestNumber(a, '212');
  const call = await a.client.post('/api/simulator/calls', { from: '+13125557777', to: number.number });
  expect(call.status, JSON.stringify(call.body)).toBe(200);
  await new Promise((r) => setTimeout(r, 20));
  const r = await postWebhook(s, '/webhooks/twilio/messaging', {
    MessageSid: 'SMactivity00000000000000000000001',
    From: '+13125558888',
    To: number.number,
    Body: 'Need a quote',
    NumMedia: '0',
  });
  expect(r.status).toBe(200);
  await new Promise((r2) => setTimeout(r2, 20));
  const sent = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125558888', content: 'Sure, what model?' });
  expect(sent.status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

describe('GET /api/activity', () => {
  it('merges calls and messages newest first with the page meta', async () => {
    const r = await eventually(async () => {
      const res = await a.client.get(`/api/activity?company=${a.companyId}`);
      return res.body?.meta?.total === 3 ? res : null;
    });
    expect(r.body.meta).toEqual({ current_page: 1, per_page: 10, total: 3, last_page: 1, show_progress: false });
    const [out, inbound, call] = r.body.data;
    expect(out).toMatchObject({
      kind: 'message',
      direction: 'outbound',
      from: number.number,
      to: '+13125558888',
      content: 'Sure, what model?',
      number: { id: number.id, number: number.number },
    });
    expect(out.id).toMatch(/^message-\d+$/);
    expect(out.conversation_id).toEqual(expect.any(Number));
    expect(inbound).toMatchObject({
      kind: 'message',
      direction: 'inbound',
      from: '+13125558888',
      to: number.number,
      content: 'Need a quote',
      delivery_state: 'received',
    });
    expect(call.kind === 'call' || call.kind === 'voicemail').toBe(true);
    expect(call).toMatchObject({ from: '+13125557777', to: number.number, direction: 'inbound', number: { id: number.id, number: number.number } });
    expect(call.id).toMatch(/^(call|voicemail)-\d+$/);
    expect(call.status_label).toEqual(expect.any(String));
  });

  it('filters by kind (JSON-encoded and bracket objects) and pages', async () => {
    const onlyMessages = await a.client.get(
      `/api/activity?company=${a.companyId}&filter=${encodeURIComponent(JSON.stringify({ calls: false, voicemails: false }))}`,
    );
    expect(onlyMessages.status).toBe(200);
    expect(onlyMessages.body.data.map((i: any) => i.kind)).toEqual(['message', 'message']);
    const noMessages = await a.client.get(`/api/activity?company=${a.companyId}&filter[messages]=0`);
    expect(noMessages.body.data.every((i: any) => i.kind !== 'message')).toBe(true);
    expect(noMessages.body.meta.total).toBe(1);
    const p2 = await a.client.get(`/api/activity?company=${a.companyId}&page=2&per_page=2`);
    expect(p2.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2, show_progress: true });
    expect(p2.body.data).toHaveLength(1);
    expect(p2.body.data[0].kind === 'call' || p2.body.data[0].kind === 'voicemail').toBe(true);
  });

  it('takes the report filters: calls picked in the reporting store, messages by dates only', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const firstContacts = await eventually(async () => {
      const res = await a.client.get(`/api/activity?company=${a.companyId}&tz=UTC&filter[isFirstContact]=1`);
      return res.body?.meta?.total === 1 ? res : null;
    });
    // A call-only filter leaves the messages out; the call carries its reporting fields.
    expect(firstContacts.body.data.map((i: any) => i.kind)).toHaveLength(1);
    expect(['call', 'voicemail']).toContain(firstContacts.body.data[0].kind);
    expect(firstContacts.body.data[0]).toMatchObject({ from: '+13125557777', is_first_contact: true });
    expect(firstContacts.body.data[0].answer_status).toEqual(expect.any(String));
    const notFirst = await a.client.get(`/api/activity?company=${a.companyId}&tz=UTC&filter[isFirstContact]=0`);
    expect(notFirst.body.meta.total).toBe(0);
    const blocked = await a.client.get(`/api/activity?company=${a.companyId}&filter=${encodeURIComponent(JSON.stringify({ answerStatus: ['blocked'] }))}`);
    expect(blocked.body).toMatchObject({ data: [], meta: { total: 0 } });
    // Dates keep messages and calls of those local days.
    const around = await a.client.get(`/api/activity?company=${a.companyId}&tz=UTC&filter[dates][from]=${day(-1)}&filter[dates][to]=${day(1)}`);
    expect(around.body.meta.total).toBe(3);
    const past = await a.client.get(`/api/activity?company=${a.companyId}&tz=UTC&filter[dates][from]=2020-01-01&filter[dates][to]=2020-01-31`);
    expect(past.body.meta.total).toBe(0);
    const byNumber = await a.client.get(`/api/activity?company=${a.companyId}&filter[number_ids][]=${number.id}&filter[messages]=0`);
    expect(byNumber.body.data.map((i: any) => i.kind).every((k: string) => k === 'call' || k === 'voicemail')).toBe(true);
    // An unknown tracked visit has no items.
    const session = await a.client.get(`/api/activity?company=${a.companyId}&filter[dniSessionId]=6f1d1c8e-3b7a-4c52-9a3e-0d2b9f0c1a11`);
    expect(session.body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await a.client.get(`/api/activity?company=${a.companyId}&filter[minDuration]=-5`)).status).toBe(422);
    expect((await a.client.get(`/api/activity?company=${a.companyId}&filter[dates][from]=2026-02-30`)).status).toBe(422);
  });

  it('notes=1 adds the company’s notes as items of kind note (off by default), by dates only', async () => {
    const feed = await a.client.get(`/api/activity?company=${a.companyId}&filter[messages]=0&per_page=5`);
    const callId = feed.body.data[0].call_id as number;
    expect(callId).toEqual(expect.any(Number));
    const first = await a.client.post('/api/notes', { model_type: 'call', model_id: callId, body: 'Wants a quote for two cars' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    await new Promise((r) => setTimeout(r, 20));
    const second = await a.client.post('/api/notes', { model_type: 'call', model_id: callId, body: 'Called back, quote sent' });
    expect(second.status).toBe(201);

    const withNotes = await a.client.get(`/api/activity?company=${a.companyId}&filter[notes]=1&per_page=20`);
    expect(withNotes.status).toBe(200);
    expect(withNotes.body.meta.total).toBe(5);
    expect(withNotes.body.data.map((i: any) => i.kind).slice(0, 2)).toEqual(['note', 'note']);
    const [newest, older] = withNotes.body.data;
    expect(newest).toMatchObject({
      id: `note-${second.body.data.id}`,
      kind: 'note',
      content: 'Called back, quote sent',
      call_id: callId,
      from: '+13125557777',
      to: number.number,
      direction: 'inbound',
      number: { id: number.id, number: number.number },
      note: { id: second.body.data.id, model_type: 'call', model_id: callId, user_id: a.userId, user_name: expect.any(String) },
    });
    expect(newest.note.user_name.length).toBeGreaterThan(0);
    expect(older).toMatchObject({ id: `note-${first.body.data.id}`, content: 'Wants a quote for two cars' });

    // Only notes; off by default (the spec's flags); dates keep them, a number filter leaves them out.
    const onlyNotes = { calls: false, voicemails: false, messages: false, faxes: false, trackingmatch: false, notes: true };
    const only = await a.client.get(`/api/activity?company=${a.companyId}&filter=${encodeURIComponent(JSON.stringify(onlyNotes))}`);
    expect(only.body.data.map((i: any) => i.content)).toEqual(['Called back, quote sent', 'Wants a quote for two cars']);
    expect(only.body.meta.total).toBe(2);
    const paged = await a.client.get(`/api/activity?company=${a.companyId}&filter[notes]=1&page=2&per_page=4`);
    expect(paged.body.meta).toMatchObject({ total: 5, last_page: 2 });
    expect(paged.body.data).toHaveLength(1);
    const byDefault = await a.client.get(`/api/activity?company=${a.companyId}&per_page=20`);
    expect(byDefault.body.data.some((i: any) => i.kind === 'note')).toBe(false);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await a.client.get(
      `/api/activity?company=${a.companyId}&tz=UTC&filter[notes]=1&filter[calls]=0&filter[voicemails]=0&filter[messages]=0&filter[dates][from]=${today}&filter[dates][to]=${today}`,
    );
    expect(dated.body.data.filter((i: any) => i.kind === 'note')).toHaveLength(2);
    const past = await a.client.get(`/api/activity?company=${a.companyId}&tz=UTC&filter[notes]=1&filter[dates][from]=2020-01-01&filter[dates][to]=2020-01-31`);
    expect(past.body.meta.total).toBe(0);
    const byNumber = await a.client.get(`/api/activity?company=${a.companyId}&filter[notes]=1&filter[number_ids][]=${number.id}`);
    expect(byNumber.body.data.some((i: any) => i.kind === 'note')).toBe(false);
    // Another company never sees them.
    expect((await b.client.get(`/api/activity?company=${b.companyId}&filter[notes]=1`)).body.data).toEqual([]);
  });

  it("refuses another company's feed", async () => {
    expect((await b.client.get(`/api/activity?company=${a.companyId}`)).status).toBe(403);
    expect((await b.client.get(`/api/activity?company=${b.companyId}`)).body.data).toEqual([]);
    expect((await a.client.get('/api/activity')).status).toBe(422);
  });
});
