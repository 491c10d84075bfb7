/**
 * The dashboard's hourly series through the real server in zones whose offset is not a whole hour
 * (issue 23 item 6): Australia/Adelaide on both daylight-saving days, Asia/Kathmandu (+5:45) and
 * Australia/Eucla (+8:45). Each series has exactly the local hours of the day (no bucket of the day
 * before), each `at` is the local hour's start, and each call counts in its local hour.
 *
 * Seed (company A, one number): Adelaide 2026-10-04 00:40 ACST (+9:30) and 03:10 ACDT (+10:30);
 * 2026-04-05 02:15 ACDT and 02:15 ACST (the repeated hour); Kathmandu 2026-11-28 00:50 and 23:50.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { rebuildFacts } from './analytics.service.js';

let s: TestServer;
let a: Account;
let n: { id: number; number: string };

let seq = 0;
async function insertCall(at: string): Promise<number> {
  const started = new Date(at);
  const row = await s.ctx.db
    .insertInto('calls')
    .values({
      company_id: a.companyId,
      number_id: n.id,
      carrier_sid: `CAzones${Date.now()}${seq++}`,
      from_number: `+1312555${String(1000 + seq).slice(-4)}`,
      to_number: n.number,
      direction: 'inbound',
      status: 12,
      duration_s: 30,
      started_at: started,
      answered_at: new Date(started.getTime() + 5000),
      ended_at: new Date(started.getTime() + 36_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { timezone: 'Australia/Adelaide' });
  n = await buyTestNumber(a, '212', 0);
  const ids = [
    await insertCall('2026-10-03T15:10:00Z'), // Adelaide 2026-10-04 00:40 (+9:30)
    await insertCall('2026-10-03T16:40:00Z'), // Adelaide 2026-10-04 03:10 (+10:30)
    await insertCall('2026-04-04T15:45:00Z'), // Adelaide 2026-04-05 02:15 (+10:30)
    await insertCall('2026-04-04T16:45:00Z'), // Adelaide 2026-04-05 02:15 again (+9:30)
    await insertCall('2026-11-27T19:05:00Z'), // Kathmandu 2026-11-28 00:50 (+5:45); Eucla 03:50 (+8:45)
    await insertCall('2026-11-28T18:05:00Z'), // Kathmandu 2026-11-28 23:50; Eucla 2026-11-29 02:50 (the next day)
  ];
  await rebuildFacts(s.ctx, ids);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

async function hourly(tz: string, date: string) {
  const r = await a.client.get(
    `/api/dashboard?company_id=${a.companyId}&tz=${encodeURIComponent(tz)}&groupBy=hour&filters[dates][from]=${date}&filters[dates][to]=${date}`,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.data.groupBy).toBe('hour');
  return r.body.data.series as Array<{ bucket: string; at: string; calls: number }>;
}

describe('GET /api/dashboard hourly series in half- and quarter-hour zones', () => {
  it('Australia/Adelaide, the day DST starts: 23 local hours from local midnight, calls in their local hour', async () => {
    const s1 = await hourly('Australia/Adelaide', '2026-10-04');
    expect(s1).toHaveLength(23);
    expect(s1.every((p) => p.bucket.startsWith('2026-10-04 '))).toBe(true);
    expect(s1[0]).toMatchObject({ bucket: '2026-10-04 00:00', at: '2026-10-03T14:30:00.000Z', calls: 1 });
    expect(s1[1]).toMatchObject({ bucket: '2026-10-04 01:00', at: '2026-10-03T15:30:00.000Z' });
    expect(s1[2]).toMatchObject({ bucket: '2026-10-04 03:00', at: '2026-10-03T16:30:00.000Z', calls: 1 });
    expect(s1.reduce((t, p) => t + p.calls, 0)).toBe(2);
  });

  it('Australia/Adelaide, the day DST ends: the repeated 02:00 is one bucket holding both calls', async () => {
    const s2 = await hourly('Australia/Adelaide', '2026-04-05');
    expect(s2).toHaveLength(24);
    expect(s2[0]).toMatchObject({ bucket: '2026-04-05 00:00', at: '2026-04-04T13:30:00.000Z' });
    expect(s2[2]).toMatchObject({ bucket: '2026-04-05 02:00', at: '2026-04-04T15:30:00.000Z', calls: 2 });
    expect(s2[3]).toMatchObject({ bucket: '2026-04-05 03:00', at: '2026-04-04T17:30:00.000Z', calls: 0 });
  });

  it('Asia/Kathmandu and Australia/Eucla: hours on :15 UTC, each call in its local hour', async () => {
    const k = await hourly('Asia/Kathmandu', '2026-11-28');
    expect(k).toHaveLength(24);
    expect(k[0]).toMatchObject({ bucket: '2026-11-28 00:00', at: '2026-11-27T18:15:00.000Z', calls: 1 });
    expect(k[23]).toMatchObject({ bucket: '2026-11-28 23:00', at: '2026-11-28T17:15:00.000Z', calls: 1 });
    const e = await hourly('Australia/Eucla', '2026-11-28');
    expect(e).toHaveLength(24);
    expect(e[0]).toMatchObject({ bucket: '2026-11-28 00:00', at: '2026-11-27T15:15:00.000Z' });
    expect(e[3]).toMatchObject({ bucket: '2026-11-28 03:00', at: '2026-11-27T18:15:00.000Z', calls: 1 });
    expect(e.reduce((t, p) => t + p.calls, 0)).toBe(1);
  });
});
