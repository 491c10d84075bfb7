/**
 * Call tracking through the real server (docs/tracking.md): pools CRUD and tenant isolation, the
 * public script endpoints (assignment, keeping a number, cool-down, fallback and exhaustion, 422,
 * 404, rate limit, no other company's data), concurrent assignment over two server nodes on one
 * database, attribution of a simulated call to the session and its source, first contact,
 * verifyScript (timeout, size cap, non-HTTP(S), private targets, the demo site), the bulk attribute
 * update (a company and a business unit), the DNI reports, `trackingmatch` through `GET /api/activity`,
 * leads (a call, a text and the visits of one person; a duplicate delivery of a call counted once),
 * and the consent withdrawal's `forget` call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, IpClient, startSecondNode, startTestServer, type TestServer } from '../../../test/harness.js';
import { events } from '../../platform/events/index.js';
import { setDefaultAddressPolicy } from '../../platform/http/safe-fetch.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { PUBLIC_RATE_LIMIT } from './tracking-public.routes.js';
import { scriptSize, verifyTuning } from './script.js';
import { sweepSessions } from './assignment.js';
import { onCallChanged } from './attribution.js';
import { addCompanyMember, createOrganization } from '../companies/companies.service.js';
import { trackingRepository } from './tracking.repository.js';
import { listTrackingMatchActivity, callIdsOfSession, poolNamesOf } from './tracking.service.js';

let s: TestServer;
let s2: TestServer;
let a: Account;
let b: Account;
let numbers: Array<{ id: number; number: string }>;
let fallback: { id: number; number: string };
let key: string;

/**
 * A call of `phone` to the fallback number, stored as the calls module has it (started a minute ago) but announced by
 * no event of its own: only the deliveries a test makes reach call tracking (a simulated call's own later events
 * would attribute or repair it on their own).
 */
async function storeUnannouncedCall(
  phone: string,
  state: { status: number; duration_s: number; answeredAfterS?: number; endedAfterS?: number },
): Promise<{ call_id: number; started_at: Date }> {
  const startedAt = new Date(Date.now() - 60_000);
  const after = (sec: number | undefined) => (sec === undefined ? null : new Date(startedAt.getTime() + sec * 1000));
  const inserted = await s.ctx.db
    .insertInto('calls')
    .values({
      company_id: a.companyId,
      number_id: fallback.id,
      carrier_sid: `CAquiet${phone.slice(-4)}${Date.now()}`,
      from_number: phone,
      to_number: fallback.number,
      direction: 'inbound',
      status: state.status,
      duration_s: state.duration_s,
      started_at: startedAt,
      answered_at: after(state.answeredAfterS),
      ended_at: after(state.endedAfterS),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { call_id: Number(inserted.id), started_at: startedAt };
}
const exhausted: Array<{ poolId: number; poolName: string }> = [];
const attributed: Array<{
  callId: number;
  isFirstContact: boolean;
  trafficSource: string | null;
  gclid: string | null;
  sessionId: string | null;
  ads?: { gaClientId?: string | null; gaSessionId?: string | null; fbp?: string | null; fbc?: string | null; sessionStarted: boolean };
}> = [];

const TARGET = '+15125550100';

/** Where the test pools' calls ring (a pool is saved with a routing target). */
const FORWARD = { type: 'forward', number: '+15125550199' };

beforeAll(async () => {
  s = await startTestServer();
  s2 = await startSecondNode(s);
  a = await createAccount(s);
  b = await createAccount(s);
  numbers = [];
  for (let i = 0; i < 4; i++) numbers.push(await buyTestNumber(a, '312', i));
  fallback = await buyTestNumber(a, '312', 4);
  events.consume('test.tracking-1', 'tracking.pool-exhausted', (_ctx, e) => {
    if (e.companyId === a.companyId) exhausted.push({ poolId: e.poolId, poolName: e.poolName });
  });
  events.consume('test.tracking-2', 'call.attributed', (_ctx, e) => {
    if (e.companyId === a.companyId)
      attributed.push({
        callId: e.callId,
        isFirstContact: e.isFirstContact,
        trafficSource: e.trafficSource,
        gclid: e.gclid,
        sessionId: e.sessionId,
        ads: { gaClientId: e.gaClientId, gaSessionId: e.gaSessionId, fbp: e.fbp, fbc: e.fbc, sessionStarted: Boolean(e.sessionStartedAt) },
      });
  });
}, 120_000);

afterAll(async () => {
  await s2?.close();
  await s?.close();
});

/** Ends every session of company A and its cool-downs (as if an hour passed). */
async function timePasses(): Promise<void> {
  await sql`update dni_sessions set expires_at = now() - interval '1 hour', last_seen_at = now() - interval '2 hours' where company_id = ${a.companyId}`.execute(
    s.ctx.db,
  );
  await sql`update dni_pool_numbers set held_until = now() - interval '1 hour' where company_id = ${a.companyId} and held_until is not null`.execute(s.ctx.db);
}

/** A visitor's browser: its own address and cookie jar. */
function visitor(server: TestServer = s) {
  return new IpClient(server.url);
}
function open(v: IpClient, k: string, q: Record<string, string>) {
  return v.get(`/api/dni/public/${k}/session?${new URLSearchParams(q)}`);
}

let poolId: number;

describe('pools', () => {
  it('creates a pool with numbers, rules, fallback and answers it with its health', async () => {
    const r = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      routing: FORWARD,
      name: 'Paid search',
      target_numbers: ['(512) 555-0100'],
      source_rules: {
        all_visitors: false,
        traffic_sources: ['google_ads'],
        custom_rules: [{ field: 'utm_source', operator: 'equals', value: 'newsletter-x' }],
      },
      number_ids: [numbers[0]!.id, numbers[1]!.id],
      fallback_number_id: fallback.id,
      session_duration_minutes: 30,
      cool_down_minutes: 10,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    poolId = r.body.data.id;
    expect(r.body.data).toMatchObject({
      name: 'Paid search',
      target_numbers: [TARGET],
      fallback_number: fallback.number,
      numbers: [
        { number_id: expect.any(Number), state: 'free' },
        { number_id: expect.any(Number), state: 'free' },
      ],
      health: { size: 2, in_use: 0, free: 2, status: 'healthy', exhaustion_count_7d: 0, recommended_size: 0 },
    });
    const list = await a.client.get(`/api/companies/${a.companyId}/dniPools`);
    expect(list.body.data.map((p: { id: number }) => p.id)).toEqual([poolId]);
    const script = await a.client.get(`/api/companies/${a.companyId}/trackingNumbers/script`);
    expect(script.status).toBe(200);
    key = script.body.settings.key;
    expect(script.body.snippet).toContain(`/api/dni/public/${key}/script.js`);
    expect(script.body.demo_url).toContain(`/api/dni/demo/${key}`);
  });

  it('changes only what a PUT sends', async () => {
    const r = await a.client.put(`/api/companies/${a.companyId}/dniPools/${poolId}`, { name: 'Paid search (Google)' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({
      name: 'Paid search (Google)',
      cool_down_minutes: 10,
      fallback_number_id: fallback.id,
      source_rules: { all_visitors: false, traffic_sources: ['google_ads'] },
    });
    expect(r.body.data.numbers).toHaveLength(2);
    const back = await a.client.put(`/api/companies/${a.companyId}/dniPools/${poolId}`, { name: 'Paid search' });
    expect(back.body.data.name).toBe('Paid search');
  });

  it('refuses bad input with field errors (422)', async () => {
    const other = await buyTestNumber(b, '415');
    const r = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      routing: FORWARD,
      name: 'Bad',
      target_numbers: ['not a phone'],
      number_ids: [numbers[0]!.id, other.id],
      session_duration_minutes: 2,
    });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(['session_duration_minutes']);
    const r2 = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      routing: FORWARD,
      name: 'Bad',
      target_numbers: ['not a phone'],
      number_ids: [numbers[0]!.id, other.id],
    });
    expect(r2.status).toBe(422);
    expect(r2.body.errors).toMatchObject({
      'target_numbers.0': ['The number is not a valid phone number.'],
      'number_ids.0': ['The number is already in another pool or is a static tracking number.'],
      'number_ids.1': ['The selected number is invalid.'],
    });
    const bad = await a.client.get(`/api/companies/${a.companyId}/dniPools/abc`);
    expect(bad.status).toBe(422);
  });

  it("keeps other companies' pools apart (403 for the company, 404 for a pool)", async () => {
    expect((await b.client.get(`/api/companies/${a.companyId}/dniPools`)).status).toBe(403);
    expect((await b.client.get(`/api/companies/${a.companyId}/dniPools/${poolId}`)).status).toBe(403);
    expect((await b.client.get(`/api/companies/${b.companyId}/dniPools/${poolId}`)).status).toBe(404);
    expect((await b.client.put(`/api/companies/${b.companyId}/dniPools/${poolId}`, { name: 'x' })).status).toBe(404);
    expect((await b.client.delete(`/api/companies/${b.companyId}/dniPools/${poolId}`)).status).toBe(404);
    expect((await b.client.get(`/api/companies/${a.companyId}/dni/realTimeFeed`)).status).toBe(403);
    expect((await b.client.post('/api/dni/reports/calls', { company_id: a.companyId, from: '2026-01-01', to: '2026-01-02' })).status).toBe(403);
  });
});

