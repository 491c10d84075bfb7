/**
 * The reporting store and its reports through the real server (docs/analytics.md): a seeded set of
 * calls across the spring daylight-saving change of America/New_York (2026-03-08 02:00 EST → 03:00
 * EDT), two companies (nothing leaks) and a business unit holding a second company of the same person.
 * Expectations are computed by hand from the seed below.
 *
 * Seed (local New York time; company A, numbers n1 and n2):
 *   c0  n1  Thu 03-05 12:00 EST  +13125550009  answered after 4 s, 50 s           (comparison range)
 *   c1  n1  Sat 03-07 23:30 EST  +13125550001  answered after 10 s, 100 s, IL, ext 1, google_ads, pool 77, first contact
 *   c2  n1  Sun 03-08 01:30 EST  +13125550002  no answer, NY
 *   c3  n1  Sun 03-08 03:30 EDT  +13125550001  answered after 20 s, 200 s, IL, organic (first touch google_ads), pool 77, not first
 *   c4  n2  Sun 03-08 22:00 EDT  +14155550003  voicemail, 30 s, CA          (03-09 in UTC)
 *   c5  n2  Mon 03-09 10:15 EDT  +14155550004  answered in the app by A after 5 s, 60 s, tag VIP, lead, direct
 *   c6  company B, Sun 03-08 12:00 EDT; c7 company A2 (A's business unit), Sun 03-08 08:00 EDT
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { sql } from 'kysely';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { events } from '../../platform/events/index.js';
import { EXPORT_COLUMNS } from '@switchboard/contracts';
import { csvChunks } from './analytics.exports.js';
import { offsetSegments } from './analytics.time.js';
import { countCalls, flushFactRebuilds, lastCallAtByNumber, rebuildFacts, reconcileFacts } from './analytics.service.js';

let s: TestServer;
let a: Account;
let b: Account;
let n1: { id: number; number: string };
let n2: { id: number; number: string };
let nb: { id: number; number: string };
let a2: number;
let na2: number;
let org: number;
let tagVip: number;
const c: Record<string, number> = {};

const TZ = 'America/New_York';
const RANGE = 'dates[from]=2026-03-07&dates[to]=2026-03-09';

type Seed = {
  company: number;
  number: { id: number; number: string };
  at: string;
  from: string;
  status: number;
  answerAfter?: number;
  duration?: number;
  state?: string | null;
  extension?: number | null;
  qualification?: number | null;
};

/**
 * Rows that differ between each rollup (hours, numbers, sources, pools; then the same per UTC day)
 * and the same GROUP BY over the company's facts (both directions of EXCEPT): eight zeros when every
 * rollup equals the facts.
 */
async function rollupMismatches(companyId: number): Promise<number[]> {
  const measures = `count(*)::int, count(*) filter (where answer_status = 1)::int, count(*) filter (where answer_status = 2)::int,
    count(*) filter (where answer_status = 3)::int, count(*) filter (where answer_status = 4)::int,
    count(*) filter (where is_first_contact)::int, count(*) filter (where is_qualified)::int, count(*) filter (where is_lead)::int,
    sum(duration_s)::bigint, sum(case when answer_status = 1 then duration_s else 0 end)::bigint,
    sum(case when answer_status = 1 and answer_time_s is not null then answer_time_s else 0 end)::bigint,
    count(*) filter (where answer_status = 1 and answer_time_s is not null)::int`;
  const stored = `calls, answered, missed, voicemails, blocked, first_time, qualified, leads, duration_s::bigint,
    answered_duration_s::bigint, answer_time_s::bigint, answer_time_n`;
  const tables: Array<[string, string, 'hour' | 'day']> = [
    ['call_rollup_hours', '', 'hour'],
    ['call_rollup_hour_numbers', 'number_id', 'hour'],
    ['call_rollup_hour_sources', 'traffic_source', 'hour'],
    ['call_rollup_hour_pools', 'coalesce(dni_pool_id, 0)', 'hour'],
    ['call_rollup_days', '', 'day'],
    ['call_rollup_day_numbers', 'number_id', 'day'],
    ['call_rollup_day_sources', 'traffic_source', 'day'],
    ['call_rollup_day_pools', 'coalesce(dni_pool_id, 0)', 'day'],
  ];
  const out: number[] = [];
  for (const [table, dim, unit] of tables) {
    const storedDim = dim === '' ? '' : `, ${dim.startsWith('coalesce') ? 'dni_pool_id' : dim}`;
    const fromFacts = `select date_trunc('${unit}', started_at, 'UTC') as t ${dim ? `, ${dim}` : ''}, ${measures} from call_facts
      where company_id = ${companyId} group by 1 ${dim ? ', 2' : ''}`;
    const fromRollup = `select ${unit} ${storedDim}, ${stored} from ${table} where company_id = ${companyId}`;
    const r = await sql<{ n: string }>`select (select count(*) from (${sql.raw(fromFacts)} except all ${sql.raw(fromRollup)}) x)
      + (select count(*) from (${sql.raw(fromRollup)} except all ${sql.raw(fromFacts)}) y) as n`.execute(s.ctx.db);
    out.push(Number(r.rows[0]!.n));
  }
  return out;
}

