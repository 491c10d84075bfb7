/**
 * One group-commit batch of number assignments (`trackingRepository.assignSessions`;
 * docs/tracking.md "Number assignment", "Performance"): several visitors of one pool in one
 * statement get different numbers, least recently used first, then the fallback; a visitor twice
 * in the batch keeps its first touch; a visit no pool took gets no number; every session has its
 * first page view; the asynchronous commit is the statement's own (the connection's setting stays).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../platform/db/db.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { trackingRepository, type NewSession } from './tracking.repository.js';

let s: TestServer;
let a: Account;
let poolId: number;
let numbers: Array<{ id: number; number: string }>;
let fallback: { id: number; number: string };

/** Where the test pools' calls ring (a pool is saved with a routing target). */
const FORWARD = { type: 'forward', number: '+15125550199' };

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  numbers = [];
  for (let i = 0; i < 2; i++) numbers.push(await buyTestNumber(a, '312', i));
  fallback = await buyTestNumber(a, '312', 2);
  const r = await a.client.post(`/api/companies/${a.companyId}/dniPools`, {
    routing: FORWARD,
    name: 'Everyone',
    target_numbers: ['+15125550100'],
    number_ids: numbers.map((n) => n.id),
    fallback_number_id: fallback.id,
    session_duration_minutes: 30,
    cool_down_minutes: 10,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  poolId = r.body.data.id;
}, 120_000);

afterAll(async () => {
  await s?.close();
});

function item(visitorId: string, campaign: string, pool: number | null = poolId): NewSession {
  return {
    id: randomUUID(),
    companyId: a.companyId,
    poolId: pool,
    visitorId,
    trafficSource: 'google_ads',
    source: 'google',
    medium: 'cpc',
    campaign,
    keyword: null,
    content: null,
    landingPage: `https://acme.example/${campaign}`,
    referrer: 'https://www.google.com/',
    gclid: `G-${campaign}`,
    gbraid: null,
    wbraid: null,
    msclkid: null,
    fbclid: null,
    touch: { traffic_source: 'google_ads', source: 'google', medium: 'cpc', campaign, keyword: null },
    sessionMinutes: 30,
    coolDownMinutes: 10,
    fallbackNumber: pool === null ? null : fallback.number,
    pageUrl: `https://acme.example/${campaign}`,
    pageTitle: campaign,
    device: 'Desktop',
  };
}

describe('a batch of assignments', () => {
  it('gives each visitor of a pool its own number (least recently used first), then the fallback, in one statement', async () => {
    // The second number was used longer ago than the first: it goes first.
    await sql`update dni_pool_numbers set last_assigned_at = now() - interval '2 days' where number_id = ${numbers[1]!.id}`.execute(s.ctx.db);
    await sql`update dni_pool_numbers set last_assigned_at = now() - interval '1 day' where number_id = ${numbers[0]!.id}`.execute(s.ctx.db);
    const twice = randomUUID();
    const items = [item(twice, 'first'), item(randomUUID(), 'second'), item(twice, 'third'), item(randomUUID(), 'fourth'), item(randomUUID(), 'none', null)];
    const out = await s.ctx.db.connection().execute(async (conn) => {
      const rows = await trackingRepository.assignSessions(conn as Db, items);
      const setting = await sql<{ v: string }>`select current_setting('synchronous_commit') as v`.execute(conn);
      return { rows, setting: setting.rows[0]!.v };
    });
    expect(out.setting).toBe('on');
    expect(out.rows.map((r) => r.id)).toEqual(items.map((i) => i.id));
    expect(out.rows.map((r) => [r.number, r.fallback])).toEqual([
      [numbers[1]!.number, false],
      [numbers[0]!.number, false],
      [fallback.number, true],
      [fallback.number, true],
      [null, false],
    ]);
    expect(out.rows[2]!.first_touch).toMatchObject({ campaign: 'first' });
    expect(out.rows[1]!.first_touch).toMatchObject({ campaign: 'second' });
    expect(out.rows.every((r) => r.pool_was_exhausted === false)).toBe(true);

    const held = await sql<{ number_id: number; session_id: string }>`
      select number_id, session_id from dni_pool_numbers where pool_id = ${poolId} order by number_id`.execute(s.ctx.db);
    expect(new Map(held.rows.map((r) => [Number(r.number_id), r.session_id]))).toEqual(
      new Map([
        [numbers[1]!.id, items[0]!.id],
        [numbers[0]!.id, items[1]!.id],
      ]),
    );
    const views = await trackingRepository.pageViewsOf(
      s.ctx.db,
      items.map((i) => i.id),
    );
    expect(views.map((v) => v.url).sort()).toEqual(items.map((i) => i.pageUrl).sort());

    // A later batch finds the visitor's stored first touch, and no free number.
    const [later] = await trackingRepository.assignSessions(s.ctx.db, [item(twice, 'later')]);
    expect(later!.first_touch).toMatchObject({ campaign: 'first' });
    expect(later!.fallback).toBe(true);
  });
});