describe('the public script endpoints', () => {
  it('serves the script under its budget with the company key', async () => {
    const r = await fetch(`${s.url}/api/dni/public/${key}/script.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('javascript');
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await r.text()).toContain(`"k":"${key}"`);
    expect(scriptSize().gzip).toBeLessThan(5 * 1024);
    expect((await fetch(`${s.url}/api/dni/public/zzzzzzzzzzzz/script.js`)).status).toBe(404);
  });

  it('gives a Google Ads visitor a pool number, keeps it for the session, and leaves direct visitors alone', async () => {
    const v = visitor();
    const first = await open(v, key, { url: 'https://acme.example/?utm_source=google&utm_medium=cpc&gclid=TEST1', referrer: 'https://www.google.com/' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(v.cookie('sb_dni_vid')).toBe(first.body.visitor_id);
    const shown = first.body.swaps[0].number;
    expect(first.body.swaps).toEqual([{ target: TARGET, number: shown }]);
    expect([numbers[0]!.number, numbers[1]!.number]).toContain(shown);
    // The next page of the same session keeps the number.
    const again = await open(v, key, { url: 'https://acme.example/pricing', referrer: 'https://acme.example/', session_id: first.body.session_id });
    expect(again.body).toMatchObject({ session_id: first.body.session_id, swaps: [{ target: TARGET, number: shown }] });
    const pv = await v.get(`/api/dni/public/${key}/pageview?session_id=${first.body.session_id}&url=${encodeURIComponent('https://acme.example/contact')}`);
    expect(pv.body).toEqual({ active: true });
    const timeline = await a.client.get(`/api/companies/${a.companyId}/dniTimelineEvents/${first.body.session_id}`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.session).toMatchObject({
      traffic_source: 'google_ads',
      source: 'google',
      click_ids: { gclid: 'TEST1' },
      page_views: 3,
      number: shown,
      active: true,
    });
    expect(timeline.body.events.map((e: { kind: string }) => e.kind)).toEqual(['session_started', 'number_assigned', 'page_view', 'page_view', 'page_view']);
    // A direct visitor matches no pool: no swap.
    const direct = await open(visitor(), key, { url: 'https://acme.example/' });
    expect(direct.body.swaps).toEqual([]);
    // The other company never sees this session.
    expect((await b.client.get(`/api/companies/${b.companyId}/dniTimelineEvents/${first.body.session_id}`)).status).toBe(404);
  });

  it('gives the fallback number once the pool is exhausted, records the episode once, and frees numbers after the cool-down', async () => {
    const v2 = visitor();
    const second = await open(v2, key, { url: 'https://acme.example/?gclid=TEST2' });
    expect(second.body.swaps[0].number).not.toBe(fallback.number);
    const third = await open(visitor(), key, { url: 'https://acme.example/?gclid=TEST3' });
    expect(third.body.swaps).toEqual([{ target: TARGET, number: fallback.number }]);
    const fourth = await open(visitor(), key, { url: 'https://acme.example/?gclid=TEST4' });
    expect(fourth.body.swaps[0].number).toBe(fallback.number);
    // The episode is recorded just after the answers (off the visitor's path).
    await eventually(async () => exhausted.length > 0);
    expect(exhausted).toEqual([{ poolId, poolName: 'Paid search' }]);
    const pool = await eventually(async () => {
      const r = await a.client.get(`/api/companies/${a.companyId}/dniPools/${poolId}`);
      return r.body.data.health.fallback_sessions_7d === 2 && r;
    });
    expect(pool.body.data.health).toMatchObject({ size: 2, in_use: 2, status: 'exhausted', exhaustion_count_7d: 1, fallback_sessions_7d: 2 });

    // The second visitor's session ends (as if 31 minutes passed): its number cools down 10 minutes.
    await sql`update dni_sessions set expires_at = now() - interval '1 minute', last_seen_at = now() - interval '31 minutes' where id = ${second.body.session_id}::uuid`.execute(
      s.ctx.db,
    );
    await sql`update dni_pool_numbers set held_until = now() - interval '1 minute' where session_id = ${second.body.session_id}::uuid`.execute(s.ctx.db);
    const hb = await v2.get(`/api/dni/public/${key}/heartbeat?session_id=${second.body.session_id}`);
    expect(hb.body).toEqual({ active: false });
    const cooling = await open(visitor(), key, { url: 'https://acme.example/?gclid=TEST5' });
    expect(cooling.body.swaps[0].number).toBe(fallback.number);
    // After the cool-down the number is given again, and the exhaustion episode ends.
    await sql`update dni_pool_numbers set held_until = now() - interval '11 minutes' where session_id = ${second.body.session_id}::uuid`.execute(s.ctx.db);
    const back = await open(visitor(), key, { url: 'https://acme.example/?gclid=TEST6' });
    expect(back.body.swaps[0].number).toBe(second.body.swaps[0].number);
    const episodes = await eventually(async () => {
      const r = await sql<{ ended: boolean; fallback_sessions: number }>`
        select ended_at is not null as ended, fallback_sessions from dni_exhaustions where pool_id = ${poolId}`.execute(s.ctx.db);
      return r.rows[0]?.ended && r;
    });
    expect(episodes.rows).toEqual([{ ended: true, fallback_sessions: 3 }]);
    expect(exhausted).toHaveLength(1);
  });

  it('refuses bad input (422), unknown keys (404) and sessions of another company', async () => {
    const v = visitor();
    expect((await v.get(`/api/dni/public/NOT-A-KEY/session?url=x`)).status).toBe(422);
    expect((await v.get(`/api/dni/public/${key}/session`)).status).toBe(422);
    expect((await v.get(`/api/dni/public/${key}/session?url=https%3A%2F%2Fa.example&session_id=123`)).status).toBe(422);
    expect((await v.get(`/api/dni/public/${key}/heartbeat?session_id=nope`)).status).toBe(422);
    expect((await v.get(`/api/dni/public/abcdefghij/session?url=https%3A%2F%2Fa.example`)).status).toBe(404);
    // Company B's key with a session id of company A: a new session of B, nothing of A.
    const bScript = await b.client.get(`/api/companies/${b.companyId}/trackingNumbers/script`);
    const aSession = await open(visitor(), key, { url: 'https://acme.example/?gclid=TESTX' });
    const cross = await open(visitor(), bScript.body.settings.key, { url: 'https://b.example/?gclid=Y', session_id: aSession.body.session_id });
    expect(cross.status).toBe(200);
    expect(cross.body.session_id).not.toBe(aSession.body.session_id);
    expect(cross.body.swaps).toEqual([]);
    const hb = await visitor().get(`/api/dni/public/${bScript.body.settings.key}/heartbeat?session_id=${aSession.body.session_id}`);
    expect(hb.body).toEqual({ active: false });
  });

  it('rate-limits each visitor address', async () => {
    const v = visitor();
    const url = `/api/dni/public/${key}/heartbeat?session_id=00000000-0000-4000-8000-000000000000`;
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_RATE_LIMIT + 1; i++) statuses.push((await v.get(url)).status);
    expect(statuses.slice(0, PUBLIC_RATE_LIMIT).every((x) => x === 200)).toBe(true);
    const last = await v.get(url);
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await visitor().get(url)).status).toBe(200);
  });

  it('removes the visitor cookie when consent is withdrawn (forget)', async () => {
    const v = visitor();
    const first = await open(v, key, { url: 'https://acme.example/' });
    expect(v.cookie('sb_dni_vid')).toBe(first.body.visitor_id);
    const r = await v.get(`/api/dni/public/${key}/forget`);
    expect(r.status).toBe(200);
    // The visitor's session ended at once: a heartbeat finds it gone, its number is cooling down.
    expect((await v.get(`/api/dni/public/${key}/heartbeat?session_id=${first.body.session_id}`)).body).toEqual({ active: false });
    const ended = await sql<{ ended: boolean }>`select ended_at is not null as ended from dni_sessions where id = ${first.body.session_id}::uuid`.execute(
      s.ctx.db,
    );
    expect(ended.rows).toEqual([{ ended: true }]);
    expect(r.body).toEqual({ active: false });
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.getSetCookie().join('\n')).toMatch(/sb_dni_vid=;.*Expires=Thu, 01 Jan 1970/i);
    expect(v.cookie('sb_dni_vid')).toBeUndefined();
    expect((await v.get(`/api/dni/public/abcdefghij/forget`)).status).toBe(404);
    expect((await v.get(`/api/dni/public/NOT-A-KEY/forget`)).status).toBe(422);
  });
});

describe('concurrent assignment over two server nodes', () => {
  it('never gives one number to two live sessions', async () => {
    const big = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      routing: FORWARD,
      name: 'Everyone',
      priority: 200,
      target_numbers: ['+15125550199'],
      number_ids: [numbers[2]!.id, numbers[3]!.id],
    });
    expect(big.status, JSON.stringify(big.body)).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => open(visitor(i % 2 ? s2 : s), key, { url: `https://acme.example/landing-${i}`, referrer: 'https://news.example/' })),
    );
    expect(results.filter((r) => r.status !== 200).map((r) => [r.status, r.body])).toEqual([]);
    const given = results.map((r) => r.body.swaps[0]?.number).filter((n: string | undefined) => n !== undefined);
    const poolNumbers = given.filter((n: string) => n === numbers[2]!.number || n === numbers[3]!.number);
    expect(poolNumbers.sort()).toEqual([numbers[2]!.number, numbers[3]!.number].sort());
    const live = await sql<{ number_id: number; n: number }>`
      select number_id, count(*)::int as n from dni_sessions where company_id = ${a.companyId} and number_id is not null and not fallback and expires_at > now()
      group by number_id having count(*) > 1`.execute(s.ctx.db);
    expect(live.rows).toEqual([]);
  });
});

