/**
 * Transcript search, questions about a call and AI attributes through the real server (docs/call-intelligence.md).
 * Calls are placed with the sandbox simulator; their facts are set for hand-computed expectations and their
 * transcripts indexed through `indexTranscript` (the shape `readTranscript` answers).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { indexTranscript, type TranscriptInput } from './call-intelligence.indexing.js';

let s: TestServer;
let a: Account;
let b: Account;
let agent: Account;
let numA: { id: number; number: string };
let numB: { id: number; number: string };
const calls: number[] = [];

function transcript(id: number, lines: Array<[speaker: number, text: string]>): TranscriptInput {
  return {
    id,
    state: 'complete',
    text: lines.map((l) => l[1]).join(' '),
    segments: lines.map(([speaker, t], i) => ({ channel: speaker === 2 ? 1 : 0, speaker, transcript: t, start: i * 5, end: i * 5 + 4.5 })),
  };
}

async function placeCall(acc: Account, from: string, to: string): Promise<number> {
  const r = await acc.client.post('/api/simulator/calls', { from, to });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const row = await eventually(() =>
    s.ctx.db.selectFrom('calls').select('id').where('from_number', '=', from).where('to_number', '=', to).orderBy('id', 'desc').executeTakeFirst(),
  );
  return Number(row.id);
}

const T1: Array<[number, string]> = [
  [1, 'Thanks for calling Main Street Motors, how can I help?'],
  [2, 'Hi, I need new brake pads for my truck.'],
  [1, 'We can do the brake job for $349 on Tuesday at 10am.'],
  [2, 'Yes, that works, please book the appointment.'],
];
const T2: Array<[number, string]> = [
  [1, 'Service department, this is Dana.'],
  [2, 'Do you sell winter tires? I need four.'],
  [1, 'We do, the brake pads are on sale too.'],
];
const T3: Array<[number, string]> = [
  [1, 'Parts counter.'],
  [2, 'Just checking your opening hours.'],
];

beforeAll(async () => {
  s = await startTestServer();
  [a, b, agent] = await Promise.all([createAccount(s, { timezone: 'America/New_York' }), createAccount(s), createAccount(s)]);
  await addCompanyMember(s.ctx, a.companyId, agent.userId, 'user');
  numA = await buyTestNumber(a, '212');
  numB = await buyTestNumber(a, '213');
  calls.push(await placeCall(a, '+13125550101', numA.number));
  calls.push(await placeCall(a, '+13125550102', numB.number));
  calls.push(await placeCall(a, '+13125550103', numA.number));
  // Facts for hand-computed expectations (UTC): call 1 on 2026-03-02 14:00 (09:00 New York), 300 s, qualified;
  // call 2 on 2026-03-03 03:30 (2026-03-02 22:30 New York), 60 s; call 3 on 2026-03-04 15:00, 20 s.
  const facts = [
    { started_at: new Date('2026-03-02T14:00:00Z'), duration_s: 300, qualification: 1 },
    { started_at: new Date('2026-03-03T03:30:00Z'), duration_s: 60, qualification: null },
    { started_at: new Date('2026-03-04T15:00:00Z'), duration_s: 20, qualification: 2 },
  ];
  for (const [i, id] of calls.entries()) await s.ctx.db.updateTable('calls').set(facts[i]!).where('id', '=', id).execute();
  expect(await indexTranscript(s.ctx, calls[0]!, a.companyId, transcript(9001, T1))).toBe(true);
  expect(await indexTranscript(s.ctx, calls[1]!, a.companyId, transcript(9002, T2))).toBe(true);
  expect(await indexTranscript(s.ctx, calls[2]!, a.companyId, transcript(9003, T3))).toBe(true);
  // Another company's call id is refused for this company.
  expect(await indexTranscript(s.ctx, calls[0]!, b.companyId, transcript(9004, T1))).toBe(false);
}, 90_000);

afterAll(async () => {
  await s?.close();
});

const search = (acc: Account, params: Record<string, string>, companyId = a.companyId) =>
  acc.client.get(`/api/calls/search?${new URLSearchParams({ company_id: String(companyId), ...params })}`);
const ids = (body: { data: Array<{ call_id: number }> }) => body.data.map((h) => h.call_id);

describe('GET /api/calls/search', () => {
  it('finds words (stemmed) ranked, with highlighted passages and the page meta', async () => {
    const r = await search(a, { q: 'brake' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // Call 1 says "brake" twice (agent) and once more in "brake pads"; call 2 once: call 1 ranks first.
    expect(ids(r.body)).toEqual([calls[0], calls[1]]);
    expect(r.body.meta).toEqual({ current_page: 1, per_page: 20, total: 2, last_page: 1 });
    const [first] = r.body.data;
    expect(first.rank).toBeGreaterThan(r.body.data[1].rank);
    expect(first.number).toEqual({ id: numA.id, number: numA.number, label: expect.any(String) });
    expect(first.caller).toBe('+13125550101');
    expect(first.local_started_at).toBe('2026-03-02 09:00:00');
    expect(first.passages.map((p: { highlighted: string }) => p.highlighted)).toEqual([
      'Hi, I need new <mark>brake</mark> pads for my truck.',
      'We can do the <mark>brake</mark> job for $349 on Tuesday at 10am.',
    ]);
    expect(first.passages[0]).toMatchObject({ speaker: 2, speaker_label: 'Client', start: 5, end: 9.5 });
  });

  it('quoted phrases match words in order only', async () => {
    expect(ids((await search(a, { q: '"brake pads"' })).body)).toEqual([calls[0], calls[1]]);
    expect(ids((await search(a, { q: '"pads brake"' })).body)).toEqual([]);
    expect(ids((await search(a, { q: '"winter tires"' })).body)).toEqual([calls[1]]);
  });

  it('speaker: only that speaker’s words match and only their passages show', async () => {
    // "pads": the client of call 1, the agent of call 2.
    const client = await search(a, { q: 'pads', speaker: 'client' });
    expect(ids(client.body)).toEqual([calls[0]]);
    expect(client.body.data[0].passages.every((p: { speaker: number }) => p.speaker === 2)).toBe(true);
    expect(ids((await search(a, { q: 'pads', speaker: '1' })).body)).toEqual([calls[1]]);
    expect(ids((await search(a, { q: 'pads', speaker: 'any' })).body).sort()).toEqual([calls[0], calls[1]].sort());
  });

  it('filters: numbers, dates with tz, minDuration, isQualified, callers, answerStatus', async () => {
    expect(ids((await search(a, { numbers: String(numB.id) })).body)).toEqual([calls[1]]);
    // 2026-03-02 in New York holds calls 1 (09:00) and 2 (22:30); in UTC only call 1.
    expect(ids((await search(a, { 'dates[from]': '2026-03-02', 'dates[to]': '2026-03-02' })).body)).toEqual([calls[1], calls[0]]);
    expect(ids((await search(a, { 'dates[from]': '2026-03-02', 'dates[to]': '2026-03-02', tz: 'UTC' })).body)).toEqual([calls[0]]);
    expect(ids((await search(a, { minDuration: '60' })).body)).toEqual([calls[1], calls[0]]);
    expect(ids((await search(a, { isQualified: '1' })).body)).toEqual([calls[0]]);
    expect(ids((await search(a, { isQualified: '0' })).body)).toEqual([calls[2], calls[1]]);
    expect(ids((await search(a, { callers: '(312) 555-0103' })).body)).toEqual([calls[2]]);
    const statuses = (await search(a, {})).body.data.map((h: { answer_status: string }) => h.answer_status);
    const first = statuses[0];
    expect(ids((await search(a, { answerStatus: first })).body).length).toBe(statuses.filter((x: string) => x === first).length);
  });

  it('tag_ids and answered_by follow the call (call.annotated refreshes the document)', async () => {
    const tag = await a.client.post(`/api/calls/${calls[2]}/tags/tags`, { tags: ['hours'] });
    expect(tag.status, JSON.stringify(tag.body)).toBe(200);
    const tagId = tag.body.data?.[0]?.id ?? tag.body[0]?.id;
    const hit = await eventually(async () => {
      const r = await search(a, { q: 'hours' });
      return r.body.data[0]?.tag_ids?.length ? r : null;
    });
    const id = tagId ?? hit.body.data[0].tag_ids[0];
    expect(ids((await search(a, { tag_ids: String(id) })).body)).toEqual([calls[2]]);
    expect(ids((await search(a, { answered_by: String(a.userId) })).body)).toEqual([]);
  });

  it('pages', async () => {
    const p1 = await search(a, { size: '2', page: '1' });
    const p2 = await search(a, { size: '2', page: '2' });
    expect(ids(p1.body)).toEqual([calls[2], calls[1]]);
    expect(ids(p2.body)).toEqual([calls[0]]);
    expect(p2.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
  });

  it('422s for bad input, 403 for another company, a user sees only their numbers', async () => {
    expect((await search(a, { tz: 'Mars/Base' })).status).toBe(422);
    expect((await search(a, { speaker: '7' })).status).toBe(422);
    expect((await search(a, { q: 'the and' })).body.errors).toHaveProperty('q');
    expect((await search(a, { callers: 'not-a-phone' })).status).toBe(422);
    expect((await search(a, { 'dates[from]': '2026-03-05', 'dates[to]': '2026-03-01' })).status).toBe(422);
    expect((await search(a, { size: '500' })).status).toBe(422);
    expect((await search(b, {}, a.companyId)).status).toBe(403);
    expect((await search(a, { companies: String(b.companyId) })).status).toBe(403);
    expect((await search(b, { q: 'brake' }, b.companyId)).body.data).toEqual([]);
    // The `user` sees nothing until a number is assigned, then that number's calls only.
    expect((await search(agent, {})).body.data).toEqual([]);
    expect((await a.client.put(`/api/companies/${a.companyId}/users/${agent.userId}`, { numbers: [numB.id] })).status).toBe(200);
    expect(ids((await search(agent, { q: 'brake' })).body)).toEqual([calls[1]]);
  });

  it('format=csv streams the hits; async=1 is an export job whose file arrives', async () => {
    const csv = await search(a, { q: 'brake', format: 'csv' });
    expect(csv.status).toBe(200);
    const text = typeof csv.body === 'string' ? csv.body : JSON.stringify(csv.body);
    const lines = text.trim().split(/\r\n/);
    expect(lines[0]).toBe('Call ID,Started at,Number,Caller,Direction,Duration (s),Answer status,Rank,Passages');
    expect(lines).toHaveLength(3);
    expect(lines[1]!.startsWith(`${calls[0]},2026-03-02 09:00:00,`)).toBe(true);
    const job = await search(a, { q: 'brake', format: 'csv', async: '1' });
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    expect(job.body.message).toBe('Your export has started. You will be notified when the file is ready to download.');
    const done = await eventually(async () => {
      const r = await a.client.get(`/api/calls/search/exports/${job.body.data.id}`);
      return r.body.data?.status === 'done' ? r.body.data : null;
    }, 20_000);
    expect(done.rows).toBe(2);
    expect(done.url).toEqual(expect.any(String));
    expect((await b.client.get(`/api/calls/search/exports/${job.body.data.id}`)).status).toBe(404);
  });
});

describe('GET /api/calls/search at scale (docs/call-intelligence.md "Search at scale")', () => {
  it('counts at most 2,001 hits (shown as 2,000+) and ranks a small match set exactly', async () => {
    // 10,050 documents of company B say "tires"; three older ones say "zebra" 1, 3 and 2 times.
    await sql`
      insert into call_search_docs (call_id, company_id, number_id, transcript_id, started_at, direction, caller,
                                    answer_status, segments, tsv_all, tsv_agent, tsv_client)
      select 50000000 + g, ${b.companyId}, 1, 50000000 + g, timestamptz '2026-01-01' + g * interval '1 minute', 'inbound',
             '+13125550199', 1, '[]'::jsonb, to_tsvector('english', 'winter tires'), to_tsvector('english', 'winter tires'), ''::tsvector
      from generate_series(1, 10050) g`.execute(s.ctx.db);
    const zebra = [
      [60000001, 'zebra stripes', '2025-01-03'],
      [60000002, 'zebra zebra zebra stripes', '2025-01-01'],
      [60000003, 'zebra zebra stripes', '2025-01-02'],
    ] as const;
    for (const [id, text, day] of zebra)
      await sql`
        insert into call_search_docs (call_id, company_id, number_id, transcript_id, started_at, direction, caller,
                                      answer_status, segments, tsv_all, tsv_agent, tsv_client)
        values (${id}, ${b.companyId}, 1, ${id}, ${new Date(day + 'T12:00:00Z')}, 'inbound', '+13125550199', 1, '[]'::jsonb,
                to_tsvector('english', ${text}), to_tsvector('english', ${text}), ''::tsvector)`.execute(s.ctx.db);

    const common = await search(b, { q: 'tires', size: '20' }, b.companyId);
    expect(common.status, JSON.stringify(common.body)).toBe(200);
    expect(common.body.meta).toEqual({ current_page: 1, per_page: 20, total: 2_001, last_page: 101 });
    expect(common.body.data).toHaveLength(20);
    // Equal ranks: newest first, the newest document is the last inserted.
    expect(common.body.data[0].call_id).toBe(50010050);
    // A page past the rank window (2,000) continues newest first.
    const past = await search(b, { q: 'tires', size: '100', page: '21' }, b.companyId);
    expect(past.status).toBe(200);
    expect(ids(past.body)[0]).toBe(50010050 - 2000);
    expect(past.body.data).toHaveLength(100);

    const rare = await search(b, { q: 'zebra' }, b.companyId);
    expect(rare.body.meta.total).toBe(3);
    expect(ids(rare.body)).toEqual([60000002, 60000003, 60000001]);

    const none = await search(b, {}, b.companyId);
    expect(none.body.meta.total).toBe(2_001);
  }, 60_000);

  it('a word in 1-10 % of the newest calls: the window is still the newest matches, and all of them when fewer', async () => {
    // 60,000 calls of a new company one minute apart; every 25th says "gearbox" (2,400: 4 % of the newest, so the
    // window is looked for in the newest weeks).
    const c = await createAccount(s);
    await sql`
      insert into call_search_docs (call_id, company_id, number_id, transcript_id, started_at, direction, caller,
                                    answer_status, segments, tsv_all, tsv_agent, tsv_client)
      select 70000000 + g, ${c.companyId}, 1, 70000000 + g, timestamptz '2026-06-01' + g * interval '1 minute', 'inbound',
             '+13125550199', 1, '[]'::jsonb, v, v, ''::tsvector
      from generate_series(1, 60000) g,
           to_tsvector('english', case when g % 25 = 0 then 'the gearbox grinds' when g % 30 = 0 then 'the clutch slips' else 'a quiet line' end) v`.execute(
      s.ctx.db,
    );
    await sql`analyze call_search_docs`.execute(s.ctx.db);
    const gearbox = await search(c, { q: 'gearbox', size: '100' }, c.companyId);
    expect(gearbox.body.meta.total).toBe(2_001);
    expect(ids(gearbox.body)[0]).toBe(70060000);
    expect(ids(gearbox.body)[99]).toBe(70060000 - 99 * 25);
    // The last page of the window and the first past it: the 2,001st newest match, then older ones.
    const past = await search(c, { q: 'gearbox', size: '100', page: '21' }, c.companyId);
    expect(ids(past.body)[0]).toBe(70060000 - 2000 * 25);
    expect(ids(past.body)[1]).toBe(70060000 - 2001 * 25);
    // "clutch": 1,600 calls (every 30th that is not a 25th); the probe's rate bounds the first try to the newest weeks,
    // which hold them all, so fewer than a window: read again over every match. The last page is the oldest ten.
    const clutchIds = Array.from({ length: 60000 }, (_, i) => i + 1)
      .filter((g) => g % 30 === 0 && g % 25 !== 0)
      .map((g) => 70000000 + g)
      .reverse();
    const clutch = await search(c, { q: 'clutch', size: '10', page: '160' }, c.companyId);
    expect(clutch.body.meta).toEqual({ current_page: 160, per_page: 10, total: 1_600, last_page: 160 });
    expect(ids(clutch.body)).toEqual(clutchIds.slice(1590));
  }, 90_000);
});

describe('POST /api/calls/{id}/converse', () => {
  const ask = (acc: Account, id: number, message: string) => acc.client.post(`/api/calls/${id}/converse`, { message });

  it('answers a price question with the amount and the passage it rests on', async () => {
    const r = await ask(a, calls[0]!, 'What price did we quote?');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ found: true, engine: 'offline' });
    expect(r.body.data.answer).toContain('$349');
    expect(r.body.data.sources).toEqual([{ speaker: 1, speaker_label: 'Agent', start: 10, end: 14.5, text: T1[2]![1] }]);
  });

  it('answers a yes/no question from the reply', async () => {
    const r = await ask(a, calls[0]!, 'Did they book the appointment?');
    expect(r.body.data.found).toBe(true);
    expect(r.body.data.answer.startsWith('Yes')).toBe(true);
    expect(r.body.data.sources.map((x: { start: number }) => x.start)).toContain(15);
  });

  it('answers when with the day and time', async () => {
    const r = await ask(a, calls[0]!, 'When is the brake job?');
    expect(r.body.data.found).toBe(true);
    expect(r.body.data.answer).toMatch(/Tuesday|10am/);
  });

  it('says plainly when the transcript does not contain the answer', async () => {
    const r = await ask(a, calls[2]!, 'What price did we quote?');
    expect(r.body.data).toEqual({
      question: 'What price did we quote?',
      answer: 'The transcript does not contain the answer to this question.',
      found: false,
      sources: [],
      engine: 'offline',
    });
    expect((await ask(a, calls[1]!, 'What colour is the car?')).body.data.found).toBe(false);
  });

  it('422 without a message, 404 for another company’s call', async () => {
    expect((await a.client.post(`/api/calls/${calls[0]}/converse`, {})).status).toBe(422);
    expect((await ask(b, calls[0]!, 'What price?')).status).toBe(404);
  });
});

describe('AI attributes', () => {
  it('rules: CRUD with 422s and roles; applied when a transcript completes; recalculated on PATCH', async () => {
    const field = await a.client.post('/api/eavEntityTypes/6/eavAttributes', { name: 'Call outcome', type: 'text', companyId: a.companyId });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const fieldId = field.body.data.id;
    const base = `/api/companies/${a.companyId}/ai-rules`;
    expect((await a.client.post(base, { name: 'x', target: 'outcome', value: 'appt_booked', keywords: ['book'] })).body.errors).toHaveProperty('attribute_id');
    expect((await a.client.post(base, { name: 'x', target: 'outcome', value: 'sold', attribute_id: fieldId, keywords: ['book'] })).body.errors).toHaveProperty(
      'value',
    );
    expect((await a.client.post(base, { name: 'x', target: 'qualification', value: 'lead', keywords: [] })).status).toBe(422);
    expect((await b.client.post(base, { name: 'x', target: 'qualification', value: 'lead', keywords: ['a'] })).status).toBe(403);
    expect((await agent.client.post(base, { name: 'x', target: 'qualification', value: 'lead', keywords: ['a'] })).status).toBe(403);
    const booked = await a.client.post(base, {
      name: 'Booked',
      target: 'outcome',
      value: 'appt_booked',
      attribute_id: fieldId,
      keywords: ['book the appointment'],
      speaker: 2,
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const lead = await a.client.post(base, { name: 'Lead', target: 'qualification', value: 'lead', keywords: ['brake pads'] });
    expect(lead.status).toBe(201);
    expect((await a.client.get(base)).body.data.map((r: { name: string }) => r.name)).toEqual(['Booked', 'Lead']);
    expect((await b.client.put(`/api/companies/${b.companyId}/ai-rules/${lead.body.data.id}`, lead.body.data)).status).toBe(404);

    // Recalculation on PATCH: call 1 says both.
    const p = await a.client.patch(`/api/calls/${calls[0]}`, { recalculateAiAttributes: true });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const call = await a.client.get(`/api/calls/${calls[0]}?include=eavAttributeValues`);
    expect(call.body.qualification ?? call.body.data?.qualification).toBe(3);
    expect(JSON.stringify(call.body)).toContain('appt_booked');
    // Call 3 says neither: unchanged (not qualified stays).
    await a.client.patch(`/api/calls/${calls[2]}`, { recalculateAiAttributes: true });
    const c3 = await a.client.get(`/api/calls/${calls[2]}`);
    expect(c3.body.qualification ?? c3.body.data?.qualification).toBe(2);
    // The search document follows the new qualification.
    await eventually(
      async () => ids((await search(a, { isQualified: '1' })).body).length === 1 && ids((await search(a, { isQualified: '1' })).body)[0] === calls[0],
    );
    expect((await a.client.delete(`${base}/${lead.body.data.id}`)).status).toBe(200);
    expect((await a.client.delete(`${base}/${lead.body.data.id}`)).status).toBe(404);
  });
});
