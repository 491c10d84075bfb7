/**
 * Bursts against a small pool (docs/architecture.md "Transactions never wait on the pool"):
 * five times DB_POOL_MAX concurrent inbound SMS (each delivered twice, as a carrier retry storm
 * does), SMS status callbacks, voice webhooks and API writes at one server with cold caches, all
 * answered (2xx, or 503 with Retry-After and then retried as a carrier would) and every message
 * stored exactly once; a webhook that gets no connection within DB_ACQUIRE_TIMEOUT_MS answers 503
 * with Retry-After and leaves nothing behind; the transaction guard rejects a pool wait at once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type HttpResult, type TestServer } from '../../../test/harness.js';
import { PoolWaitInTransactionError } from './tx-guard.js';

/** Buys the first sandbox number of `areaCode` into the account's company through the API. */
async function buyTestNumber(account: Account, areaCode: string): Promise<{ id: number; number: string }> {
  const search = await account.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}`);
  const candidate = search.body.data[0];
  const bought = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: candidate.provider_id, number: candidate.number });
  if (bought.status !== 201) throw new Error(`number purchase failed: ${bought.status} ${JSON.stringify(bought.body)}`);
  return { id: bought.body.id, number: bought.body.number };
}

const POOL = 4;
const BURST = 5 * POOL;

let s: TestServer;
let a: Account;
let number: { id: number; number: string };

beforeAll(async () => {
  s = await startTestServer({ dbPoolMax: POOL });
  a = await createAccount(s);
  number = await buyTestNumber(a, '212');
});
afterAll(async () => {
  await s?.close();
});

/** Reads rows with a connection of its own (never the server's pool). */
async function query<T>(server: TestServer, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: server.dbUrl });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

type Outcome = { status: number; attempts: number; busy: number };

/**
 * Sends until the answer is not 503, waiting Retry-After between attempts as a carrier does.
 * @throws when a 503 comes without Retry-After, or after 10 attempts.
 */
async function untilServed(send: () => Promise<HttpResult>): Promise<Outcome> {
  let busy = 0;
  for (let attempt = 1; attempt <= 10; attempt++) {
    const r = await send();
    if (r.status !== 503) return { status: r.status, attempts: attempt, busy };
    busy++;
    const retryAfter = Number(r.headers.get('retry-after'));
    expect(retryAfter, '503 without Retry-After').toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
  }
  throw new Error('still 503 after 10 attempts');
}

const sid = (prefix: string, i: number) => `${prefix}${String(i).padStart(32 - prefix.length, '0')}`;

describe(`a burst of ${BURST} of each kind at a pool of ${POOL}`, () => {
  it('answers every delivery and stores every message once; health answers afterwards', async () => {
    // Outbound messages whose status callbacks the burst repeats (the sandbox delivers them first).
    const sent = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: `+1312555${String(2000 + i)}`, content: `before ${i}` }),
      ),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(BURST).fill(201));
    const sids = await eventually(async () => {
      const rows = await query<{ carrier_sid: string | null; delivery_state: string }>(
        s,
        'select carrier_sid, delivery_state from conversation_items where id = any($1)',
        [sent.map((r) => r.body.id)],
      );
      return rows.length === BURST && rows.every((r) => r.carrier_sid && r.delivery_state === 'delivered') ? rows.map((r) => r.carrier_sid!) : null;
    }, 20_000);

    const inbound = Array.from({ length: BURST }, (_, i) => ({
      MessageSid: sid('SMburst', i),
      From: `+1312555${String(3000 + i)}`,
      To: number.number,
      Body: `burst ${i}`,
      NumMedia: '0',
    }));
    const jobs: Array<{ kind: string; run: () => Promise<HttpResult> }> = [
      // Each inbound text twice at once: a carrier retrying while the first delivery is in flight.
      ...inbound.flatMap((p) => [0, 1].map(() => ({ kind: 'sms', run: () => postWebhook(s, '/webhooks/twilio/messaging', p) }))),
      ...sids.map((MessageSid) => ({ kind: 'status', run: () => postWebhook(s, '/webhooks/twilio/messaging/status', { MessageSid, MessageStatus: 'read' }) })),
      ...Array.from({ length: BURST }, (_, i) => ({
        kind: 'voice',
        run: () =>
          postWebhook(s, '/webhooks/twilio/voice', {
            CallSid: sid('CAburst', i),
            From: `+1312555${String(4000 + i)}`,
            To: number.number,
            CallStatus: 'ringing',
            Direction: 'inbound',
          }),
      })),
      ...Array.from({ length: BURST }, (_, i) => ({
        kind: 'api',
        run: () => a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: `+1312555${String(5000 + i)}`, content: `api ${i}` }),
      })),
    ];
    // Interleave the kinds so each wave of requests mixes them.
    const mixed = jobs
      .map((j, i) => ({ j, at: (i * 7919) % jobs.length }))
      .sort((x, y) => x.at - y.at)
      .map((x) => x.j);
    const outcomes = await Promise.all(mixed.map(async (j) => ({ kind: j.kind, ...(await untilServed(j.run)) })));

    for (const o of outcomes) expect([200, 201], `${o.kind} answered ${o.status}`).toContain(o.status);
    console.log(`burst: ${outcomes.length} deliveries, ${outcomes.filter((o) => o.busy > 0).length} answered 503 at least once (then retried)`);

    const stored = await query<{ carrier_sid: string; n: number }>(
      s,
      `select carrier_sid, count(*)::int as n from conversation_items where carrier_sid like 'SMburst%' group by carrier_sid`,
    );
    expect(stored).toHaveLength(BURST);
    expect(stored.every((r) => r.n === 1)).toBe(true);
    const calls = await query<{ carrier_sid: string; n: number }>(
      s,
      `select carrier_sid, count(*)::int as n from calls where carrier_sid like 'CAburst%' group by carrier_sid`,
    );
    expect(calls).toHaveLength(BURST);
    expect(calls.every((r) => r.n === 1)).toBe(true);
    const api = await query<{ body: string; n: number }>(
      s,
      `select body, count(*)::int as n from conversation_items where company_id = $1 and body like 'api %' group by body`,
      [a.companyId],
    );
    expect(api).toHaveLength(BURST);
    expect(api.every((r) => r.n === 1)).toBe(true);
    const receipts = await query<{ n: number }>(s, `select count(*)::int as n from webhook_receipts where key = any($1) and status_code = 200`, [
      sids.map((x) => `smsstatus:${x}:read`),
    ]);
    expect(receipts[0]!.n).toBe(BURST);

    // Nothing is left holding a connection: the pool serves the next request at once.
    const health = await fetch(`${s.url}/api/health`);
    expect(health.status).toBe(200);
    // No session is left waiting inside a transaction (jobs of the queue may be mid-transaction for a moment).
    const stuck = await query<{ query: string }>(
      s,
      `select query from pg_stat_activity where datname = current_database() and state like 'idle in transaction%' and state_change < now() - interval '2 seconds'`,
    );
    expect(stuck).toEqual([]);
  }, 120_000);
});

/**
 * Takes every connection of `pool` that is idle or not yet opened, and keeps taking the ones given back until none
 * has been given back for `quietMs` (ms). Never waits on the pool itself, so a connection held for good (the live
 * channel's listener) cannot hang it.
 */
async function holdEveryFreeConnection(pool: pg.Pool, quietMs: number): Promise<pg.PoolClient[]> {
  const held: pg.PoolClient[] = [];
  let quietSince = Date.now();
  while (Date.now() - quietSince < quietMs) {
    if (pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 0)) {
      held.push(await pool.connect());
      quietSince = Date.now();
    } else {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return held;
}

describe('no connection within DB_ACQUIRE_TIMEOUT_MS', () => {
  let t: TestServer;
  let b: Account;
  let n: { id: number; number: string };
  beforeAll(async () => {
    // No workers: a job finishing mid-test would hand its connection to the requests that must find none.
    t = await startTestServer({ dbPoolMax: 3, dbAcquireTimeoutMs: 300, shutdownTimeoutMs: 1500, runWorkers: false });
    b = await createAccount(t);
    n = await buyTestNumber(b, '415');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a webhook answers 503 with Retry-After and leaves no receipt; an API call answers 503; both work once a connection is free', async () => {
    // Take every connection the pool has left, including ones that after-commit work of the set-up gives back late.
    const pool = t.ctx.pool;
    const held = await holdEveryFreeConnection(pool, 1000);
    const sms = { MessageSid: 'SMnoconnection0000000000000000001', From: '+14155550101', To: n.number, Body: 'are you there', NumMedia: '0' };
    const voice = { CallSid: 'CAnoconnection0000000000000000001', From: '+14155550102', To: n.number, CallStatus: 'ringing', Direction: 'inbound' };
    try {
      const [r, v, api] = await Promise.all([
        postWebhook(t, '/webhooks/twilio/messaging', sms),
        postWebhook(t, '/webhooks/twilio/voice', voice),
        b.client.post('/api/message', { company_id: b.companyId, number_id: n.id, to: '+14155550103', content: 'hello' }),
      ]);
      for (const x of [r, v, api]) {
        expect(x.status).toBe(503);
        expect(Number(x.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      const receipts = await query(t, `select key from webhook_receipts where key in ('sms:${sms.MessageSid}', 'voice:${voice.CallSid}:start')`);
      expect(receipts).toEqual([]);
      expect(await query(t, `select id from conversation_items where carrier_sid = $1 or body = 'hello'`, [sms.MessageSid])).toEqual([]);
      expect(await query(t, `select id from calls where carrier_sid = $1`, [voice.CallSid])).toEqual([]);
    } finally {
      for (const c of held) c.release();
    }
    // The carrier's retry is served and stored once.
    expect((await postWebhook(t, '/webhooks/twilio/messaging', sms)).status).toBe(200);
    expect((await postWebhook(t, '/webhooks/twilio/voice', voice)).status).toBe(200);
    expect(await query(t, `select id from conversation_items where carrier_sid = $1`, [sms.MessageSid])).toHaveLength(1);
    expect(await query(t, `select id from calls where carrier_sid = $1`, [voice.CallSid])).toHaveLength(1);
  });

  it('the guard refuses a pool connection asked for inside a transaction, and allows reads through the transaction', async () => {
    const db = t.ctx.db;
    await expect(db.transaction().execute(async () => db.selectFrom('users').select('id').execute())).rejects.toBeInstanceOf(PoolWaitInTransactionError);
    await expect(
      db
        .transaction()
        .setIsolationLevel('read committed')
        .execute(async (tx) => {
          await tx.selectFrom('users').select('id').execute();
          await db.transaction().execute(async () => undefined);
        }),
    ).rejects.toBeInstanceOf(PoolWaitInTransactionError);
    const rows = await db.transaction().execute(async (tx) => tx.selectFrom('users').select('id').execute());
    expect(rows.length).toBeGreaterThan(0);
    // Work scheduled inside a transaction that runs after its commit may use the pool.
    let later: Promise<unknown> | undefined;
    await db.transaction().execute(async (tx) => {
      await tx.selectFrom('users').select('id').execute();
      await new Promise<void>((resolve) => {
        setTimeout(resolve, 0);
      });
      later = new Promise((resolve, reject) => setTimeout(() => db.selectFrom('users').select('id').execute().then(resolve, reject), 50));
    });
    await expect(later).resolves.toBeDefined();
  });

  it('close() gives up after SHUTDOWN_TIMEOUT_MS when a connection is never given back', async () => {
    const held = await t.ctx.pool.connect();
    const started = Date.now();
    await t.close();
    const took = Date.now() - started;
    held.release();
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(1500 + 2000);
  });
});