describe('attribution', () => {
  it('attributes a simulated call to the session that held the number, with its source and click id', async () => {
    await timePasses();
    const v = visitor();
    const seen = await open(v, key, {
      url: 'https://acme.example/?utm_source=google&utm_medium=cpc&utm_campaign=spring&gclid=CALLME',
      referrer: 'https://www.google.com/',
      // The page's GA4 and Meta cookies as the script sends them (issue 24): kept with the session for the integrations.
      ga: 'GA1.1.1234567890.1764000000',
      gs: 'ABC123:GS2.1.s1764000000$o3$g1$t1764000100$j0$l0$h0',
      fbp: 'fb.1.1764000000000.987654321',
      fbc: 'not-a-cookie',
    });
    const shown = seen.body.swaps[0].number as string;
    expect(shown).not.toBe(fallback.number);
    const call = await a.client.post('/api/simulator/calls', { from: '+13125557001', to: shown });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    const feed = await eventually(async () => {
      const r = await a.client.get(`/api/companies/${a.companyId}/dni/realTimeFeed`);
      return r.body.calls.find((c: { from: string }) => c.from === '+13125557001') ? r : null;
    });
    const fc = feed.body.calls.find((c: { from: string }) => c.from === '+13125557001');
    expect(fc).toMatchObject({
      method: 'pool',
      number: shown,
      session_id: seen.body.session_id,
      traffic_source: 'google_ads',
      campaign: 'spring',
      is_first_contact: true,
    });
    const detail = await a.client.get(`/api/companies/${a.companyId}/dniCallAttribution/${fc.call_id}`);
    expect(detail.body.data).toMatchObject({
      method: 'pool',
      pool_id: poolId,
      pool_name: 'Paid search',
      session_id: seen.body.session_id,
      last_touch: { traffic_source: 'google_ads', source: 'google', medium: 'cpc', campaign: 'spring' },
      first_touch: { traffic_source: 'google_ads' },
      click_ids: { gclid: 'CALLME' },
      landing_page: 'https://acme.example/',
      is_first_contact: true,
    });
    expect(attributed.find((x) => x.callId === fc.call_id)).toEqual({
      callId: fc.call_id,
      isFirstContact: true,
      trafficSource: 'google_ads',
      gclid: 'CALLME',
      sessionId: seen.body.session_id,
      ads: { gaClientId: '1234567890.1764000000', gaSessionId: '1764000000', fbp: 'fb.1.1764000000000.987654321', fbc: null, sessionStarted: true },
    });
    expect((await b.client.get(`/api/companies/${b.companyId}/dniCallAttribution/${fc.call_id}`)).status).toBe(404);

    // The activity functions published for the feed.
    const acts = await listTrackingMatchActivity(s.ctx, a.companyId, { limit: 10, sessionId: seen.body.session_id });
    expect(acts.total).toBe(1);
    expect(acts.items[0]).toMatchObject({
      callId: fc.call_id,
      sessionId: seen.body.session_id,
      poolName: 'Paid search',
      trafficSource: 'google_ads',
      number: shown,
    });
    expect(await callIdsOfSession(s.ctx, a.companyId, seen.body.session_id)).toEqual([fc.call_id]);
    expect(await callIdsOfSession(s.ctx, b.companyId, seen.body.session_id)).toEqual([]);
    expect([...(await poolNamesOf(s.ctx, a.companyId, [poolId, 999_999])).entries()]).toEqual([[poolId, 'Paid search']]);
    expect((await poolNamesOf(s.ctx, b.companyId, [poolId])).size).toBe(0);

    // The same caller again: a repeat, not a first contact; one event per call.
    await a.client.post('/api/simulator/calls', { from: '+13125557001', to: shown });
    await eventually(async () => attributed.filter((x) => x.callId !== fc.call_id && x.sessionId === seen.body.session_id).length === 1);
    const repeat = attributed.find((x) => x.callId !== fc.call_id && x.sessionId === seen.body.session_id)!;
    expect(repeat.isFirstContact).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(attributed.filter((x) => x.callId === fc.call_id)).toHaveLength(1);

    // The journey shows the call; the report counts it under Google Ads.
    const timeline = await a.client.get(`/api/companies/${a.companyId}/dniTimelineEvents/${seen.body.session_id}`);
    expect(timeline.body.events.filter((e: { kind: string }) => e.kind === 'call')).toHaveLength(2);
    const byNumber = await a.client.get(`/api/companies/${a.companyId}/dniTimelineEventsByNumber/${encodeURIComponent(shown)}`);
    expect(byNumber.body.data[0].session.id).toBe(seen.body.session_id);
    const today = new Date().toISOString().slice(0, 10);
    const report = await a.client.post('/api/dni/reports/calls', { company_id: a.companyId, from: today, to: today, group_by: 'campaign' });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.data.find((r: { key: string }) => r.key === 'spring')).toMatchObject({
      calls: 2,
      first_time_callers: 1,
      sessions: 1,
      conversion_rate: 2,
    });
    // Two episodes of this pool: the one above, and the visitor of the cross-company test while both numbers were held.
    const pools = await a.client.get(`/api/dni/reports?company_id=${a.companyId}`);
    expect(pools.status).toBe(200);
    expect(pools.body.data.find((p: { pool_id: number }) => p.pool_id === poolId)).toMatchObject({ size: 2, exhaustion_count: 2, bucket: 'day', calls: 2 });
  });

  it('attributes a call to a static tracking number to its source', async () => {
    const n = await buyTestNumber(a, '646', 0);
    const src = await a.client.post(`/api/companies/${a.companyId}/dniSources`, {
      name: 'Billboard I-35',
      number_id: n.id,
      source: 'billboard',
      medium: 'outdoor',
    });
    expect(src.status, JSON.stringify(src.body)).toBe(201);
    expect((await a.client.post(`/api/companies/${a.companyId}/dniSources`, { name: 'Again', number_id: n.id })).status).toBe(422);
    await a.client.post('/api/simulator/calls', { from: '+13125557002', to: n.number });
    const feed = await eventually(async () => {
      const r = await a.client.get(`/api/companies/${a.companyId}/dni/realTimeFeed`);
      return r.body.calls.find((c: { from: string }) => c.from === '+13125557002');
    });
    expect(feed).toMatchObject({ method: 'static', traffic_source: 'static', source: 'billboard', session_id: null });
    const sources = await a.client.get(`/api/companies/${a.companyId}/dniSources`);
    expect(sources.body.data.find((x: { id: number }) => x.id === src.body.data.id).calls_30d).toBe(1);
  });

  it('lists the matched call as a trackingmatch in GET /api/activity filtered by its session (dniSessionId)', async () => {
    await timePasses();
    const seen = await open(visitor(), key, { url: 'https://acme.example/offers?utm_source=google&utm_medium=cpc&utm_campaign=feed&gclid=ACT1' });
    const shown = seen.body.swaps[0].number as string;
    expect(shown).not.toBe(fallback.number);
    const other = await open(visitor(), key, { url: 'https://acme.example/?gclid=ACT2' });
    expect((await a.client.post('/api/simulator/calls', { from: '+13125557012', to: shown })).status).toBe(200);
    await eventually(async () => attributed.some((x) => x.sessionId === seen.body.session_id));
    const callId = attributed.find((x) => x.sessionId === seen.body.session_id)!.callId;

    const url = (sessionId: string, extra = '') => `/api/activity?company=${a.companyId}&filter[dniSessionId]=${sessionId}${extra}`;
    const res = await eventually(async () => {
      const r = await a.client.get(url(seen.body.session_id));
      return r.status === 200 && r.body.data.some((i: { kind: string }) => i.kind === 'trackingmatch') ? r : null;
    });
    const match = res.body.data.filter((i: { kind: string }) => i.kind === 'trackingmatch');
    expect(match).toHaveLength(1);
    expect(match[0]).toMatchObject({
      id: `trackingmatch-${callId}`,
      call_id: callId,
      from: '+13125557012',
      to: shown,
      direction: 'inbound',
      number: { number: shown },
      tracking: {
        session_id: seen.body.session_id,
        pool_id: poolId,
        traffic_source: 'google_ads',
        source: 'google',
        medium: 'cpc',
        campaign: 'feed',
        landing_page: 'https://acme.example/offers',
      },
    });
    // Only this visit's items: the call itself and its match.
    expect(res.body.data.every((i: { call_id?: number }) => i.call_id === callId)).toBe(true);
    // Another visit without a call has none; the trackingmatch flag off leaves the match out.
    expect((await a.client.get(url(other.body.session_id))).body).toMatchObject({ data: [], meta: { total: 0 } });
    const flagOff = await a.client.get(url(seen.body.session_id, '&filter[trackingmatch]=0'));
    expect(flagOff.body.data.filter((i: { kind: string }) => i.kind === 'trackingmatch')).toEqual([]);
    // Another company never sees it.
    expect((await b.client.get(url(seen.body.session_id).replace(`company=${a.companyId}`, `company=${b.companyId}`))).body.data).toEqual([]);
  });
});