let sidSeq = 0;
async function insertCall(x: Seed): Promise<number> {
  const started = new Date(x.at);
  const row = await s.ctx.db
    .insertInto('calls')
    .values({
      company_id: x.company,
      number_id: x.number.id,
      carrier_sid: `CAanalytics${Date.now()}${sidSeq++}`,
      from_number: x.from,
      to_number: x.number.number,
      from_state: x.state ?? null,
      direction: 'inbound',
      status: x.status,
      extension: x.extension ?? null,
      duration_s: x.duration ?? 0,
      started_at: started,
      answered_at: x.answerAfter !== undefined ? new Date(started.getTime() + x.answerAfter * 1000) : null,
      ended_at: new Date(started.getTime() + ((x.answerAfter ?? 0) + (x.duration ?? 0) + 1) * 1000),
      qualification: x.qualification ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

function attribute(callId: number, companyId: number, numberId: number, from: string, at: string, extra: Record<string, unknown>) {
  return events.publish(s.ctx, 'call.attributed', {
    callId,
    companyId,
    startedAt: at,
    from,
    numberId,
    isFirstContact: false,
    leadId: null,
    method: 'none',
    poolId: null,
    staticSourceId: null,
    sessionId: null,
    trafficSource: null,
    source: null,
    medium: null,
    campaign: null,
    keyword: null,
    landingPage: null,
    referrer: null,
    gclid: null,
    gbraid: null,
    wbraid: null,
    msclkid: null,
    fbclid: null,
    firstTouch: null,
    ...extra,
  } as never);
}

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { timezone: TZ });
  b = await createAccount(s, { timezone: TZ });
  n1 = await buyTestNumber(a, '212', 0);
  n2 = await buyTestNumber(a, '212', 1);
  nb = await buyTestNumber(b, '312', 0);
  const db = s.ctx.db;
  // n1 has one extension entry labelled Sales (docs/analytics.md "Extension labels").
  await db
    .updateTable('numbers')
    .set({ routes: JSON.stringify([{ extension: 1, label: 'Sales', forwards: [] }]) })
    .where('id', '=', n1.id)
    .execute();
  // A business unit holding A's company and a second company of A's.
  org = Number((await db.insertInto('organizations').values({ name: 'Unit' }).returning('id').executeTakeFirstOrThrow()).id);
  a2 = Number(
    (
      await db
        .insertInto('companies')
        .values({ name: 'A2', organization_id: org, timezone: TZ, help_text: '', quiet_hours_start: '21:00', quiet_hours_end: '08:00' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );
  await db.updateTable('companies').set({ organization_id: org }).where('id', '=', a.companyId).execute();
  await db.insertInto('company_users').values({ company_id: a2, user_id: a.userId, role: 'owner' }).execute();
  na2 = Number(
    (
      await db
        .insertInto('numbers')
        .values({
          company_id: a2,
          number: '+12125550999',
          label: 'A2 main',
          type: 1,
          service_type: 1,
          category: 1,
          provider_id: 1,
          routes: '[]',
          schedule: '{}',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );
  tagVip = Number((await db.insertInto('tags').values({ company_id: a.companyId, name: 'VIP' }).returning('id').executeTakeFirstOrThrow()).id);

  const A = a.companyId;
  c.c0 = await insertCall({ company: A, number: n1, at: '2026-03-05T17:00:00Z', from: '+13125550009', status: 12, answerAfter: 4, duration: 50 });
  c.c1 = await insertCall({
    company: A,
    number: n1,
    at: '2026-03-08T04:30:00Z',
    from: '+13125550001',
    status: 12,
    answerAfter: 10,
    duration: 100,
    state: 'IL',
    extension: 1,
  });
  c.c2 = await insertCall({ company: A, number: n1, at: '2026-03-08T06:30:00Z', from: '+13125550002', status: 5, state: 'NY' });
  c.c3 = await insertCall({
    company: A,
    number: n1,
    at: '2026-03-08T07:30:00Z',
    from: '+13125550001',
    status: 12,
    answerAfter: 20,
    duration: 200,
    state: 'IL',
  });
  c.c4 = await insertCall({ company: A, number: n2, at: '2026-03-09T02:00:00Z', from: '+14155550003', status: 4, duration: 30, state: 'CA' });
  c.c5 = await insertCall({
    company: A,
    number: n2,
    at: '2026-03-09T14:15:00Z',
    from: '+14155550004',
    status: 12,
    answerAfter: 5,
    duration: 60,
    qualification: 3,
  });
  c.c6 = await insertCall({
    company: b.companyId,
    number: nb,
    at: '2026-03-08T16:00:00Z',
    from: '+13125550001',
    status: 12,
    answerAfter: 3,
    duration: 40,
    state: 'IL',
  });
  c.c7 = await insertCall({ company: a2, number: { id: na2, number: '+12125550999' }, at: '2026-03-08T12:00:00Z', from: '+15555550007', status: 10 });
  await db
    .insertInto('voicemails')
    .values({ company_id: A, call_id: c.c4, number_id: n2.id, recording_url: 'https://example.test/vm.wav', duration_s: 30 })
    .execute();
  await db.insertInto('call_tags').values({ call_id: c.c5, tag_id: tagVip }).execute();
  await db
    .insertInto('in_app_calls')
    .values({ call_id: c.c5, company_id: A, carrier_sid: 'CAinapp-analytics', join_token: 'tok', answered_by: a.userId })
    .execute();

  // The calls were stored without events (as before migration 0018): the reconcile pass builds their facts.
  expect(await reconcileFacts(s.ctx)).toBeGreaterThanOrEqual(8);
  // Call tracking's word on three calls arrives as events.
  await attribute(c.c1, A, n1.id, '+13125550001', '2026-03-08T04:30:00Z', {
    isFirstContact: true,
    method: 'pool',
    poolId: 77,
    trafficSource: 'google_ads',
    source: 'google',
    medium: 'cpc',
    firstTouch: { trafficSource: 'google_ads', source: 'google', medium: 'cpc', campaign: null, keyword: null },
  });
  await attribute(c.c3, A, n1.id, '+13125550001', '2026-03-08T07:30:00Z', {
    isFirstContact: false,
    method: 'pool',
    poolId: 77,
    trafficSource: 'organic',
    source: 'bing',
    firstTouch: { trafficSource: 'google_ads', source: 'google', medium: 'cpc', campaign: null, keyword: null },
  });
  await attribute(c.c5, A, n2.id, '+14155550004', '2026-03-09T14:15:00Z', { isFirstContact: true, trafficSource: 'direct' });
  await flushFactRebuilds(s.ctx);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

const report = (account: Account, query: string) =>
  account.client.get(`/api/analytics/calls?company_id=${a.companyId}&timezone=${encodeURIComponent(TZ)}&${RANGE}&${query}`);
const strip = (rows: any[]) => rows.map(({ uniqueCallers: _u, ...r }: any) => r);

describe('GET /api/analytics/calls: groupings (America/New_York, across the spring change)', () => {
  it('number_day: calls per number and local day, with totals', async () => {
    const r = await report(a, 'group=number_day');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const rows = r.body.data.rows.map((x: any) => [x.numberId, x.day, x.calls, x.answered, x.missed, x.voicemails]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [n1.id, '2026-03-07', 1, 1, 0, 0],
        [n1.id, '2026-03-08', 2, 1, 1, 0],
        [n2.id, '2026-03-08', 1, 0, 0, 1],
        [n2.id, '2026-03-09', 1, 1, 0, 0],
      ]),
    );
    expect(rows).toHaveLength(4);
    const t = r.body.data.totals;
    expect(t).toMatchObject({
      calls: 5,
      answered: 3,
      missed: 1,
      voicemails: 1,
      blocked: 0,
      firstTimeCallers: 4,
      totalDurationS: 390,
      avgDurationS: 120,
      avgAnswerTimeS: 11.7,
      missedPct: 20,
      leads: 1,
      qualified: 1,
    });
    expect(r.body.data.range).toEqual({ from: '2026-03-07T05:00:00.000Z', to: '2026-03-10T04:00:00.000Z', fromDate: '2026-03-07', toDate: '2026-03-09' });
  });

  it('day_hour and hour_day: local hours, 02:00 skipped on 03-08', async () => {
    const dh = await report(a, 'group=day_hour');
    expect(dh.body.data.rows.map((x: any) => [x.day, x.hour, x.calls])).toEqual([
      ['2026-03-07', 23, 1],
      ['2026-03-08', 1, 1],
      ['2026-03-08', 3, 1],
      ['2026-03-08', 22, 1],
      ['2026-03-09', 10, 1],
    ]);
    const hd = await report(a, 'group=hour_day');
    expect(hd.body.data.rows.map((x: any) => [x.hour, x.day])).toEqual([
      [1, '2026-03-08'],
      [3, '2026-03-08'],
      [10, '2026-03-09'],
      [22, '2026-03-08'],
      [23, '2026-03-07'],
    ]);
    // The same calls in UTC: c4 falls on 03-09 at 02:00, c1 on 03-08 at 04:00.
    const utc = await a.client.get(`/api/analytics/calls?company_id=${a.companyId}&timezone=UTC&${RANGE}&group=day_hour`);
    expect(utc.body.data.rows.map((x: any) => [x.day, x.hour])).toEqual([
      ['2026-03-08', 4],
      ['2026-03-08', 6],
      ['2026-03-08', 7],
      ['2026-03-09', 2],
      ['2026-03-09', 14],
    ]);
  });

  it('number, geo, tag_day and answered_by_day', async () => {
    const num = await report(a, 'group=number');
    expect(num.body.data.rows.map((x: any) => [x.numberId, x.number, x.calls])).toEqual(
      expect.arrayContaining([
        [n1.id, n1.number, 3],
        [n2.id, n2.number, 2],
      ]),
    );
    expect(num.body.data.rows).toHaveLength(2);
    const geo = await report(a, 'group=geo');
    expect(geo.body.data.rows.map((x: any) => [x.geo, x.calls])).toEqual([
      ['CA', 1],
      ['IL', 2],
      ['NY', 1],
      ['', 1],
    ]);
    const tag = await report(a, 'group=tag_day');
    expect(tag.body.data.rows.map((x: any) => [x.tagName, x.day, x.calls])).toEqual([
      ['VIP', '2026-03-09', 1],
      ['', '2026-03-07', 1],
      ['', '2026-03-08', 3],
    ]);
    expect(tag.body.data.totals.calls).toBe(5);
    const who = await report(a, 'group=answered_by_day');
    expect(who.body.data.rows.map((x: any) => [x.answeredBy, x.answeredByName, x.day, x.calls])).toEqual([
      [a.userId, 'Test User', '2026-03-09', 1],
      [null, '', '2026-03-07', 1],
      [null, '', '2026-03-08', 3],
    ]);
  });

  it('trafficSource_day by last and first touch, dniPool_day', async () => {
    const last = await report(a, 'group=traffic_source_day');
    expect(last.body.data.rows.map((x: any) => [x.trafficSource, x.day, x.calls])).toEqual([
      ['direct', '2026-03-09', 1],
      ['google_ads', '2026-03-07', 1],
      ['organic', '2026-03-08', 1],
      ['', '2026-03-08', 2],
    ]);
    const first = await report(a, 'group=traffic_source_day&attributionModel=first_touch');
    expect(first.body.data.rows.map((x: any) => [x.trafficSource, x.day, x.calls])).toEqual([
      ['direct', '2026-03-09', 1],
      ['google_ads', '2026-03-07', 1],
      ['google_ads', '2026-03-08', 1],
      ['', '2026-03-08', 2],
    ]);
    const pool = await report(a, 'group=dni_pool_day');
    expect(pool.body.data.rows.map((x: any) => [x.dniPoolId, x.day, x.calls])).toEqual([
      [77, '2026-03-07', 1],
      [77, '2026-03-08', 1],
      [null, '2026-03-08', 2],
      [null, '2026-03-09', 1],
    ]);
  });

  it('the rollups answer exactly what the facts answer', async () => {
    // Unfiltered, filtered by number (number rollup), by traffic source (source rollup), by pool (pool rollup).
    const groups = ['number_day', 'day_hour', 'hour_day', 'traffic_source_day', 'dni_pool_day', 'number'];
    // Each filter with the index of a grouping its rollup serves alone (number_day, traffic_source_day, dni_pool_day).
    const filters: Array<[string, number]> = [
      ['', 0],
      [`&number_ids[]=${n1.id}`, 0],
      ['&trafficSource[]=google*', 3],
      ['&dniPools[]=77', 4],
    ];
    for (const [f, served] of filters) {
      const viaRollup = await Promise.all(groups.map((g) => report(a, `group=${g}${f}`)));
      expect(viaRollup[served]!.body.data.rows[0].uniqueCallers).toBeNull(); // answered from a rollup
      process.env.ANALYTICS_SOURCE = 'facts';
      try {
        // minDuration=0 changes nothing but the cache key (the rollups' answers are cached).
        const viaFacts = await Promise.all(groups.map((g) => report(a, `group=${g}${f}&minDuration=0`)));
        for (const [i] of groups.entries()) expect(strip(viaFacts[i]!.body.data.rows)).toEqual(strip(viaRollup[i]!.body.data.rows));
        expect(viaFacts[served]!.body.data.rows[0].uniqueCallers).toEqual(expect.any(Number));
      } finally {
        delete process.env.ANALYTICS_SOURCE;
      }
    }
    // An answer-status filter is not in any rollup: the facts answer (unique callers counted).
    const byStatus = await report(a, 'group=number_day&answerStatus[]=answered&answerStatus[]=missed');
    expect(byStatus.body.data.rows[0].uniqueCallers).toEqual(expect.any(Number));
  });

  it('whole UTC days from the day rollups, the edge hours from the hourly ones: the same figures as the facts', async () => {
    // [03-08 05:00Z, 03-10 15:00Z): edge hours 03-08 05:00-24:00 (c2, c3), the whole UTC day 03-09 (c4, c5), edge 03-10 00:00-15:00.
    // Its comparison period [03-06 19:00Z, 03-08 05:00Z): the whole UTC day 03-07, edge hours 03-08 00:00-05:00 (c1).
    const dates = 'filters[dates][from]=2026-03-08T05:00:00Z&filters[dates][to]=2026-03-10T15:00:00Z';
    const dash = (extra: string) => a.client.get(`/api/dashboard?company_id=${a.companyId}&tz=${TZ}&${dates}${extra}`);
    const viaRollups = (await dash('')).body.data;
    const viaFacts = (await dash('&filters[minDuration]=0')).body.data;
    expect(viaRollups.kpis.totalCalls).toMatchObject({ value: 4, previous: 1 });
    for (const key of ['kpis', 'series', 'previousSeries', 'bySource', 'byNumber', 'byHourOfWeek', 'missedByNumber']) {
      expect(viaRollups[key], key).toEqual(viaFacts[key]);
    }
    expect(viaRollups.bySource.map((x: any) => [x.source, x.calls])).toEqual([
      ['', 2],
      ['direct', 1],
      ['organic', 1],
    ]);
    const byNumber = async (q: string) => {
      const r = await a.client.get(
        `/api/analytics/calls?company_id=${a.companyId}&timezone=${TZ}&group=number&dates[from]=2026-03-08T05:00:00Z&dates[to]=2026-03-10T15:00:00Z${q}`,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return strip(r.body.data.rows);
    };
    expect(await byNumber('')).toEqual(await byNumber('&minDuration=0'));
    expect((await byNumber('')).map((x: any) => [x.numberId, x.calls]).sort()).toEqual(
      [
        [n1.id, 2],
        [n2.id, 2],
      ].sort(),
    );

    // The day rollup is what answers the whole day: a row changed by hand shows in the KPIs (then restored).
    const kpi = (prev: string) =>
      a.client.get(
        `/api/companies/${a.companyId}/calls/kpi?tz=${TZ}&currentRange[from]=2026-03-08T05:00:00Z&currentRange[to]=2026-03-10T15:00:00Z&previousRange[from]=${prev}&previousRange[to]=2026-03-06`,
      );
    expect((await kpi('2026-03-05')).body.data.kpis.totalCalls.value).toBe(4);
    await sql`update call_rollup_days set calls = calls + 100 where company_id = ${a.companyId} and day = '2026-03-09T00:00:00Z'`.execute(s.ctx.db);
    try {
      expect((await kpi('2026-03-04')).body.data.kpis.totalCalls.value).toBe(104);
    } finally {
      await sql`update call_rollup_days set calls = calls - 100 where company_id = ${a.companyId} and day = '2026-03-09T00:00:00Z'`.execute(s.ctx.db);
    }
  });

  it('offset segments: the DST changes of a range located to their UTC hour', () => {
    const segments = offsetSegments(new Date('2026-03-01T05:00:00Z'), new Date('2026-11-10T05:00:00Z'), TZ);
    expect(segments).toEqual([
      { until: new Date('2026-03-08T07:00:00Z'), offsetS: -18000 },
      { until: new Date('2026-11-01T06:00:00Z'), offsetS: -14400 },
      { until: null, offsetS: -18000 },
    ]);
    expect(offsetSegments(new Date('2026-06-01T00:00:00Z'), new Date('2026-06-02T00:00:00Z'), 'Europe/Berlin')).toEqual([{ until: null, offsetS: 7200 }]);
  });

  it('unique callers with target unique_callers', async () => {
    const r = await report(a, 'group=number&target=unique_callers');
    expect(r.body.data.totals.uniqueCallers).toBe(4);
    expect(r.body.data.rows.map((x: any) => [x.numberId, x.value]).sort()).toEqual(
      [
        [n1.id, 2],
        [n2.id, 2],
      ].sort(),
    );
  });
});

describe('GET /api/analytics/calls: filters', () => {
  const total = async (query: string) => {
    const r = await report(a, `group=number&${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.totals.calls as number;
  };

  it('answer status, duration, first contact, who answered, qualification', async () => {
    expect(await total('answerStatus=missed')).toBe(1);
    expect(await total('answerStatus[]=answered&answerStatus[]=voicemail')).toBe(4);
    expect(await total('answerStatus=3')).toBe(1);
    expect(await total('minDuration=60')).toBe(3);
    expect(await total('isFirstContact=1')).toBe(4);
    expect(await total('isFirstContact=0')).toBe(1);
    expect(await total(`answered_by[]=${a.userId}`)).toBe(1);
    expect(await total('isQualified=1')).toBe(1);
    expect(await total('isLead=true')).toBe(1);
    expect(await total('isLead=0')).toBe(4);
  });

  it('numbers, tags, pools and the text filters with the wildcard rule', async () => {
    expect(await total(`number_ids[]=${n2.id}`)).toBe(2);
    expect(await total(`number_ids=${n1.id},${n2.id}`)).toBe(5);
    expect(await total(`tagIds[]=${tagVip}`)).toBe(1);
    expect(await total('dniPools[]=77')).toBe(2);
    expect(await total('geo=il')).toBe(2); // contains, any case
    expect(await total('geo=*L*')).toBe(2); // surrounding asterisks stripped
    expect(await total('geo[0][value]=I&geo[0][operator]=equals')).toBe(0);
    expect(await total('geo[0][value]=il&geo[0][operator]=equals')).toBe(2);
    expect(await total('geo[]=CA&geo[]=NY')).toBe(2);
    expect(await total('trafficSource=google')).toBe(1);
    expect(await total('trafficSource=google&attributionModel=first_touch')).toBe(2);
    expect(await total('trafficSource[0][value]=organic&trafficSource[0][operator]=equals')).toBe(1);
    expect(await total('trafficSource[0][value]=organ&trafficSource[0][operator]=equals')).toBe(0);
    // n1 has one extension entry (Sales): its calls reached it; n2 has none.
    expect(await total('extensionLabels=sal')).toBe(3);
    // No call carries an outcome or a department yet (the next test gives them some).
    expect(await total('outcomes[]=appt_booked')).toBe(0);
    expect(await total('departments[]=sales')).toBe(0);
  });

  it('outcomes and departments: the calls whose custom fields say so (spec 002 enumerations)', async () => {
    // Call custom fields named like "Outcome" and "Department" feed the facts (docs/analytics.md "What a fact says"):
    // the value is matched case-insensitively, spaces and dashes read as "_".
    const field = async (account: Account, name: string) => {
      const r = await account.client.post('/api/eavEntityTypes/6/eavAttributes', { name, type: 'text', companyId: account.companyId });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data.id as number;
    };
    const outcome = await field(a, 'Call outcome');
    const department = await field(a, 'Department');
    const outcomeOfB = await field(b, 'Outcome');
    const values: Array<[string, number, string]> = [
      ['c0', outcome, 'appt_booked'], // before the range: never counted
      ['c1', outcome, 'Appt booked'],
      ['c1', department, 'Sales'],
      ['c2', outcome, 'not-opportunity'],
      ['c3', outcome, 'APPT_BOOKED'],
      ['c3', department, 'sales'],
      ['c4', department, 'Body shop'],
      ['c5', outcome, 'opportunity'],
      ['c5', department, 'service'],
      ['c6', outcomeOfB, 'appt_booked'], // company B: never counted for A
    ];
    for (const [call, attribute, value] of values) {
      const owner = call === 'c6' ? b : a;
      const r = await owner.client.patch(`/api/calls/${c[call]}`, { eavAttributeValues: [{ attribute_id: attribute, value }] });
      expect(r.status, `${call}: ${JSON.stringify(r.body)}`).toBe(200);
    }
    await flushFactRebuilds(s.ctx);

    // Hand-computed over c1..c5 (03-07..03-09): appt_booked = c1, c3; opportunity = c5; not_opportunity = c2;
    // sales = c1, c3; service = c5; body_shop = c4.
    const ids = async (query: string) => {
      const r = await report(a, `format=csv&columns=id&${query}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return String(r.body).trim().split('\r\n').slice(1).map(Number);
    };
    expect(await ids('outcomes[]=appt_booked')).toEqual([c.c1, c.c3]);
    expect(await ids('outcomes[]=appt_booked&outcomes[]=opportunity')).toEqual([c.c1, c.c3, c.c5]);
    expect(await ids('outcomes=not_opportunity')).toEqual([c.c2]);
    expect(await ids('departments[]=body_shop')).toEqual([c.c4]);
    expect(await ids('departments[]=sales&departments[]=service')).toEqual([c.c1, c.c3, c.c5]);
    // Both filters: AND.
    expect(await ids('outcomes[]=opportunity&departments[]=service')).toEqual([c.c5]);
    expect(await ids('outcomes[]=appt_booked&departments[]=body_shop')).toEqual([]);

    // The grouped report and its totals agree with those sets.
    const byNumber = await report(a, 'group=number&outcomes[]=appt_booked&outcomes[]=opportunity');
    const byId = (rows: number[][]) => [...rows].sort((x, y) => x[0]! - y[0]!);
    expect(byId(byNumber.body.data.rows.map((r: any) => [r.numberId, r.calls, r.answered]))).toEqual(
      byId([
        [n1.id, 2, 2],
        [n2.id, 1, 1],
      ]),
    );
    expect(byNumber.body.data.totals).toMatchObject({ calls: 3, answered: 3, missed: 0, totalDurationS: 360 });
    const departments = await report(a, 'group=number&departments[]=sales&departments[]=body_shop');
    expect(byId(departments.body.data.rows.map((r: any) => [r.numberId, r.calls, r.voicemails]))).toEqual(
      byId([
        [n1.id, 2, 0],
        [n2.id, 1, 1],
      ]),
    );
    expect(departments.body.data.totals).toMatchObject({ calls: 3, answered: 2, voicemails: 1 });
  });

  it('dates: local days, inclusive', async () => {
    const r = await a.client.get(`/api/analytics/calls?company_id=${a.companyId}&timezone=${TZ}&dates[from]=2026-03-08&dates[to]=2026-03-08&group=number`);
    expect(r.body.data.totals.calls).toBe(3); // c2, c3, c4 (c4 is 03-09 in UTC)
    const utc = await a.client.get(`/api/analytics/calls?company_id=${a.companyId}&timezone=UTC&dates=2026-03-08,2026-03-08&group=number`);
    expect(utc.body.data.totals.calls).toBe(3); // c1, c2, c3
  });

  it('companies and businessUnits: only companies the user reads', async () => {
    expect(await total(`businessUnits[]=${org}`)).toBe(6);
    expect(await total(`companies[]=${a.companyId}&companies[]=${a2}`)).toBe(6);
    expect(await total(`companies[]=${a2}`)).toBe(1);
    const other = await report(a, `group=number&companies[]=${b.companyId}`);
    expect(other.status).toBe(403);
    const unit = await report(a, `group=number&businessUnits[]=${org + 1000}`);
    expect(unit.status).toBe(403);
  });

  it('bad input answers 422 with field errors', async () => {
    const cases = [
      'group=by_moon',
      'target=x',
      'answerStatus=sometimes',
      'minDuration=-1',
      'outcomes[]=won',
      'departments[]=marketing',
      'dates[from]=2026-02-30',
      'isLead=maybe',
      'number_ids[]=abc',
    ];
    for (const q of cases) {
      const r = await report(a, q);
      expect(r.status, q).toBe(422);
      expect(r.body.errors, q).toEqual(expect.any(Object));
    }
    const zone = await a.client.get(`/api/analytics/calls?company_id=${a.companyId}&timezone=Mars/Olympus&group=number`);
    expect(zone.status).toBe(422);
    expect(Object.keys(zone.body.errors)).toEqual(['timezone']);
    const backwards = await a.client.get(`/api/analytics/calls?company_id=${a.companyId}&dates[from]=2026-03-09&dates[to]=2026-03-01`);
    expect(backwards.status).toBe(422);
    expect(Object.keys(backwards.body.errors)).toEqual(['dates.to']);
    // A nested filter object (the dashboard's `filters[…]` or the feed's `filter={…}`) sent here is refused, not ignored;
    // an unknown plain parameter (a cache buster) is still ignored.
    for (const q of [
      'filters[dates][from]=2026-03-08',
      `filter=${encodeURIComponent(JSON.stringify({ answerStatus: ['missed'] }))}`,
      'filters[0][answerStatus]=missed',
    ]) {
      const r = await report(a, `group=number&${q}`);
      expect(r.status, q).toBe(422);
      expect(Object.keys(r.body.errors), q).toEqual([q.startsWith('filter=') ? 'filter' : 'filters']);
    }
    const busted = await report(a, 'group=number&_=1712345678');
    expect(busted.status).toBe(200);
    expect(busted.body.data.totals.calls).toBe(5);
    const unknownColumn = await report(a, 'format=csv&async=1&columns[]=id&columns[]=password');
    expect(unknownColumn.status).toBe(422);
    expect(Object.keys(unknownColumn.body.errors)).toEqual(['columns']);
  });

  it("another company's figures are neither shown nor mixed in", async () => {
    const denied = await b.client.get(`/api/analytics/calls?company_id=${a.companyId}&${RANGE}&group=number`);
    expect(denied.status).toBe(403);
    const own = await b.client.get(`/api/analytics/calls?company_id=${b.companyId}&timezone=${TZ}&${RANGE}&group=number`);
    expect(own.body.data.rows.map((x: any) => [x.numberId, x.calls])).toEqual([[nb.id, 1]]);
    expect(own.body.data.totals).toMatchObject({ calls: 1, firstTimeCallers: 1 }); // the same caller as c1, but a first contact for B
  });
});

describe('dashboard and KPIs', () => {
  it('GET /dashboard: KPIs beside the previous same-length range, series, sources, numbers, heat map, missed by number', async () => {
    const r = await a.client.get(`/api/dashboard?company_id=${a.companyId}&tz=${TZ}&filters[dates][from]=2026-03-07&filters[dates][to]=2026-03-09`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = r.body.data;
    expect(d.groupBy).toBe('day');
    expect(d.previousRange).toMatchObject({ fromDate: '2026-03-04', toDate: '2026-03-06' });
    expect(d.kpis.totalCalls).toEqual({ value: 5, previous: 1, changePct: 400, direction: 'up' });
    expect(d.kpis.answered).toEqual({ value: 3, previous: 1, changePct: 200, direction: 'up' });
    expect(d.kpis.missed).toEqual({ value: 1, previous: 0, changePct: null, direction: 'up' });
    expect(d.kpis.avgDurationS).toEqual({ value: 120, previous: 50, changePct: 140, direction: 'up' });
    expect(d.kpis.avgAnswerTimeS).toMatchObject({ value: 11.7, previous: 4 });
    expect(d.kpis.firstTimeCallers).toMatchObject({ value: 4, previous: 1 });
    expect(d.kpis.faxes).toEqual({ value: 0, previous: 0, changePct: null, direction: 'flat' });
    expect(d.series.map((p: any) => [p.bucket, p.calls])).toEqual([
      ['2026-03-07', 1],
      ['2026-03-08', 3],
      ['2026-03-09', 1],
    ]);
    expect(d.series[1].at).toBe('2026-03-08T05:00:00.000Z');
    expect(d.previousSeries.map((p: any) => p.calls)).toEqual([0, 1, 0]);
    expect(d.bySource.map((x: any) => [x.source, x.calls])).toEqual([
      ['', 2],
      ['direct', 1],
      ['google_ads', 1],
      ['organic', 1],
    ]);
    expect(d.byNumber.map((x: any) => [x.numberId, x.calls])).toEqual([
      [n1.id, 3],
      [n2.id, 2],
    ]);
    expect(d.byHourOfWeek).toEqual([
      { weekday: 0, hour: 1, calls: 1 },
      { weekday: 0, hour: 3, calls: 1 },
      { weekday: 0, hour: 22, calls: 1 },
      { weekday: 1, hour: 10, calls: 1 },
      { weekday: 6, hour: 23, calls: 1 },
    ]);
    expect(d.missedByNumber.map((x: any) => [x.numberId, x.missed, x.calls, x.missedPct])).toEqual([
      [n1.id, 1, 3, 33.3],
      [n2.id, 1, 2, 50],
    ]);
  });

  it('hourly series across the change: 23 local hours on 03-08', async () => {
    const r = await a.client.get(
      `/api/dashboard?company_id=${a.companyId}&tz=${TZ}&groupBy=hour&filters[dates][from]=2026-03-08&filters[dates][to]=2026-03-08`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const series = r.body.data.series;
    expect(series).toHaveLength(23);
    expect(series.map((p: any) => p.bucket)).not.toContain('2026-03-08 02:00');
    expect(series.filter((p: any) => p.calls > 0).map((p: any) => p.bucket)).toEqual(['2026-03-08 01:00', '2026-03-08 03:00', '2026-03-08 22:00']);
  });

  it('comparison periods: month, 3 and 6 months, year ago', async () => {
    const ranges: Record<string, [string, string]> = {
      month: ['2026-02-07', '2026-02-09'],
      '3_months': ['2025-12-07', '2025-12-09'],
      '6_months': ['2025-09-07', '2025-09-09'],
      year: ['2025-03-07', '2025-03-09'],
    };
    for (const [comparison, [from, to]] of Object.entries(ranges)) {
      const r = await a.client.get(
        `/api/dashboard?company_id=${a.companyId}&tz=${TZ}&comparison=${comparison}&filters[dates][from]=2026-03-07&filters[dates][to]=2026-03-09`,
      );
      expect(r.status).toBe(200);
      expect(r.body.data.previousRange, comparison).toMatchObject({ fromDate: from, toDate: to });
      expect(r.body.data.kpis.totalCalls, comparison).toEqual({ value: 5, previous: 0, changePct: null, direction: 'up' });
    }
  });

  it('GET /companies/{id}/calls/kpi: currentRange beside previousRange', async () => {
    const r = await a.client.get(
      `/api/companies/${a.companyId}/calls/kpi?tz=${TZ}&currentRange[from]=2026-03-07&currentRange[to]=2026-03-09&previousRange[from]=2026-03-05&previousRange[to]=2026-03-05`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.kpis.totalCalls).toEqual({ value: 5, previous: 1, changePct: 400, direction: 'up' });
    expect(r.body.data.kpis.voicemails).toEqual({ value: 1, previous: 0, changePct: null, direction: 'up' });
    expect(r.body.data.previousRange).toMatchObject({ fromDate: '2026-03-05', toDate: '2026-03-05' });
    const filtered = await a.client.get(
      `/api/companies/${a.companyId}/calls/kpi?tz=${TZ}&currentRange[from]=2026-03-07&currentRange[to]=2026-03-09&filters=${encodeURIComponent(JSON.stringify({ number_ids: [n2.id] }))}`,
    );
    expect(filtered.body.data.kpis.totalCalls.value).toBe(2);
    expect((await b.client.get(`/api/companies/${a.companyId}/calls/kpi`)).status).toBe(403);
    expect((await b.client.get(`/api/dashboard?company_id=${a.companyId}`)).status).toBe(403);
    expect((await a.client.get(`/api/companies/${a.companyId}/calls/kpi?comparison=decade`)).status).toBe(422);
  });

  it('countCalls and lastCallAtByNumber for the monitors', async () => {
    expect(await countCalls(s.ctx, { companyId: a.companyId, from: new Date('2026-03-07T05:00:00Z'), to: new Date('2026-03-10T04:00:00Z') })).toEqual({
      total: 5,
      answered: 3,
      missed: 1,
      voicemails: 1,
    });
    expect(
      await countCalls(s.ctx, { companyId: a.companyId, from: new Date('2026-03-07T05:00:00Z'), to: new Date('2026-03-10T04:00:00Z'), numberId: n2.id }),
    ).toEqual({
      total: 2,
      answered: 1,
      missed: 0,
      voicemails: 1,
    });
    const last = await lastCallAtByNumber(s.ctx, a.companyId);
    expect(last.get(n1.id)?.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(last.get(n2.id)?.toISOString()).toBe('2026-03-09T14:15:00.000Z');
    expect(last.has(nb.id)).toBe(false);
  });
});

describe('exports', () => {
  it('POST /calls/export: a job writes the file, the person is told, the link serves only the company', async () => {
    const socket = await connectSocket(s, a.client);
    try {
      expect((await subscribe(socket, `user.${a.userId}`)).ok).toBe(true);
      const ready = new Promise<any>((resolve) => socket.on('export ready', (payload: any) => resolve(payload)));
      const r = await a.client.post('/api/calls/export', {
        company_id: a.companyId,
        columns: ['id', 'started_at', 'number', 'answer_status', 'duration_s', 'traffic_source', 'tags'],
        tz: TZ,
        filters: { dates: { from: '2026-03-07', to: '2026-03-09' } },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(r.body.message).toBe('Your export has started. You will be notified when the file is ready to download.');
      const event = await ready;
      expect(event.message).toBe('Your export is ready to download.');
      expect(event.export).toMatchObject({ id: r.body.data.id, status: 'done', rows: 5, kind: 'calls' });
      // The export job is in the audit log, started by the person who asked (docs/audit.md "Jobs").
      const logged = await eventually(async () => {
        const l = await a.client.get(`/api/audit-log?company_id=${a.companyId}&entity_type=exports`);
        return (l.body.data as Array<{ entity_id: string }>).find((e) => e.entity_id === String(r.body.data.id));
      });
      expect(logged).toMatchObject({ action: 'export', actor_kind: 'system', actor_user_id: a.userId, outcome: 'success' });
      const url = new URL(event.export.url);
      const file = await a.client.get(url.pathname);
      expect(file.status).toBe(200);
      const lines = String(file.body).trim().split('\r\n');
      expect(lines).toEqual([
        'Call ID,Start time,Tracking number,Answer status,Duration (s),Traffic source,Tags',
        `${c.c1},2026-03-07 23:30:00,${n1.number},answered,100,google_ads,`,
        `${c.c2},2026-03-08 01:30:00,${n1.number},missed,0,,`,
        `${c.c3},2026-03-08 03:30:00,${n1.number},answered,200,organic,`,
        `${c.c4},2026-03-08 22:00:00,${n2.number},voicemail,30,,`,
        `${c.c5},2026-03-09 10:15:00,${n2.number},answered,60,direct,VIP`,
      ]);
      expect((await b.client.get(url.pathname)).status).toBeGreaterThanOrEqual(400);
      expect((await b.client.get(`/api/analytics/exports/${r.body.data.id}`)).status).toBe(404);
      const mine = await a.client.get(`/api/analytics/exports?company_id=${a.companyId}`);
      expect(mine.body.data[0]).toMatchObject({ id: r.body.data.id, status: 'done', fileName: 'calls_2026-03-07_2026-03-09.csv' });
      const download = await a.client.get(`/api/analytics/exports/${r.body.data.id}/download`);
      expect(download.status).toBe(200);
      expect(String(download.body).trim().split('\r\n')).toHaveLength(6);
    } finally {
      socket.close();
    }
  });

  it('GET /analytics/calls format=csv: async=1 starts the export, without async the file is the answer', async () => {
    const started = await report(a, 'format=csv&async=1&columns[]=id&columns[]=answer_status&answerStatus=missed');
    expect(started.status).toBe(202);
    expect(started.body.message).toBe('Your export has started. You will be notified when the file is ready to download.');
    const done = await eventually(async () => {
      const j = await a.client.get(`/api/analytics/exports/${started.body.data.id}`);
      return j.body.data.status === 'done' ? j.body.data : null;
    });
    expect(done.rows).toBe(1);
    const inline = await report(a, 'format=csv&columns=id,geo&geo=il');
    expect(inline.status).toBe(200);
    expect(inline.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(String(inline.body).trim().split('\r\n')).toEqual(['Call ID,Caller state', `${c.c1},IL`, `${c.c3},IL`]);
  });

  it('PostgreSQL formats the CSV byte for byte as the JavaScript writer (quotes, formula cells, lookups)', async () => {
    // Text a caller or a carrier could send: formulas, E.164 (kept as is), quotes, commas, line breaks, edge spaces.
    const tricky = [
      '=SUM(A1)',
      '+15551234567',
      '-12',
      '+1 555',
      'a,b',
      'say "hi"',
      ' lead',
      'trail ',
      'line\nbreak',
      '@x',
      '\tTab',
      '',
      'ünï',
      '-',
      '\ufeffbom',
    ];
    const ids = [c.c1!, c.c2!, c.c3!, c.c4!, c.c5!];
    for (const [i, id] of ids.entries()) {
      await s.ctx.db
        .updateTable('call_facts')
        .set({
          geo: tricky[i]!,
          extension_label: tricky[i + 5]!,
          source: tricky[i + 10] ?? null,
          campaign: tricky[(i * 3) % tricky.length]!,
          outcome: i === 0 ? null : 'sale',
        })
        .where('call_id', '=', id)
        .execute();
    }
    try {
      const columns = [...EXPORT_COLUMNS.calls.map((x) => x.key)].filter((k) => !['tags', 'answered_by', 'contact_name', 'dni_pool'].includes(k));
      const params = {
        userId: a.userId,
        companyIds: [a.companyId, a2],
        timeZone: TZ,
        from: '2026-03-01T05:00:00.000Z',
        to: '2026-03-31T04:00:00.000Z',
        filters: {},
      };
      const collect = async (sqlFormat: boolean) => {
        const counter = { rows: 0 };
        let text = '';
        for await (const chunk of csvChunks(s.ctx, 'calls', columns, params, counter, { sqlFormat })) text += chunk;
        return { text, rows: counter.rows };
      };
      const [bySql, byJs] = [await collect(true), await collect(false)];
      expect(bySql.rows).toBe(7); // c0..c5 and c7 (A2)
      expect(bySql).toEqual(byJs);
      expect(bySql.text).toContain(`"'=SUM(A1)"`);
      expect(bySql.text).toContain(',+15551234567,');
      expect(bySql.text).toContain('"line\nbreak"');
      expect(bySql.text).toContain(',A2 main,');
    } finally {
      await rebuildFacts(s.ctx, ids);
    }
  });

  it('messages, voicemails and faxes exports', async () => {
    const vm = await a.client.post('/api/voicemails/export', {
      company_id: a.companyId,
      async: 0,
      tz: TZ,
      columns: ['id', 'from', 'duration_s'],
      filters: { dates: { from: '2026-03-01', to: '2026-03-31' } },
    });
    expect(vm.status).toBe(200);
    // The voicemail row was stored now (created_at today), outside March: only the header.
    expect(String(vm.body).trim().split('\r\n')[0]).toBe('Voicemail ID,Caller,Length (s)');
    const vmNow = await a.client.post('/api/voicemails/export', { company_id: a.companyId, async: '0', columns: 'id,from,duration_s' });
    expect(String(vmNow.body).trim().split('\r\n').slice(1)).toHaveLength(1);
    const fax = await a.client.post('/api/fax/export', { company_id: a.companyId, async: false });
    expect(String(fax.body).trim()).toBe('Fax ID,Time,Number,From,To,Direction,Pages,Status');
    const messages = await a.client.post('/api/messages/export', { company_id: a.companyId });
    expect(messages.status).toBe(202);
    const bad = await a.client.post('/api/messages/export', { company_id: a.companyId, columns: ['content', 'secret'] });
    expect(bad.status).toBe(422);
    expect((await b.client.post('/api/messages/export', { company_id: a.companyId })).status).toBe(403);
  });

  it('the rows of a messages export and a fax export: the range, the numbers, the company, local times', async () => {
    const db = s.ctx.db;
    // Company A: a thread on n1 and one on n2 (March 20-21 New York time, outside the other tests' range), a note
    // (not a message), a message before the range; company B: a message and a fax in the range.
    const thread = async (companyId: number, numberId: number, recipient: string) =>
      Number(
        (await db.insertInto('conversations').values({ company_id: companyId, number_id: numberId, recipient }).returning('id').executeTakeFirstOrThrow()).id,
      );
    const t1 = await thread(a.companyId, n1.id, '+13125550001');
    const t2 = await thread(a.companyId, n2.id, '+14155550004');
    const tb = await thread(b.companyId, nb.id, '+13125550001');
    const item = async (
      companyId: number,
      conversationId: number,
      at: string,
      x: { type?: string; inbound: boolean; body: string; state: string | null; error?: number },
    ) =>
      Number(
        (
          await db
            .insertInto('conversation_items')
            .values({
              company_id: companyId,
              conversation_id: conversationId,
              type: x.type ?? 'message',
              is_inbound: x.inbound,
              body: x.body,
              media: JSON.stringify([]),
              delivery_state: x.state,
              error_code: x.error ?? null,
              created_at: new Date(at),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const m1 = await item(a.companyId, t1, '2026-03-20T14:00:00Z', { inbound: true, body: 'Are you open, today?', state: 'received' });
    const m2 = await item(a.companyId, t1, '2026-03-20T14:05:00Z', { inbound: false, body: 'Yes, "until" 6pm', state: 'delivered' });
    await item(a.companyId, t1, '2026-03-20T14:06:00Z', { type: 'note', inbound: false, body: 'Call back tomorrow', state: null });
    const m3 = await item(a.companyId, t2, '2026-03-22T03:30:00Z', { inbound: false, body: 'Reminder', state: 'undelivered', error: 30007 }); // 03-21 23:30 EDT
    await item(a.companyId, t2, '2026-03-19T03:00:00Z', { inbound: true, body: 'Too early', state: 'received' }); // 03-18 23:00 EDT
    await item(b.companyId, tb, '2026-03-20T15:00:00Z', { inbound: true, body: 'Company B', state: 'received' });

    const fax = async (
      companyId: number,
      n: { id: number; number: string },
      at: string,
      x: { inbound: boolean; remote: string; status: string; pages: number | null },
    ) =>
      Number(
        (
          await db
            .insertInto('faxes')
            .values({
              company_id: companyId,
              number_id: n.id,
              direction: x.inbound ? 'inbound' : 'outbound',
              local_number: n.number,
              remote: x.remote,
              status: x.status,
              pages: x.pages,
              provider: 'sandbox',
              created_at: new Date(at),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const f1 = await fax(a.companyId, n1, '2026-03-20T16:00:00Z', { inbound: true, remote: '+13125550002', status: 'received', pages: 3 });
    const f2 = await fax(a.companyId, n2, '2026-03-21T13:00:00Z', { inbound: false, remote: '+14155550003', status: 'failed', pages: null });
    await fax(a.companyId, n1, '2026-03-23T16:00:00Z', { inbound: true, remote: '+13125550002', status: 'received', pages: 1 }); // after the range
    await fax(b.companyId, nb, '2026-03-20T16:00:00Z', { inbound: true, remote: '+13125550009', status: 'received', pages: 2 });

    const filters = { dates: { from: '2026-03-20', to: '2026-03-21' } };
    const messages = await a.client.post('/api/messages/export', {
      company_id: a.companyId,
      async: 0,
      tz: TZ,
      columns: ['id', 'created_at', 'number', 'from', 'to', 'direction', 'content', 'delivery_state', 'error_code'],
      filters,
    });
    expect(messages.status, String(messages.body)).toBe(200);
    expect(String(messages.body).trim().split('\r\n')).toEqual([
      'Message ID,Time,Number,From,To,Direction,Message,Delivery state,Error code',
      `${m1},2026-03-20 10:00:00,${n1.number},+13125550001,${n1.number},inbound,"Are you open, today?",received,`,
      `${m2},2026-03-20 10:05:00,${n1.number},${n1.number},+13125550001,outbound,"Yes, ""until"" 6pm",delivered,`,
      `${m3},2026-03-21 23:30:00,${n2.number},${n2.number},+14155550004,outbound,Reminder,undelivered,30007`,
    ]);
    // Narrowed to one number, columns in the order asked.
    const onN2 = await a.client.post('/api/messages/export', {
      company_id: a.companyId,
      async: 0,
      tz: TZ,
      columns: ['content', 'id'],
      filters: { ...filters, number_ids: [n2.id] },
    });
    expect(String(onN2.body).trim().split('\r\n')).toEqual(['Message,Message ID', `Reminder,${m3}`]);

    const faxes = await a.client.post('/api/fax/export', { company_id: a.companyId, async: 0, tz: TZ, filters });
    expect(faxes.status, String(faxes.body)).toBe(200);
    expect(String(faxes.body).trim().split('\r\n')).toEqual([
      'Fax ID,Time,Number,From,To,Direction,Pages,Status',
      `${f1},2026-03-20 12:00:00,${n1.number},+13125550002,${n1.number},inbound,3,received`,
      `${f2},2026-03-21 09:00:00,${n2.number},${n2.number},+14155550003,outbound,,failed`,
    ]);
    // The background job writes the same rows into the file.
    const started = await a.client.post('/api/fax/export', { company_id: a.companyId, tz: TZ, columns: ['id', 'pages'], filters });
    expect(started.status).toBe(202);
    const done = await eventually(async () => {
      const j = await a.client.get(`/api/analytics/exports/${started.body.data.id}`);
      return j.body.data.status === 'done' ? j.body.data : null;
    });
    expect(done.rows).toBe(2);
    const file = await a.client.get(`/api/analytics/exports/${started.body.data.id}/download`);
    expect(String(file.body).trim().split('\r\n')).toEqual(['Fax ID,Pages', `${f1},3`, `${f2},`]);
  });
});

describe('PDF downloads', () => {
  /** GET as bytes with the account's session. */
  const getBytes = async (account: Account, url: string) => {
    const res = await fetch(account.client.baseUrl + url, {
      headers: { cookie: `switchboard_session=${account.client.cookie('switchboard_session')}`, accept: 'application/pdf' },
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  };
  /** The text a PDF shows: every content stream inflated, the hex strings of its TJ arrays decoded (Helvetica, WinAnsi). */
  const pdfText = (pdf: Buffer) => {
    const raw = pdf.toString('latin1');
    const lines: string[] = [];
    for (const m of raw.matchAll(/stream\r?\n/g)) {
      const start = m.index + m[0].length;
      const end = raw.indexOf('endstream', start);
      let content: string;
      try {
        content = inflateSync(pdf.subarray(start, end)).toString('latin1');
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        continue; // not a deflated stream (e.g. font data)
      }
      for (const tj of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
        lines.push([...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''));
      }
    }
    return lines.join('\n');
  };

  it('GET /dashboard/pdf answers a PDF with the company figures and the comparison; 403 for another company', async () => {
    const url = `/api/dashboard/pdf?company_id=${a.companyId}&tz=${TZ}&filters[dates][from]=2026-03-07&filters[dates][to]=2026-03-09`;
    const r = await getBytes(a, url);
    expect(r.status, r.bytes.toString()).toBe(200);
    expect(r.type).toBe('application/pdf');
    expect(r.disposition).toBe('attachment; filename="dashboard_2026-03-07_2026-03-09.pdf"');
    expect(r.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(r.bytes);
    expect(text).toContain('2026-03-07 to 2026-03-09 (America/New_York), compared with 2026-03-04 to 2026-03-06');
    // Total calls 5 beside 1 (+400.0 %, up); answered 3 beside 1; average duration 120 beside 50.
    expect(text).toMatch(/Total calls\n5\n1\n\+400\.0 %\nup/);
    expect(text).toMatch(/Answered\n3\n1\n\+200\.0 %\nup/);
    expect(text).toMatch(/Average duration \(s\)\n120\.0\n50\.0\n\+140\.0 %\nup/);
    expect(text).toMatch(/google_ads\n1\n1\n0\n1/);
    expect((await getBytes(b, url)).status).toBe(403);
    expect((await getBytes(a, `${url}&tz=Mars/Olympus`)).status).toBe(422);
  });

  it('GET /analytics/calls/pdf answers the grouped report as a PDF; 403 for another company', async () => {
    const url = `/api/analytics/calls/pdf?company_id=${a.companyId}&timezone=${TZ}&${RANGE}&group=traffic_source_day`;
    const r = await getBytes(a, url);
    expect(r.status, r.bytes.toString()).toBe(200);
    expect(r.type).toBe('application/pdf');
    expect(r.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(r.bytes);
    expect(text).toContain('Calls by traffic source and day');
    expect(text).toMatch(/google_ads\n2026-03-07\n1\n1\n0\n0\n1/);
    expect(text).toMatch(/No tracking source\n2026-03-08\n2\n0\n1\n1\n2/); // c2 missed, c4 voicemail: both first calls from their numbers
    expect((await getBytes(b, url)).status).toBe(403);
  });
});

describe('one flusher per deployment', () => {
  it('a flush leaves the pending set to the process holding the flush lease, then takes it over when that lease ends', async () => {
    // Another process (a second node) holds the lease: a timer's flush leaves the calls pending, an explicit one waits.
    await sql`insert into analytics_leases (name, holder, until) values ('facts-flush', 'other-node', now() + interval '1 second')
      on conflict (name) do update set holder = excluded.holder, until = excluded.until`.execute(s.ctx.db);
    const [call] = (await sql<{ id: number }>`select id from calls order by id desc limit 1`.execute(s.ctx.db)).rows;
    expect(call).toBeDefined();
    await sql`insert into call_facts_pending (call_id) values (${call!.id}) on conflict (call_id) do update set queued_at = now()`.execute(s.ctx.db);
    await flushFactRebuilds(s.ctx, { wait: false });
    const left = await sql<{ n: number }>`select count(*)::int as n from call_facts_pending where call_id = ${call!.id}`.execute(s.ctx.db);
    expect(left.rows[0]!.n).toBe(1);
    const startedAt = Date.now();
    await flushFactRebuilds(s.ctx); // waits for the other holder's lease to end (about a second), then flushes
    expect(Date.now() - startedAt).toBeGreaterThan(500);
    const after = await sql<{ n: number }>`select count(*)::int as n from call_facts_pending`.execute(s.ctx.db);
    expect(after.rows[0]!.n).toBe(0);
    // Released after the pass: the other node may take it at once.
    const lease = await sql<{ free: boolean }>`select until <= now() as free from analytics_leases where name = 'facts-flush'`.execute(s.ctx.db);
    expect(lease.rows[0]!.free).toBe(true);
  });
});

describe('freshness', () => {
  it('a new call reaches the store, the cached dashboard is dropped and analytics updated goes out', async () => {
    const url = `/api/dashboard?company_id=${a.companyId}&tz=${TZ}&filters[dates][from]=2026-03-07&filters[dates][to]=2026-03-09`;
    expect((await a.client.get(url)).body.data.kpis.totalCalls.value).toBe(5);
    const socket = await connectSocket(s, a.client);
    try {
      expect((await subscribe(socket, `company.${a.companyId}`)).ok).toBe(true);
      const updated = new Promise<any>((resolve) => socket.on('analytics updated', (payload: any) => resolve(payload)));
      const id = await insertCall({
        company: a.companyId,
        number: n2,
        at: '2026-03-09T15:00:00Z',
        from: '+14155550010',
        status: 12,
        answerAfter: 2,
        duration: 20,
      });
      await events.publish(s.ctx, 'call.changed', { callId: id, companyId: a.companyId, numberId: n2.id, from: '+14155550010', status: 12 });
      expect(await updated).toMatchObject({ companyId: a.companyId });
      // (An earlier change of the company may have sent its own `analytics updated`: the new call's follows within ~1 s.)
      await eventually(async () => (await a.client.get(url)).body.data.kpis.totalCalls.value === 6);
      // The fact follows a later change of the call (idempotent rebuild; the rollup follows the fact).
      await s.ctx.db.updateTable('calls').set({ status: 10, answered_at: null, duration_s: 0 }).where('id', '=', id).execute();
      await events.publish(s.ctx, 'call.changed', { callId: id, companyId: a.companyId, numberId: n2.id, from: '+14155550010', status: 10 });
      await flushFactRebuilds(s.ctx);
      // A flush empties the pending set (a clear that missed by the times' precision kept rebuilding the same calls).
      expect((await sql<{ n: number }>`select count(*)::int as n from call_facts_pending`.execute(s.ctx.db)).rows[0]!.n).toBe(0);
      const after = (await a.client.get(url)).body.data.kpis;
      expect([after.totalCalls.value, after.missed.value, after.answered.value]).toEqual([6, 2, 3]);
      const rollup = await sql<{ n: string }>`select coalesce(sum(calls), 0) as n from call_rollup_hours where company_id = ${a.companyId}`.execute(s.ctx.db);
      expect(Number(rollup.rows[0]!.n)).toBe(7); // c0..c5 and the new call, once each
      expect(await rollupMismatches(a.companyId)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);

      // An annotation (qualified as a lead) and call tracking's attribution arriving later.
      await s.ctx.db.updateTable('calls').set({ qualification: 3 }).where('id', '=', id).execute();
      await events.publish(s.ctx, 'call.annotated', { callId: id, companyId: a.companyId });
      await attribute(id, a.companyId, n2.id, '+14155550010', '2026-03-09T15:00:00Z', { trafficSource: 'microsoft_ads', method: 'pool', poolId: 91 });
      // The attribution's handler stores it, then queues the rebuild: wait for the rebuilt fact.
      const leads = await eventually(async () => {
        await flushFactRebuilds(s.ctx);
        const r = await sql<{ leads: string; pool: string }>`
          select (select sum(leads) from call_rollup_hours where company_id = ${a.companyId}) as leads,
            (select sum(calls) from call_rollup_hour_pools where company_id = ${a.companyId} and dni_pool_id = 91) as pool`.execute(s.ctx.db);
        return Number(r.rows[0]!.pool) === 1 ? r.rows[0]! : undefined;
      });
      expect([Number(leads.leads), Number(leads.pool)]).toEqual([2, 1]); // c5 and the new call; the new call in pool 91
      expect(await rollupMismatches(a.companyId)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);

      // A deleted fact leaves every rollup (rows at zero calls are removed).
      await s.ctx.db.deleteFrom('call_facts').where('call_id', '=', id).execute();
      expect(await rollupMismatches(a.companyId)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      const gone = await sql<{ n: string }>`select (select count(*) from call_rollup_hour_pools where company_id = ${a.companyId} and dni_pool_id = 91)
        + (select count(*) from call_rollup_day_pools where company_id = ${a.companyId} and dni_pool_id = 91) as n`.execute(s.ctx.db);
      expect(Number(gone.rows[0]!.n)).toBe(0);
      await rebuildFacts(s.ctx, [id]);
      expect(await rollupMismatches(a.companyId)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      // One statement changing many facts (the rollups follow per statement, migration 0081): keys shared by several
      // rows, rows moving to another hour and day, a change that nets to nothing.
      await sql`update call_facts set started_at = started_at + interval '23 hours', is_lead = not is_lead where company_id = ${a.companyId}`.execute(s.ctx.db);
      expect(await rollupMismatches(a.companyId)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      await sql`update call_facts set started_at = started_at - interval '23 hours', is_lead = not is_lead where company_id = ${a.companyId}`.execute(s.ctx.db);
      await sql`update call_facts set duration_s = duration_s where company_id = ${a.companyId}`.execute(s.ctx.db);
      expect(await rollupMismatches(a.companyId)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    } finally {
      socket.close();
    }
  });
});