describe('leads', () => {
  const PHONE = '+13125557010';

  it("groups one person's call, text and visits as one lead with its first and last touch", async () => {
    await timePasses();
    const v = visitor();
    const seen = await open(v, key, { url: 'https://acme.example/?utm_source=google&utm_medium=cpc&utm_campaign=leads&gclid=LEAD1' });
    const shown = seen.body.swaps[0].number as string;
    expect(shown).not.toBe(fallback.number);
    expect((await a.client.post('/api/simulator/calls', { from: PHONE, to: shown })).status).toBe(200);
    await eventually(async () => attributed.some((x) => x.sessionId === seen.body.session_id));
    const text = await a.client.post('/api/simulator/messages', { from: PHONE, to: shown, body: 'Do you work on weekends?' });
    expect(text.status, JSON.stringify(text.body)).toBe(200);
    // The same visitor (cookie) comes back later from a search engine: a new visit of the lead.
    const back = await open(v, key, { url: 'https://acme.example/faq', referrer: 'https://www.bing.com/' });
    expect(back.body.session_id).not.toBe(seen.body.session_id);

    const list = await eventually(async () => {
      const r = await a.client.get(`/api/companies/${a.companyId}/dni/leads?search=${encodeURIComponent('(312) 555-7010')}`);
      return r.body.data?.[0]?.texts === 1 ? r.body : null;
    });
    expect(list.meta).toEqual({ current_page: 1, per_page: 25, total: 1, last_page: 1 });
    const lead = list.data[0];
    expect(lead).toMatchObject({
      company_id: a.companyId,
      phone: PHONE,
      calls: 1,
      texts: 1,
      sessions: 2,
      first_touch: { traffic_source: 'google_ads', source: 'google', medium: 'cpc', campaign: 'leads' },
      last_touch: { traffic_source: 'organic', source: 'bing.com', medium: 'organic' },
    });

    const detail = await a.client.get(`/api/companies/${a.companyId}/dni/leads/${lead.id}`);
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.data).toEqual(lead);
    expect(detail.body.calls).toHaveLength(1);
    expect(detail.body.calls[0]).toMatchObject({
      lead_id: lead.id,
      from: PHONE,
      number: shown,
      method: 'pool',
      session_id: seen.body.session_id,
      last_touch: { traffic_source: 'google_ads', campaign: 'leads' },
      click_ids: { gclid: 'LEAD1' },
      is_first_contact: true,
    });
    expect(detail.body.texts).toEqual([{ at: expect.any(String), from: PHONE, number_id: expect.any(Number), number: shown }]);
    expect(detail.body.sessions.map((x: { id: string }) => x.id)).toEqual([back.body.session_id, seen.body.session_id]);

    // Search by a campaign finds it; by other digits not.
    const byCampaign = await a.client.get(`/api/companies/${a.companyId}/dni/leads?search=LEADS`);
    expect(byCampaign.body.data.map((l: { id: number }) => l.id)).toContain(lead.id);
    expect((await a.client.get(`/api/companies/${a.companyId}/dni/leads?search=999000`)).body.data).toEqual([]);
    // Paged, latest contact first: the lead that texted last is on top.
    const page = await a.client.get(`/api/companies/${a.companyId}/dni/leads?per_page=1`);
    expect(page.body.data.map((l: { id: number }) => l.id)).toEqual([lead.id]);
    expect(page.body.meta.total).toBeGreaterThan(1);

    // Another company: 403 on this company's list, 404 for the lead under its own, nothing in its list.
    expect((await b.client.get(`/api/companies/${a.companyId}/dni/leads`)).status).toBe(403);
    expect((await b.client.get(`/api/companies/${b.companyId}/dni/leads/${lead.id}`)).status).toBe(404);
    expect((await b.client.get(`/api/companies/${b.companyId}/dni/leads`)).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await a.client.get(`/api/companies/${a.companyId}/dni/leads/abc`)).status).toBe(422);
    expect((await a.client.get(`/api/companies/${a.companyId}/dni/leads?per_page=0`)).status).toBe(422);
  });

  it('counts a call once on its lead when its first delivery arrives twice at once (two nodes)', async () => {
    const phone = '+13125557013';
    const stored = await storeUnannouncedCall(phone, { status: 1, duration_s: 0 });
    const before = attributed.filter((x) => x.callId === stored.call_id).length;
    const e = {
      callId: stored.call_id,
      companyId: a.companyId,
      numberId: fallback.id,
      from: phone,
      status: 1,
      direction: 'inbound' as const,
      durationS: 0,
      startedAt: stored.started_at,
    };
    // The duplicate webhook: both deliveries find no attribution and race to store it, on two nodes.
    await Promise.all([onCallChanged(s.ctx, e), onCallChanged(s2.ctx, e), onCallChanged(s.ctx, e)]);
    const lead = await sql<{ calls: number }>`select calls from dni_leads where company_id = ${a.companyId} and phone = ${phone}`.execute(s.ctx.db);
    expect(lead.rows).toEqual([{ calls: 1 }]);
    const rows = await sql<{ n: number }>`select count(*)::int as n from dni_call_attributions where call_id = ${stored.call_id}`.execute(s.ctx.db);
    expect(rows.rows[0]!.n).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(attributed.filter((x) => x.callId === stored.call_id).length - before).toBe(1);
  });
});

describe('attribution keeps the call state current (issue 23 item 5)', () => {
  it("converges to the call's latest status and length when a later event arrives while the first is being attributed", async () => {
    const phone = '+13125557014';
    // A call stored as the calls module has it now (answered, 25 s), announced by no event of its own: only the
    // two deliveries below reach call tracking (a simulated call's own events could arrive late and repair the row).
    const stored = await storeUnannouncedCall(phone, { status: 12, duration_s: 25, answeredAfterS: 5, endedAfterS: 30 });
    const startedAt = stored.started_at;
    // The caller's lead (as an earlier call of theirs left it).
    await sql`insert into dni_leads (company_id, phone, first_seen_at, last_seen_at, calls, texts)
      values (${a.companyId}, ${phone}, ${startedAt}, ${startedAt}, 0, 0) on conflict do nothing`.execute(s.ctx.db);
    const base = {
      callId: stored.call_id,
      companyId: a.companyId,
      numberId: fallback.id,
      from: phone,
      direction: 'inbound' as const,
      startedAt: stored.started_at,
    };
    // Hold the caller's lead row so both deliveries stop inside their attribution, after finding no row:
    // the first (Started, 0 s) is granted the lock first and stores its row; the later one (Connected, 25 s) loses its insert.
    const holder = new pg.Client({ connectionString: s.dbUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from dni_leads where company_id = $1 and phone = $2 for update', [a.companyId, phone]);
      const first = onCallChanged(s.ctx, { ...base, status: 1, durationS: 0 });
      await new Promise((r) => setTimeout(r, 300));
      const later = onCallChanged(s2.ctx, { ...base, status: 12, durationS: 25 });
      await new Promise((r) => setTimeout(r, 300));
      await holder.query('commit');
      await Promise.all([first, later]);
    } finally {
      await holder.end();
    }
    const row = await sql<{
      status: number;
      duration_s: number;
    }>`select status, duration_s from dni_call_attributions where call_id = ${stored.call_id}`.execute(s.ctx.db);
    expect(row.rows).toEqual([{ status: 12, duration_s: 25 }]);

    // An event overtaken by a newer one (Started handled after Connected) does not take the row back.
    await onCallChanged(s.ctx, { ...base, status: 1, durationS: 0 });
    const again = await sql<{
      status: number;
      duration_s: number;
    }>`select status, duration_s from dni_call_attributions where call_id = ${stored.call_id}`.execute(s.ctx.db);
    expect(again.rows).toEqual([{ status: 12, duration_s: 25 }]);
  });
});

describe('pool utilisation buckets (issue 23 item 6, the same stepping elsewhere)', () => {
  it('starts day buckets at local midnights across a DST change, and hour buckets at local hour starts in a half-hour zone', async () => {
    const days = await trackingRepository.utilisation(
      s.ctx.db,
      poolId,
      new Date('2026-10-31T04:00:00Z'),
      new Date('2026-11-03T05:00:00Z'),
      'day',
      'America/New_York',
    );
    expect(days.map((d) => d.at.toISOString())).toEqual(['2026-10-31T04:00:00.000Z', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
    const hours = await trackingRepository.utilisation(
      s.ctx.db,
      poolId,
      new Date('2026-06-14T14:30:00Z'),
      new Date('2026-06-14T17:30:00Z'),
      'hour',
      'Australia/Adelaide',
    );
    expect(hours.map((h) => h.at.toISOString())).toEqual(['2026-06-14T14:30:00.000Z', '2026-06-14T15:30:00.000Z', '2026-06-14T16:30:00.000Z']);
  });
});

describe('verifyScript', () => {
  let slow: http.Server;
  let page: http.Server;
  let big: http.Server;
  beforeAll(async () => {
    slow = http.createServer((_req, res) => setTimeout(() => res.end('late'), 2000));
    page = http.createServer((_req, res) => res.end(`<html><script async src="https://x.example/api/dni/public/${key}/script.js"></script></html>`));
    // A page past the size cap, with the snippet at its very end (never read).
    big = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<html>${'<p>filler</p>'.repeat(2000)}<script async src="https://x.example/api/dni/public/${key}/script.js"></script></html>`);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
  });
  afterAll(() => {
    slow.close();
    page.close();
    big.close();
  });

  it('refuses a page larger than the size cap (too_large)', async () => {
    const previous = setDefaultAddressPolicy({ allowHosts: ['127.0.0.1'] });
    const before = verifyTuning.maxBytes;
    verifyTuning.maxBytes = 8 * 1024;
    try {
      const r = await a.client.post(`/api/companies/${a.companyId}/trackingNumbers/verifyScript`, {
        url: `http://127.0.0.1:${(big.address() as AddressInfo).port}/`,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ result: 'too_large', installed: false, key_found: null, http_status: null, message: 'The page is too large to check.' });
      // Under a cap it fits, the same page is checked in full.
      verifyTuning.maxBytes = 1024 * 1024;
      const whole = await a.client.post(`/api/companies/${a.companyId}/trackingNumbers/verifyScript`, {
        url: `http://127.0.0.1:${(big.address() as AddressInfo).port}/`,
      });
      expect(whole.body).toMatchObject({ result: 'installed', installed: true });
    } finally {
      verifyTuning.maxBytes = before;
      setDefaultAddressPolicy(previous);
    }
  });

  it('refuses non-HTTP(S) and private-network targets with 422', async () => {
    for (const url of [
      'ftp://example.com/',
      'file:///etc/passwd',
      'http://127.0.0.1/',
      'http://10.0.0.5/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
    ]) {
      const r = await a.client.post(`/api/companies/${a.companyId}/trackingNumbers/verifyScript`, { url });
      expect(r.status, url).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual(['url']);
    }
  });

  it('times out on a slow page and finds the snippet on a page that has it', async () => {
    const previous = setDefaultAddressPolicy({ allowHosts: ['127.0.0.1'] });
    const before = verifyTuning.timeoutMs;
    verifyTuning.timeoutMs = 300;
    try {
      const t = await a.client.post(`/api/companies/${a.companyId}/trackingNumbers/verifyScript`, {
        url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`,
      });
      expect(t.body).toMatchObject({ result: 'timeout', installed: false });
      const ok = await a.client.post(`/api/companies/${a.companyId}/trackingNumbers/verifyScript`, {
        url: `http://127.0.0.1:${(page.address() as AddressInfo).port}/`,
      });
      expect(ok.body).toMatchObject({ result: 'installed', installed: true, key_found: key });
      const bKey = (await b.client.get(`/api/companies/${b.companyId}/trackingNumbers/script`)).body.settings.key;
      expect(bKey).not.toBe(key);
      const other = await b.client.post(`/api/companies/${b.companyId}/trackingNumbers/verifyScript`, {
        url: `http://127.0.0.1:${(page.address() as AddressInfo).port}/`,
      });
      expect(other.body).toMatchObject({ result: 'other_key', installed: false });
    } finally {
      verifyTuning.timeoutMs = before;
      setDefaultAddressPolicy(previous);
    }
  });

  it("allows the product's own demo site (sandbox carrier)", async () => {
    const r = await a.client.post(`/api/companies/${a.companyId}/trackingNumbers/verifyScript`, { url: `${s.ctx.config.publicUrl}/api/dni/demo/${key}` });
    expect(r.body).toMatchObject({ result: 'installed', installed: true });
    const html = await (await fetch(`${s.url}/api/dni/demo/${key}`)).text();
    expect(html).toContain('512-555-0100');
    expect(html).toContain('(512) 555-0100');
    expect(html).toContain('+1 512 555 0100');
  });
});

describe('bulk attribute update', () => {
  it('downloads a template, reports bad rows by number and applies nothing, then applies a good file', async () => {
    const t = await a.client.get(`/api/bulkAttributeUpdate/companies/${a.companyId}`);
    expect(t.status).toBe(200);
    expect(t.headers.get('content-type')).toContain('text/csv');
    expect(String(t.body).split('\r\n')[0]).toBe('company_id,number,name,traffic_source,source,medium,campaign,keyword');
    const pool0 = numbers[0]!.number;
    const free = await buyTestNumber(a, '718', 0);
    const bad = new FormData();
    bad.set(
      'file',
      new Blob([`number,name,traffic_source,campaign\n${free.number},Radio,static,fall\n${pool0},X,static,\n+19999,Y,,\n${free.number},Z,weird,\n`]),
      'a.csv',
    );
    const r = await a.client.post(`/api/bulkAttributeUpdate/companies/${a.companyId}`, bad);
    expect(r.status).toBe(422);
    expect(r.body.row_errors).toEqual([
      { row: 2, column: 'number', message: 'The number is in a tracking pool.' },
      { row: 3, column: 'number', message: 'The number is not a valid phone number.' },
      { row: 4, column: 'number', message: 'The number is listed twice (row 1).' },
    ]);
    const none = await a.client.get(`/api/companies/${a.companyId}/dniSources`);
    expect(none.body.data.find((x: { number: string }) => x.number === free.number)).toBeUndefined();
    const good = new FormData();
    good.set('file', new Blob([`number,name,traffic_source,campaign\n${free.number},Radio spot,static,fall\n`]), 'a.csv');
    const ok = await a.client.post(`/api/bulkAttributeUpdate/companies/${a.companyId}`, good);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ rows: 1, created: 1, updated: 0, row_errors: [] });
    const after = await a.client.get(`/api/companies/${a.companyId}/dniSources`);
    expect(after.body.data.find((x: { number: string }) => x.number === free.number)).toMatchObject({
      name: 'Radio spot',
      campaign: 'fall',
      traffic_source: 'static',
    });
    expect((await b.client.post(`/api/bulkAttributeUpdate/companies/${a.companyId}`, good)).status).toBe(403);
    expect((await b.client.get(`/api/bulkAttributeUpdate/businessUnits/999999`)).status).toBe(404);
  });

  it("applies a business unit's file across its companies, and nothing when a row is bad (row number reported)", async () => {
    // A person who manages two companies of one business unit.
    const owner = await createAccount(s);
    const sibling = await createAccount(s);
    const org = await createOrganization(s.ctx, 'Tracking unit', owner.userId);
    await s.ctx.db.updateTable('companies').set({ organization_id: org }).where('id', 'in', [owner.companyId, sibling.companyId]).execute();
    await addCompanyMember(s.ctx, sibling.companyId, owner.userId, 'administrator');
    const n1 = await buyTestNumber(owner, '929', 0);
    const n2 = await buyTestNumber(sibling, '929', 1);

    const t = await owner.client.get(`/api/bulkAttributeUpdate/businessUnits/${org}`);
    expect(t.status).toBe(200);
    const lines = String(t.body).trim().split('\r\n');
    expect(lines).toContain(`${owner.companyId},${n1.number},,,,,,`);
    expect(lines).toContain(`${sibling.companyId},${n2.number},,,,,,`);

    const csv = (rows: string[]) => {
      const f = new FormData();
      f.set('file', new Blob([['company_id,number,name,traffic_source,source,campaign', ...rows].join('\n')]), 'unit.csv');
      return f;
    };
    const rowA = `${owner.companyId},${n1.number},Radio A,static,radio,fall`;
    const rowB = `${sibling.companyId},${n2.number},Radio B,static,radio,fall`;
    const bad = await owner.client.post(
      `/api/bulkAttributeUpdate/businessUnits/${org}`,
      csv([rowA, rowB, `${sibling.companyId},${fallback.number},Not theirs,static,,`, `,${n2.number},No company,static,,`]),
    );
    expect(bad.status, JSON.stringify(bad.body)).toBe(422);
    expect(bad.body).toMatchObject({ rows: 4, created: 0, updated: 0 });
    expect(bad.body.row_errors).toEqual([
      { row: 3, column: 'number', message: "The number is not one of the company's numbers." },
      { row: 4, column: 'company_id', message: 'The company_id is required for a business unit.' },
    ]);
    expect(bad.body.errors).toEqual({
      'row.3': ["number: The number is not one of the company's numbers."],
      'row.4': ['company_id: The company_id is required for a business unit.'],
    });
    for (const c of [owner.companyId, sibling.companyId]) expect((await owner.client.get(`/api/companies/${c}/dniSources`)).body.data).toEqual([]);

    const ok = await owner.client.post(`/api/bulkAttributeUpdate/businessUnits/${org}`, csv([rowA, rowB]));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ rows: 2, created: 2, updated: 0, unchanged: 0, row_errors: [] });
    expect((await owner.client.get(`/api/companies/${owner.companyId}/dniSources`)).body.data).toEqual([
      expect.objectContaining({ number: n1.number, name: 'Radio A', traffic_source: 'static', source: 'radio', campaign: 'fall' }),
    ]);
    expect((await owner.client.get(`/api/companies/${sibling.companyId}/dniSources`)).body.data).toEqual([
      expect.objectContaining({ number: n2.number, name: 'Radio B', source: 'radio', campaign: 'fall' }),
    ]);
    // Applied again: unchanged. Someone outside the unit: 404.
    expect((await owner.client.post(`/api/bulkAttributeUpdate/businessUnits/${org}`, csv([rowA, rowB]))).body).toMatchObject({ unchanged: 2 });
    expect((await b.client.post(`/api/bulkAttributeUpdate/businessUnits/${org}`, csv([rowA]))).status).toBe(404);
  });
});

describe('buying numbers for a pool', () => {
  it('adds the numbers of the bulk purchase to the pool as it completes', async () => {
    const search = await a.client.get('/api/numbers/search?type=local&areaCode=415');
    const wanted = search.body.data.slice(0, 2) as Array<{ number: string; provider_id: number }>;
    const r = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      routing: FORWARD,
      name: 'Bought',
      priority: 300,
      target_numbers: ['+15125550122'],
      purchase: wanted.map((n) => ({ number: n.number, provider_id: n.provider_id })),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.batchId).toEqual(expect.any(String));
    const pool = await eventually(async () => {
      const p = await a.client.get(`/api/companies/${a.companyId}/dniPools/${r.body.data.id}`);
      return p.body.data.numbers.length === 2 && p.body.data.pending_purchase_batch_id === null ? p.body.data : null;
    }, 20_000);
    expect(pool.numbers.map((n: { number: string }) => n.number).sort()).toEqual(wanted.map((n) => n.number).sort());
    // Bought numbers ring the pool's target (issue 23 item 1), flagged as routed.
    expect(pool.numbers.every((n: { has_routing: boolean }) => n.has_routing)).toBe(true);
    for (const n of pool.numbers as Array<{ number_id: number }>) {
      const got = await a.client.get(`/api/numbers/${n.number_id}`);
      expect((got.body.data ?? got.body).routes[0].forwards).toEqual([expect.objectContaining({ number: FORWARD.number })]);
    }
    const bad = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      routing: FORWARD,
      name: 'Bad buy',
      target_numbers: ['+15125550123'],
      purchase: [{ number: 'nope', provider_id: 1 }],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['purchase.0.number']);
  });
});

describe("where a pool's calls ring (issue 23 item 1)", () => {
  /** A number's stored routes (the numbers API). */
  async function routesOf(id: number): Promise<Array<{ forwards: Array<{ number: string }>; voicemail_enabled: boolean }>> {
    const r = await a.client.get(`/api/numbers/${id}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.data ?? r.body).routes;
  }
  /** A simulated call to `to`: its log as text (what the caller heard and which numbers were dialled). */
  async function callLog(to: string, from: string): Promise<string> {
    const r = await a.client.post('/api/simulator/calls', { from, to });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return JSON.stringify(r.body.log);
  }

  it('refuses a pool without a routing target, or with one that rings no one (422 with field errors)', async () => {
    const none = await a.client.post(`/api/companies/${a.companyId}/dniPools`, { name: 'Nowhere', target_numbers: ['+15125550140'] });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ routing: ["Choose where the pool's calls ring."] });
    const bare = await buyTestNumber(a, '708', 0); // a bought number's default entry reaches no one
    const copy = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      name: 'Copy',
      target_numbers: ['+15125550141'],
      routing: { type: 'number', number_id: bare.id },
    });
    expect(copy.status).toBe(422);
    expect(copy.body.errors).toEqual({ 'routing.number_id': ['The selected number has no routing to copy.'] });
    const other = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      name: 'Template',
      target_numbers: ['+15125550142'],
      routing: { type: 'template', template_id: 999_999 },
    });
    expect(other.body.errors).toEqual({ 'routing.template_id': ['The selected template is invalid.'] });
    const fwd = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      name: 'Forward',
      target_numbers: ['+15125550143'],
      routing: { type: 'forward', number: 'call me' },
    });
    expect(fwd.body.errors).toEqual({ 'routing.number': ['The number is not a valid phone number.'] });
    const kind = await a.client.post(`/api/companies/${a.companyId}/dniPools`, { name: 'Kind', target_numbers: ['+15125550144'], routing: { type: 'x' } });
    expect(kind.status).toBe(422);
    expect(Object.keys(kind.body.errors)).toEqual(['routing.type']);
  });

  it("gives the pool's numbers its target's routing (forward, a number's routing, a template), shows it, and rings it", async () => {
    const n1 = await buyTestNumber(a, '708', 1);
    const n2 = await buyTestNumber(a, '708', 2);
    const created = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      name: 'Forwarded',
      priority: 400,
      target_numbers: ['+15125550145'],
      number_ids: [n1.id],
      routing: { type: 'forward', number: '(512) 555-0177' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const pool = created.body.data;
    expect(pool.routing).toEqual({ type: 'forward', number_id: null, template_id: null, number: '+15125550177', label: '' });
    expect(pool.numbers).toEqual([expect.objectContaining({ number_id: n1.id, has_routing: true })]);
    expect((await routesOf(n1.id))[0]).toMatchObject({ forwards: [{ number: '+15125550177' }], voicemail_enabled: true });
    const rang = await callLog(n1.number, '+13125557020');
    expect(rang).toContain('5125550177');
    expect(rang).not.toMatch(/no one is available/i);

    // A number added later gets the pool's routing.
    const added = await a.client.put(`/api/companies/${a.companyId}/dniPools/${pool.id}`, { number_ids: [n1.id, n2.id] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await routesOf(n2.id))[0]).toMatchObject({ forwards: [{ number: '+15125550177' }] });

    // Another target: a copy of a number's routing, given to every pool number.
    const office = await buyTestNumber(a, '708', 3);
    const saved = await a.client.put(`/api/numbers/${office.id}`, { label: 'Office line', routes: [{ extension: 1, forwards: [{ number: '+15125550188' }] }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const copied = await a.client.put(`/api/companies/${a.companyId}/dniPools/${pool.id}`, { routing: { type: 'number', number_id: office.id } });
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    expect(copied.body.data.routing).toEqual({ type: 'number', number_id: office.id, template_id: null, number: office.number, label: 'Office line' });
    for (const id of [n1.id, n2.id]) expect((await routesOf(id))[0]!.forwards).toEqual([expect.objectContaining({ number: '+15125550188' })]);

    // A template.
    const t = await a.client.post(`/api/companies/${a.companyId}/numberTemplates`, {
      name: 'Sales desk',
      routes: [{ extension: 1, forwards: [{ number: '+15125550166' }] }],
    });
    expect(t.status, JSON.stringify(t.body)).toBeLessThan(300);
    const templateId = (t.body.data ?? t.body).id;
    const templated = await a.client.put(`/api/companies/${a.companyId}/dniPools/${pool.id}`, { routing: { type: 'template', template_id: templateId } });
    expect(templated.status, JSON.stringify(templated.body)).toBe(200);
    expect(templated.body.data.routing).toMatchObject({ type: 'template', template_id: templateId, label: 'Sales desk' });
    expect((await routesOf(n2.id))[0]!.forwards).toEqual([expect.objectContaining({ number: '+15125550166' })]);
  });

  it('flags a pool number without routing and still rings the pool target for it (never an empty route)', async () => {
    const n = await buyTestNumber(a, '708', 4);
    const created = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      name: 'Flagged',
      priority: 401,
      target_numbers: ['+15125550146'],
      number_ids: [n.id],
      routing: { type: 'forward', number: '+15125550178' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Someone empties the number's routing afterwards.
    expect((await a.client.put(`/api/numbers/${n.id}`, { routes: [{ extension: 1, forwards: [] }] })).status).toBe(200);
    const pool = (await a.client.get(`/api/companies/${a.companyId}/dniPools/${created.body.data.id}`)).body.data;
    expect(pool.numbers).toEqual([expect.objectContaining({ number_id: n.id, has_routing: false })]);
    const rang = await callLog(n.number, '+13125557021');
    expect(rang).toContain('5125550178');
    expect(rang).not.toMatch(/no one is available/i);
  });

  it('a pool saved before targets existed must be given one, and meanwhile its numbers ring the company main routing', async () => {
    const main = await buyTestNumber(a, '708', 5);
    expect((await a.client.put(`/api/numbers/${main.id}`, { routes: [{ extension: 1, forwards: [{ number: '+15125550155' }] }] })).status).toBe(200);
    const n = await buyTestNumber(a, '708', 6);
    const created = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      name: 'Legacy',
      priority: 402,
      target_numbers: ['+15125550147'],
      fallback_number_id: main.id,
      routing: FORWARD,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    // As a pool from before migration 0052 without a fallback number's routing: no target; a number bought with the default entry joins it.
    await sql`update dni_pools set routing_type = null, routing = null, routing_forward = null where id = ${id}`.execute(s.ctx.db);
    await sql`insert into dni_pool_numbers (number_id, pool_id, company_id, number) values (${n.id}, ${id}, ${a.companyId}, ${n.number})`.execute(s.ctx.db);
    const legacy = (await a.client.get(`/api/companies/${a.companyId}/dniPools/${id}`)).body.data;
    expect(legacy.routing).toBeNull();
    expect(legacy.numbers).toEqual([expect.objectContaining({ number_id: n.id, has_routing: false })]);
    const refused = await a.client.put(`/api/companies/${a.companyId}/dniPools/${id}`, { name: 'Legacy (renamed)' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ routing: ["Choose where the pool's calls ring."] });
    const rang = await callLog(n.number, '+13125557022');
    expect(rang).toContain('5125550155');
    expect(rang).not.toMatch(/no one is available/i);
  });
});

describe('live events', () => {
  it('publishes visitors and matched calls on the company channel', async () => {
    const socket = await connectSocket(s, a.client);
    try {
      expect((await subscribe(socket, `company.${a.companyId}`)).ok).toBe(true);
      const got: Array<{ event: string; payload: { type?: string; visitor?: { session_id: string } } }> = [];
      socket.onAny((event: string, payload) => {
        if (event.startsWith('dni ')) got.push({ event, payload });
      });
      await timePasses();
      const seen = await open(visitor(), key, { url: 'https://acme.example/?gclid=LIVE' });
      await eventually(async () =>
        got.some((g) => g.event === 'dni visitor' && g.payload.type === 'started' && g.payload.visitor?.session_id === seen.body.session_id),
      );
      await a.client.post('/api/simulator/calls', { from: '+13125557003', to: seen.body.swaps[0].number });
      await eventually(async () => got.some((g) => g.event === 'dni call matched'));
    } finally {
      socket.close();
    }
  });
});

describe('the session sweep', () => {
  it('marks ended sessions once and keeps one pending sweep across nodes', async () => {
    await timePasses();
    await sweepSessions(s.ctx, {});
    const stillOpen = await sql<{ n: number }>`select count(*)::int as n from dni_sessions where company_id = ${a.companyId} and ended_at is null`.execute(
      s.ctx.db,
    );
    expect(stillOpen.rows[0]!.n).toBe(0);
    expect(await trackingRepository.endExpiredSessions(s.ctx.db, 500)).toEqual([]);

    await sql`update dni_sweep_schedule set next_at = null`.execute(s.ctx.db);
    const t = new Date(Date.now() + 60_000);
    expect(await trackingRepository.claimSweep(s.ctx.db, t)).toBe(true);
    expect(await trackingRepository.claimSweep(s.ctx.db, new Date(t.getTime() + 1000))).toBe(false); // one is due sooner
    const sooner = new Date(t.getTime() - 1000);
    expect(await trackingRepository.claimSweep(s.ctx.db, sooner)).toBe(true);
    expect(await trackingRepository.handOverSweep(s.ctx.db, t, new Date())).toBe(false); // the claim is no longer t's
    expect(await trackingRepository.handOverSweep(s.ctx.db, sooner, null)).toBe(false); // nothing left: no successor
    const row = await sql<{ next_at: Date | null }>`select next_at from dni_sweep_schedule`.execute(s.ctx.db);
    expect(row.rows[0]!.next_at).toBeNull();
  });
});

describe('deleting a pool', () => {
  it('keeps the numbers with shouldDeleteNumbers=0', async () => {
    const p = await a.client.post(`/api/companies/${a.companyId}/dniPools`, { routing: FORWARD, name: 'Temp', target_numbers: ['+15125550111'] });
    const d = await a.client.delete(`/api/companies/${a.companyId}/dniPools/${p.body.data.id}?shouldDeleteNumbers=0`);
    expect(d.status).toBe(200);
    expect(d.body.batchId).toBeNull();
    expect((await a.client.get(`/api/companies/${a.companyId}/dniPools/${p.body.data.id}`)).status).toBe(404);
    expect((await a.client.delete(`/api/companies/${a.companyId}/dniPools/${poolId}?shouldDeleteNumbers=2`)).status).toBe(422);
  });

  it('releases the numbers with shouldDeleteNumbers=1', async () => {
    const n = await buyTestNumber(a, '917', 0);
    const p = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      routing: FORWARD,
      name: 'Short-lived',
      target_numbers: ['+15125550112'],
      number_ids: [n.id],
    });
    expect(p.status).toBe(201);
    const d = await a.client.delete(`/api/companies/${a.companyId}/dniPools/${p.body.data.id}?shouldDeleteNumbers=1`);
    expect(d.body.batchId).toEqual(expect.any(String));
    await eventually(async () => (await a.client.get(`/api/numbers/${n.id}`)).status === 404, 20_000);
  });

  it('takes a number released elsewhere out of its pool', async () => {
    const n = await buyTestNumber(a, '917', 1);
    const p = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
      routing: FORWARD,
      name: 'Keeps',
      target_numbers: ['+15125550113'],
      number_ids: [n.id],
    });
    expect((await a.client.post(`/api/numbers/${n.id}/remove`)).status).toBeLessThan(300);
    await eventually(async () => (await a.client.get(`/api/companies/${a.companyId}/dniPools/${p.body.data.id}`)).body.data.numbers.length === 0, 20_000);
  });
});
