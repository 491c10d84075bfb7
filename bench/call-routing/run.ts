/**
 * bench/call-routing (bench/README.md; docs/architecture.md "The voice webhook's hot path"): the voice webhook's routing decision under concurrent load.
 *
 * What it does, in one run (about 2-3 minutes):
 *  1. Starts a throwaway embedded PostgreSQL (temp dir, persistent false) and the real server on it
 *     (`startServer`: migrations, Fastify app, realtime, queue workers; sandbox carrier, a known
 *     TWILIO_AUTH_TOKEN, LOG_LEVEL silent, SEED_DEMO 0, WORKERS 1).
 *  2. Bulk-loads 1 company, 10,000 numbers with realistic routing data (1-3 extension entries of
 *     1-3 forwards each, mixed route types, round robin, per-entry and per-number schedules in
 *     several zones), 10,000 contacts, a few blocks, 1,000,000 historic calls (and one call event and
 *     one webhook receipt per call, as production would hold), then VACUUM ANALYZE + CHECKPOINT.
 *  3. Starts a plain Fastify app in the same process with `POST /static` answering a fixed TwiML
 *     string (with @fastify/formbody, so it accepts the identical signed form request).
 *  4. Load: autocannon in a CHILD process (so the load generator does not share the server's event
 *     loop), N connections, every request a distinct CallSid, To = one of the 10,000 numbers at
 *     random, From random, X-Twilio-Signature computed per request with
 *     `twilio.getExpectedTwilioSignature` over PUBLIC_URL + path. Both endpoints receive the same
 *     kind of request (same generator, same signing cost on the client).
 *     Warm-up for each endpoint first, then measured runs.
 *  5. Prints a table (req/s, p50, p99, errors, non-2xx), the ratio webhook ÷ baseline and PASS/MISS
 *     against the targets (p99 < 25 ms; ratio ≥ 0.5). Nothing is asserted.
 *
 * Usage: `cd bench && npm run bench:call-routing` (or `npx tsx call-routing/run.ts`).
 * Environment knobs: BENCH_CONNECTIONS (20), BENCH_DURATION_S (10), BENCH_WARMUP_S (3),
 * BENCH_NUMBERS (10000), BENCH_CALLS (1000000), BENCH_PIPELINING (1), BENCH_LOW_CONNECTIONS (4: a second
 * webhook run at that concurrency, 0 = skip), BENCH_PROFILE (1: SQL timings + CPU profile),
 * BENCH_PROFILE_OUT (a path: also save the .cpuprofile there); DB_POOL_MAX (the server's pool, 10).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { fmt, postgresCpuDelta, postgresCpuMs, sleep, startBenchDatabase, tempDir } from '../lib/bench-server.js';
import { sql } from 'kysely';

const CHILD_ROLE = 'BENCH_CALL_ROUTING_LOAD';
const AUTH_TOKEN = 'bench-auth-token';
const VOICE_PATH = '/webhooks/twilio/voice';
const STATIC_PATH = '/static';
/** The durable floor: verify the signature, insert one row with synchronous commit through the server's pool, answer TwiML. */
const FLOOR_PATH = '/floor';
const SMS_PATH = '/webhooks/twilio/messaging';
const STATIC_TWIML =
  '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Thanks for calling.</Say><Dial timeout="20"><Number>+14155550100</Number></Dial></Response>';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

/** What the parent asks the load child to do. */
type LoadJob = {
  url: string; // where to connect (http://127.0.0.1:port)
  path: string;
  publicUrl: string; // what the signature is computed over (PUBLIC_URL + path)
  numbers: string[]; // To candidates (E.164)
  connections: number;
  pipelining: number;
  durationS: number;
  sidPrefix: string;
  /** Open loop: at most this many requests per second over all connections (autocannon `overallRate`); unset = closed loop. */
  rate?: number;
  /** What the signed form carries: a new inbound call (default) or an inbound SMS. */
  kind?: 'voice' | 'sms';
};

/** What the load child reports back. */
type LoadResult = {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  status2xx: number;
  durationS: number;
  /** CPU time (ms, user + system) the load child itself used during the run. */
  clientCpuMs: number;
};

// ───────────────────────────── load child ─────────────────────────────

async function runLoadChild(): Promise<void> {
  // The job arrives over IPC (10,000 numbers do not fit in an environment variable).
  const job = await new Promise<LoadJob>((resolve) => process.once('message', (m) => resolve(m as LoadJob)));
  const { default: autocannon } = await import('autocannon');
  const { default: twilio } = await import('twilio');
  const signUrl = job.publicUrl + job.path;
  const states = ['CA', 'NY', 'TX', 'FL', 'IL', 'WA', 'MA', 'GA', 'CO', 'AZ'];
  let seq = 0;
  const cpu0 = process.cpuUsage();
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    ...(job.rate ? { overallRate: job.rate } : {}),
    pipelining: job.pipelining,
    duration: job.durationS,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: job.path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        setupRequest: (req: Record<string, unknown>) => {
          seq++;
          const to = job.numbers[Math.floor(Math.random() * job.numbers.length)]!;
          const from = `+1${200 + Math.floor(Math.random() * 700)}${String(2000000 + Math.floor(Math.random() * 7999999))}`;
          const params: Record<string, string> =
            job.kind === 'sms'
              ? {
                  AccountSid: 'ACsandbox00000000000000000000000000',
                  MessageSid: `SM${job.sidPrefix}${seq.toString(16).padStart(32 - job.sidPrefix.length, '0')}`,
                  SmsStatus: 'received',
                  From: from,
                  To: to,
                  Body: `Hi, is the shop open on Saturday? (${seq})`,
                  NumMedia: '0',
                  NumSegments: '1',
                  FromState: states[seq % states.length]!,
                  ApiVersion: '2010-04-01',
                }
              : {
                  AccountSid: 'ACsandbox00000000000000000000000000',
                  CallSid: `CA${job.sidPrefix}${seq.toString(16).padStart(32 - job.sidPrefix.length, '0')}`,
                  CallStatus: 'ringing',
                  Direction: 'inbound',
                  From: from,
                  To: to,
                  FromState: states[seq % states.length]!,
                  FromCity: 'SPRINGFIELD',
                  ApiVersion: '2010-04-01',
                };
          const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, signUrl, params);
          return {
            ...req,
            headers: { ...(req.headers as Record<string, string>), 'x-twilio-signature': signature },
            body: new URLSearchParams(params).toString(),
          };
        },
      },
    ],
  } as never);
  const r = (await instance) as unknown as {
    requests: { total: number; average: number };
    latency: Record<string, number>;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
  };
  const out: LoadResult = {
    requests: r.requests.total,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50!,
    p90: r.latency.p90!,
    p99: r.latency.p99!,
    max: r.latency.max!,
    mean: r.latency.average!,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    status2xx: r['2xx'],
    durationS: r.duration,
    clientCpuMs: ((c) => (c.user + c.system) / 1000)(process.cpuUsage(cpu0)),
  };
  process.send!(out);
}

// ───────────────────────────── parent ─────────────────────────────

function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, [CHILD_ROLE]: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: LoadResult | undefined;
    child.on('message', (m) => {
      result = m as LoadResult;
    });
    child.send(job);
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`load child exited ${code} without a result`))));
  });
}

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const log = (msg: string) => console.log(`[${elapsed().padStart(7)}] ${msg}`);
/** 1-minute load average: other processes on the machine skew the figures; it is printed with them. */
const load1 = () => os.loadavg()[0]!.toFixed(2);

/** 10-digit NANP numbers that parse as valid E.164 (real area codes, exchange 201-899). */
function businessNumber(i: number): string {
  const areas = ['212', '312', '415', '617', '713', '305', '206', '404', '303', '602'];
  const area = areas[i % areas.length]!;
  const exchange = 201 + (Math.floor(i / areas.length) % 699);
  return `+1${area}${exchange}${String(i).padStart(4, '0')}`;
}

type CpuProfile = { nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>; samples: number[] };

/** Starts the V8 sampling profiler of this (the server's) process. */
async function startCpuProfile(): Promise<{ stop: () => Promise<CpuProfile> }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
      session.disconnect();
      return profile;
    },
  };
}

/** Self time per function (name + file:line), as a share of all samples. */
function summarizeProfile(p: CpuProfile, byPackage = false): Array<{ name: string; pct: number }> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const counts = new Map<string, number>();
  for (const id of p.samples) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const file = url.replace(/^file:\/\/\/work\/main\//, '').replace(/^.*node_modules\//, 'nm:');
    const pkg = file.startsWith('nm:')
      ? file
          .split('/')
          .slice(0, file.startsWith('nm:@') ? 2 : 1)
          .join('/')
      : file.split('/').slice(0, 4).join('/');
    const key = byPackage ? pkg || functionName || '(native)' : `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = p.samples.length || 1;
  return [...counts].map(([name, c]) => ({ name, pct: (100 * c) / total })).sort((a, b) => b.pct - a.pct);
}

async function main(): Promise<void> {
  const connections = env('BENCH_CONNECTIONS', 20);
  // A second webhook run at this many connections (0 = skip): the latency at a lower offered load.
  const lowConnections = process.env.BENCH_LOW_CONNECTIONS === '0' ? 0 : env('BENCH_LOW_CONNECTIONS', 4);
  const durationS = env('BENCH_DURATION_S', 10);
  const warmupS = env('BENCH_WARMUP_S', 3);
  const pipelining = env('BENCH_PIPELINING', 1);
  const numberCount = env('BENCH_NUMBERS', 10_000);
  const callCount = env('BENCH_CALLS', 1_000_000);

  const [{ loadConfig }, { startServer }, domain, { default: Fastify }, { default: formbody }, { default: pg }, { default: twilio }, { events }] =
    await Promise.all([
      import('../../apps/server/src/platform/config.js'),
      import('../../apps/server/src/bootstrap.js'),
      import('@switchboard/domain'),
      import('fastify'),
      import('@fastify/formbody'),
      import('pg'),
      import('twilio'),
      import('../../apps/server/src/platform/events/index.js'),
    ]);
  const { reconcileFacts } = await import('../../apps/server/src/modules/analytics/analytics.facts.js');
  // Each consumer's handler time (s, wall clock) since the last reset: where a measured run's reactions went.
  const handlerTime = new Map<string, { n: number; s: number }>();
  events.observeHandlers((consumer, seconds) => {
    const h = handlerTime.get(consumer) ?? { n: 0, s: 0 };
    h.n++;
    h.s += seconds;
    handlerTime.set(consumer, h);
  });

  // Statements sent by every pg client of this process (the server's pool; the bench's own few), for statements per request.
  let statements = 0;
  {
    const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      statements++;
      return original.apply(this, args);
    };
  }
  // BENCH_PROFILE=1: time every SQL statement the server sends (pg.Client#query, promise form) and
  // print the statements of the webhook run by total time.
  const profile = process.env.BENCH_PROFILE === '1';
  const sqlStats = new Map<string, { n: number; ms: number }>();
  let profiling = false;
  if (profile) {
    const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const out = original.apply(this, args);
      if (profiling && out && typeof (out as Promise<unknown>).then === 'function') {
        const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text ?? '?');
        const key = text.replace(/\s+/g, ' ').slice(0, 140);
        const start = performance.now();
        (out as Promise<unknown>).then(
          () => {
            const st = sqlStats.get(key) ?? { n: 0, ms: 0 };
            st.n++;
            st.ms += performance.now() - start;
            sqlStats.set(key, st);
          },
          () => {},
        );
      }
      return out;
    };
  }

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-'));
  const cleanup: Array<() => Promise<unknown>> = [];
  const shutdown = async () => {
    for (const fn of cleanup.reverse()) await fn().catch((e) => console.error('cleanup:', e));
    fs.rmSync(tmp, { recursive: true, force: true });
  };

  try {
    log(`machine: ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
    // 1. database + real server
    // Its own temp dir (as the test harness does; see startBenchDatabase).
    const pgDir = tempDir('switchboard-bench-pg-');
    // BENCH_PROFILE=1: pg_stat_statements shows where PostgreSQL spends its time per call.
    const { embedded, dbUrl } = await startBenchDatabase(
      pgDir,
      profile ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all', '-c', 'pg_stat_statements.track_planning=on'] : [],
    );
    cleanup.push(() => embedded.stop());
    log(`embedded PostgreSQL on port ${embedded.port}`);

    const dataDir = path.join(tmp, 'data');
    const config = loadConfig(
      {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        PORT: '0',
        HOST: '127.0.0.1',
        CARRIER: 'sandbox',
        TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        SEED_DEMO: '0',
        WORKERS: '1',
        NODE_ENV: 'production',
        SMTP_URL: '',
        DB_POOL_MAX: process.env.DB_POOL_MAX,
      },
      { port: 0 },
    );
    const server = await startServer(config, dbUrl, { publicUrlFromPort: true });
    cleanup.push(() => server.close());
    log(`server on ${server.url} (PUBLIC_URL ${config.publicUrl})`);

    // 2. bulk load
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    cleanup.push(() => client.end());
    const company = await client.query<{ id: number }>(`insert into companies (name, timezone) values ('Bench Co', 'America/New_York') returning id`);
    const companyId = Number(company.rows[0]!.id);
    await client.query(`insert into company_schedules (company_id, schedule, holidays) values ($1, $2, $3)`, [
      companyId,
      JSON.stringify(domain.applyPreset(6, 'America/New_York')),
      JSON.stringify(['2025-12-25', '2026-01-01', '2026-07-04', '2026-12-25']),
    ]);

    const zones = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/Phoenix'];
    const types = ['standard', 'standard', 'simultaneous', 'sequential', 'voicemail', 'geo'] as const;
    let rnd = 42;
    const rand = () => (rnd = (rnd * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const numbers: string[] = [];
    const rows: Array<[string, string, string, string]> = [];
    for (let i = 0; i < numberCount; i++) {
      const number = businessNumber(i);
      if (!domain.parsePhone(number)) throw new Error(`generated number does not parse: ${number}`);
      numbers.push(number);
      const zone = pick(zones);
      const entries = 1 + Math.floor(rand() * 3);
      const routes = Array.from({ length: entries }, (_, e) => {
        const type = pick(types);
        const forwards = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({
          number: `+1${pick(['646', '510', '773', '857', '281'])}${201 + Math.floor(rand() * 600)}${String(Math.floor(rand() * 10000)).padStart(4, '0')}`,
        }));
        return {
          ...domain.newRouteEntry(zone),
          extension: e + 1,
          label: ['Sales', 'Support', 'Billing'][e]!,
          type,
          forwards,
          schedule: domain.applyPreset(pick([1, 1, 2, 6] as const), zone),
          stagger: type === 'sequential' && rand() < 0.3,
          confirm_key: rand() < 0.2 ? 1 : null,
          confirm_whisper: rand() < 0.2 ? 'Call from the website' : '',
          voicemail_enabled: type === 'voicemail' || rand() < 0.5,
          email_alert_address: rand() < 0.3 ? 'alerts@bench.example' : '',
          round_robin: type === 'sequential' && rand() < 0.3 ? 'round_robin' : null,
          geo_by_state_enabled: type === 'geo',
        };
      });
      const schedule = domain.applyPreset(pick([1, 1, 1, 1, 6, 6, 2, 5] as const), zone);
      rows.push([number, `Line ${i + 1}`, JSON.stringify(routes), JSON.stringify(schedule)]);
    }
    for (let i = 0; i < rows.length; i += 2000) {
      const batch = rows.slice(i, i + 2000);
      await client.query(
        `insert into numbers (company_id, number, label, type, routes, schedule)
         select $1, n, l, 1, r::jsonb, s::jsonb from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as t(n, l, r, s)`,
        [companyId, batch.map((r) => r[0]), batch.map((r) => r[1]), batch.map((r) => r[2]), batch.map((r) => r[3])],
      );
    }
    log(`loaded ${numberCount} numbers`);
    await client.query(
      `
      insert into contacts (company_id, name, number)
      select $1, 'Contact ' || g, '+1' || (200 + g % 700) || lpad((2000000 + (g::bigint * 7919) % 7999999)::text, 7, '0')
      from generate_series(1, 10000) g`,
      [companyId],
    );
    await client.query(
      `
      insert into blocks (company_id, number_id, target, global)
      select $1, case when g % 2 = 0 then null else (select min(id) from numbers) + g end,
             '+1' || (200 + g % 700) || lpad((3000000 + g)::text, 7, '0'), g % 2 = 0
      from generate_series(1, 200) g`,
      [companyId],
    );
    log('loaded 10000 contacts, 200 blocks');

    await client.query(
      `
      insert into calls (company_id, number_id, carrier_sid, from_number, to_number, from_state, direction, status, extension,
                         duration_s, started_at, answered_at, ended_at)
      select $1, n.ids[1 + g % n.cnt], 'CAhist' || lpad(to_hex(g), 28, '0'),
             '+1' || (200 + g % 700) || lpad((2000000 + (g::bigint * 7919) % 7999999)::text, 7, '0'),
             n.nums[1 + g % n.cnt], (array['CA','NY','TX','FL','IL',null])[1 + g % 6], 'inbound',
             (array[12,12,12,4,5,10,3,13])[1 + g % 8], 1 + g % 3, (g * 37) % 900,
             now() - make_interval(secs => g * 25), now() - make_interval(secs => g * 25 - 5), now() - make_interval(secs => g * 25 - 60)
      from generate_series(1, $2::int) g,
           (select array_agg(id order by id) ids, array_agg(number order by id) nums, count(*)::int cnt from numbers) n`,
      [companyId, callCount],
    );
    log(`loaded ${callCount} calls`);
    await client.query(`insert into call_events (call_id, status, detail, created_at)
      select id, status, jsonb_build_object('from', from_number, 'to', to_number), started_at from calls`);
    log(`loaded ${callCount} call events`);
    await client.query(`insert into webhook_receipts (key, status_code, content_type, body, created_at)
      select 'voice:' || carrier_sid || ':start', 200, 'text/xml', '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>', started_at from calls`);
    log(`loaded ${callCount} webhook receipts`);
    // The inbox a production database holds for those calls: one conversation per (number, caller)
    // with one item per call (as the calls module's `call.changed` handler writes them).
    await client.query(
      `insert into conversations (company_id, number_id, recipient, last_activity_at, created_at)
      select $1, number_id, from_number, max(started_at), min(started_at) from calls group by number_id, from_number`,
      [companyId],
    );
    await client.query(
      `insert into conversation_items (company_id, conversation_id, type, is_inbound, is_read, body, call_id, call_status, duration_s, created_at)
      select $1, v.id, 'call', true, c.status not in (4, 5, 10), null, c.id, c.status, c.duration_s, c.started_at
      from calls c join conversations v on v.number_id = c.number_id and v.recipient = c.from_number`,
      [companyId],
    );
    const conversationCount = Number((await client.query(`select count(*) c from conversations`)).rows[0].c);
    log(`loaded ${fmt(conversationCount)} conversations, ${fmt(callCount)} call items`);
    // The reporting store a production database holds for those calls (else the reconcile job's first pass builds
    // 100,000 facts during the measured runs).
    const factsWritten = await reconcileFacts(server.ctx, 0);
    // The server's own reconcile job (3 s after its start) may be building them too: wait for it to end.
    for (let i = 0; i < 600; i++) {
      const active = await client.query(`select 1 from pgboss.job where name = 'analytics.reconcile' and state = 'active' limit 1`);
      if (active.rows.length === 0) break;
      await sleep(1000);
    }
    log(`built ${fmt(factsWritten)} call facts for the loaded history`);
    await client.query('vacuum analyze');
    await client.query('checkpoint');
    const sizes = await client.query<{ rel: string; rows: string; size: string }>(`
      select c.relname rel, c.reltuples::bigint::text rows, pg_size_pretty(pg_total_relation_size(c.oid)) size
      from pg_class c where c.relname in ('numbers','calls','call_events','webhook_receipts','contacts','conversations','conversation_items') order by c.relname`);
    log(`vacuum analyze + checkpoint done: ${sizes.rows.map((r) => `${r.rel} ${r.rows} rows ${r.size}`).join('; ')}`);

    // 3. baseline app (same process as the server)
    const baseline = Fastify({ logger: false });
    await baseline.register(formbody);
    baseline.post(STATIC_PATH, async (_req, reply) => reply.type('text/xml').send(STATIC_TWIML));
    // The durable floor (issue 22 §4): the least any durable answer costs. The product's own signature check, one row
    // written with synchronous commit (the server's default) through the server's own pool, the same TwiML answer.
    await client.query(
      `create table bench_floor (id bigserial primary key, sid text not null, body jsonb not null, created_at timestamptz not null default now())`,
    );
    let floorUrl = '';
    baseline.post(FLOOR_PATH, async (req, reply) => {
      const params = req.body as Record<string, string>;
      if (!server.ctx.carrier.verifyWebhook(floorUrl + FLOOR_PATH, params, req.headers['x-twilio-signature'] as string | undefined))
        return reply.code(403).send('signature');
      await sql`insert into bench_floor (sid, body) values (${params.CallSid ?? params.MessageSid ?? ''}, ${JSON.stringify(params)}::jsonb)`.execute(
        server.ctx.db,
      );
      return reply.type('text/xml').send(STATIC_TWIML);
    });
    await baseline.listen({ port: 0, host: '127.0.0.1' });
    cleanup.push(() => baseline.close());
    const baselinePort = (baseline.server.address() as { port: number }).port;
    const baselineUrl = `http://127.0.0.1:${baselinePort}`;
    floorUrl = baselineUrl;

    // sanity: one signed call through the real webhook answers TwiML and stores the call
    const probe = { CallSid: 'CAprobe0000000000000000000000000', From: '+12125550123', To: numbers[0]!, CallStatus: 'ringing', Direction: 'inbound' };
    const probeRes = await fetch(server.url + VOICE_PATH, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, config.publicUrl + VOICE_PATH, probe),
      },
      body: new URLSearchParams(probe),
    });
    const probeBody = await probeRes.text();
    const stored = await client.query(`select status from calls where carrier_sid = $1`, [probe.CallSid]);
    log(`probe: HTTP ${probeRes.status}, call stored with status ${stored.rows[0]?.status ?? 'NONE'}, TwiML ${probeBody.slice(0, 160).replace(/\s+/g, ' ')}…`);
    if (probeRes.status !== 200 || !stored.rows[0] || !/<Response>/.test(probeBody))
      throw new Error('the voice webhook did not answer the probe call; not benchmarking');

    // 4. load
    // PostgreSQL's background work (checkpoints, autovacuum and autoanalyze runs) during each run:
    // it competes with the requests for the same 2 cores and the disk.
    const background = async () =>
      (
        await client.query<{ checkpoints: string; vacuums: string; analyzes: string }>(
          `select (select num_timed + num_requested from pg_stat_checkpointer)::text checkpoints,
              (select sum(autovacuum_count) from pg_stat_all_tables)::text vacuums,
              (select sum(autoanalyze_count) from pg_stat_all_tables)::text analyzes`,
        )
      ).rows[0]!;
    const backgroundLog: string[] = [];
    const run = async (
      label: string,
      url: string,
      p: string,
      publicUrl: string,
      seconds: number,
      conns = connections,
      rate?: number,
      kind: 'voice' | 'sms' = 'voice',
    ) => {
      log(`${label}: ${conns} connections${rate ? ` at ${rate} req/s` : ''} × ${seconds} s … (load average ${load1()})`);
      const before = await background().catch(() => undefined);
      const result = await runLoad({
        url,
        path: p,
        publicUrl,
        numbers,
        connections: conns,
        pipelining,
        durationS: seconds,
        rate,
        kind,
        sidPrefix: `${label.replace(/[^a-z]/gi, '').slice(0, 6)}${Date.now().toString(16).slice(-6)}`,
      });
      const after = await background().catch(() => undefined);
      if (before && after && !label.startsWith('warmup')) {
        const d = (k: keyof typeof before) => Number(after[k]) - Number(before[k]);
        backgroundLog.push(`${label}: ${d('checkpoints')} checkpoint(s), ${d('vacuums')} autovacuum and ${d('analyzes')} autoanalyze run(s)`);
      }
      return result;
    };
    const callsBefore = Number((await client.query(`select count(*) c from calls`)).rows[0].c);
    await run('warmup-static', baselineUrl, STATIC_PATH, baselineUrl, warmupS);
    await run('warmup-voice', server.url, VOICE_PATH, config.publicUrl, warmupS);
    const callsAfterWarmup = Number((await client.query(`select count(*) c from calls`)).rows[0].c);
    const cpuBase0 = process.cpuUsage();
    const pgBase0 = postgresCpuMs(pgDir);
    const base = await run('static', baselineUrl, STATIC_PATH, baselineUrl, durationS);
    const cpuBase = process.cpuUsage(cpuBase0);
    const pgBase = postgresCpuDelta(pgBase0, postgresCpuMs(pgDir));
    profiling = profile;
    if (profile) await client.query('create extension if not exists pg_stat_statements; select pg_stat_statements_reset()');
    const inspector = profile ? await startCpuProfile() : undefined;
    const cpuHook0 = process.cpuUsage();
    const pgHook0 = postgresCpuMs(pgDir);
    const loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
    const gcPauses = new Map<string, { n: number; ms: number; max: number }>();
    const gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind =
          ({ 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' } as Record<number, string>)[
            (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0
          ] ?? 'other';
        const g = gcPauses.get(kind) ?? { n: 0, ms: 0, max: 0 };
        g.n++;
        g.ms += e.duration;
        g.max = Math.max(g.max, e.duration);
        gcPauses.set(kind, g);
      }
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    const hook = await run('voice', server.url, VOICE_PATH, config.publicUrl, durationS);
    gcObserver.disconnect();
    loopDelay.disable();
    const cpuHook = process.cpuUsage(cpuHook0);
    const pgHook = postgresCpuDelta(pgHook0, postgresCpuMs(pgDir));
    // BENCH_PROFILE: where PostgreSQL spent its time, by statement, since the last reset.
    const topStatements = async () =>
      (
        await client.query<{ calls: string; total: number; mean: number; plan: number; rows: string; query: string }>(
          `select calls::text, total_exec_time + total_plan_time total, mean_exec_time mean, total_plan_time / greatest(calls, 1) plan, rows::text, query from pg_stat_statements
       where query not ilike '%pg_stat_statements%' order by total_exec_time + total_plan_time desc limit 20`,
        )
      ).rows;
    const pgStatements = profile ? await topStatements() : [];
    const cpuProfile = inspector ? await inspector.stop() : undefined;
    profiling = false;
    const callsAfter = Number((await client.query(`select count(*) c from calls`)).rows[0].c);
    const outcomes = await client.query<{ status: number; n: string }>(
      `select status, count(*)::text n from calls where id > (select max(id) - $1 from calls) group by status order by status`,
      [callsAfter - callsAfterWarmup],
    );
    if (cpuProfile && process.env.BENCH_PROFILE_OUT) fs.writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(cpuProfile));
    // The same webhook at lower concurrency: the per-call latency without most of the queueing.
    const cpuLow0 = process.cpuUsage();
    const pgLow0 = postgresCpuMs(pgDir);
    const low = lowConnections > 0 ? await run('voicelow', server.url, VOICE_PATH, config.publicUrl, durationS, lowConnections) : undefined;
    const cpuLow = process.cpuUsage(cpuLow0);
    const pgLow = postgresCpuDelta(pgLow0, postgresCpuMs(pgDir));
    // Open loop: requests at a fixed rate (BENCH_RATE, default 75 % of the 20-connection run's
    // throughput), so the latency is measured below saturation instead of with a full queue.
    const rate = process.env.BENCH_RATE === '0' ? 0 : Math.round(env('BENCH_RATE', hook.rps * 0.75));
    const paced = rate > 0 ? await run('voicerate', server.url, VOICE_PATH, config.publicUrl, durationS, connections, rate) : undefined;

    // BENCH_EXPLAIN=1: the plans PostgreSQL uses for the outbox's dispatch claim, as a cached generic plan (what a
    // prepared statement gets after five runs) and as a custom plan, on the newest events.
    if (process.env.BENCH_EXPLAIN === '1') {
      const claim = `with due as (select d.consumer, d.event_id from unnest($1::bigint[]) as x(event_id) join event_deliveries d on d.event_id = x.event_id
        where d.status = 'pending' and d.next_at <= now() and (d.locked_until is null or d.locked_until < now())
          and not exists (select 1 from event_deliveries p where p.consumer = d.consumer and p.aggregate_key = d.aggregate_key and p.status = 'pending' and p.event_id < d.event_id)
        for update of d skip locked)
        select due.consumer, due.event_id, e.name from due join domain_events e on e.id = due.event_id`;
      const ids = (await client.query<{ a: string[] }>(`select array_agg(id) a from (select id from domain_events order by id desc limit 2) t`)).rows[0]!.a;
      const counts = await client.query(`select status, count(*) n from event_deliveries group by status`);
      console.log(`event_deliveries: ${JSON.stringify(counts.rows)}`);
      for (const mode of ['force_generic_plan', 'force_custom_plan']) {
        await client.query(`set plan_cache_mode = ${mode}`);
        await client.query(`prepare claimx(bigint[]) as ${claim}`);
        const plan = await client.query(`explain (analyze, buffers) execute claimx('{${ids.join(',')}}'::bigint[])`);
        console.log(`\nclaim plan, ${mode}:\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        await client.query(`deallocate claimx`);
      }
      await client.query(`reset plan_cache_mode`);
    }
    // The durable floor and the inbound SMS webhook at the same connections, each with where its time went.
    const xacts = async () =>
      Number(
        (await client.query<{ n: string }>(`select (xact_commit + xact_rollback)::text n from pg_stat_database where datname = current_database()`)).rows[0]!.n,
      );
    // Reactions still to do: pending deliveries, and calls waiting for their analytics fact (the consumer's delivery is
    // done once the call is in the pending set; its flush follows within 150 ms and is part of the call's cost).
    const pendingDeliveries = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            `select ((select count(*) from event_deliveries where status = 'pending') + (select count(*) from call_facts_pending))::text n`,
          )
        ).rows[0]!.n,
      );
    // Rows written (inserted, updated, deleted) per table so far.
    const tableWrites = async () =>
      new Map(
        (
          await client.query<{ t: string; n: string }>(
            `select relname t, (n_tup_ins + n_tup_upd + n_tup_del)::text n from pg_stat_user_tables where schemaname in ('public', 'pgboss')`,
          )
        ).rows.map((r) => [r.t, Number(r.n)] as const),
      );
    const drained = async (limitMs: number) => {
      const start = performance.now();
      let pending = await pendingDeliveries();
      while (pending > 0 && performance.now() - start < limitMs) {
        await sleep(250);
        pending = await pendingDeliveries();
      }
      return { pending, seconds: (performance.now() - start) / 1000 };
    };
    const measured = async (label: string, url: string, p: string, publicUrl: string, kind: 'voice' | 'sms') => {
      // What earlier runs left pending is not this run's cost.
      const before = await drained(env('BENCH_DRAIN_S', 120) * 1000);
      if (before.pending > 0) log(`${label}: ${fmt(before.pending)} deliveries of earlier runs still pending after ${before.seconds.toFixed(0)} s`);
      await sleep(1500); // PostgreSQL publishes a backend's counters at most once a second
      const cpu0 = process.cpuUsage();
      const pg0 = postgresCpuMs(pgDir);
      const st0 = statements;
      const x0 = await xacts();
      const w0 = await tableWrites();
      handlerTime.clear();
      const r = await run(label, url, p, publicUrl, durationS, connections, undefined, kind);
      // The reactions (the outbox's deliveries) the run left pending are part of each request's cost: wait until
      // they are done (at most BENCH_DRAIN_S) and count their CPU, statements and transactions too. "With reactions"
      // is then the rate the server can keep up: requests ÷ (run + drain).
      const pendingAtEnd = await pendingDeliveries();
      const { pending, seconds: drainS } = await drained(env('BENCH_DRAIN_S', 120) * 1000);
      const cpu = process.cpuUsage(cpu0);
      const pgMs = postgresCpuDelta(pg0, postgresCpuMs(pgDir));
      const st = statements - st0;
      await sleep(1500);
      const w = await tableWrites();
      const writes = [...w]
        .map(([t, n]) => [t, n - (w0.get(t) ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1]);
      return {
        r,
        nodeMs: (cpu.user + cpu.system) / 1000,
        pgMs,
        statements: st,
        xacts: (await xacts()) - x0 - 1,
        pendingAtEnd,
        pendingLeft: pending,
        drainS,
        writes,
        handlers: [...handlerTime].sort((a, b) => b[1].s - a[1].s),
      };
    };
    await run('warmup-floor', baselineUrl, FLOOR_PATH, baselineUrl, warmupS);
    const floor = await measured('floor', baselineUrl, FLOOR_PATH, baselineUrl, 'voice');
    const voiceAgain = await measured('voice2', server.url, VOICE_PATH, config.publicUrl, 'voice');
    await run('warmup-sms', server.url, SMS_PATH, config.publicUrl, warmupS, connections, undefined, 'sms');
    if (profile) await client.query('select pg_stat_statements_reset()');
    const sms = await measured('sms', server.url, SMS_PATH, config.publicUrl, 'sms');
    const smsStatements = profile ? await topStatements() : [];
    const floorRows = Number((await client.query(`select count(*) c from bench_floor`)).rows[0].c);

    // 5. report
    const ratio = hook.rps / base.rps;
    const f = (n: number, d = 1) => n.toFixed(d);
    const line = (cols: string[]) => `| ${cols.join(' | ')} |`;
    const table = [
      line(['endpoint', 'conns', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'requests', 'errors', 'timeouts', 'non-2xx']),
      line(['---', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:']),
      line([
        `POST ${STATIC_PATH} (static TwiML baseline)`,
        String(connections),
        f(base.rps, 0),
        f(base.p50),
        f(base.p90),
        f(base.p99),
        f(base.max),
        String(base.requests),
        String(base.errors),
        String(base.timeouts),
        String(base.non2xx),
      ]),
      line([
        `POST ${VOICE_PATH} (routing decision)`,
        String(connections),
        f(hook.rps, 0),
        f(hook.p50),
        f(hook.p90),
        f(hook.p99),
        f(hook.max),
        String(hook.requests),
        String(hook.errors),
        String(hook.timeouts),
        String(hook.non2xx),
      ]),
      ...(low
        ? [
            line([
              `POST ${VOICE_PATH} (routing decision)`,
              String(lowConnections),
              f(low.rps, 0),
              f(low.p50),
              f(low.p90),
              f(low.p99),
              f(low.max),
              String(low.requests),
              String(low.errors),
              String(low.timeouts),
              String(low.non2xx),
            ]),
          ]
        : []),
      ...(paced
        ? [
            line([
              `POST ${VOICE_PATH} (routing decision), paced at ${rate} req/s`,
              String(connections),
              f(paced.rps, 0),
              f(paced.p50),
              f(paced.p90),
              f(paced.p99),
              f(paced.max),
              String(paced.requests),
              String(paced.errors),
              String(paced.timeouts),
              String(paced.non2xx),
            ]),
          ]
        : []),
    ].join('\n');
    console.log('\n' + table);
    console.log(`\nratio webhook ÷ baseline req/s: ${f(ratio, 3)}`);
    const cpuMs = (c: NodeJS.CpuUsage, n: number) => ((c.user + c.system) / 1000 / Math.max(n, 1)).toFixed(3);
    console.log(
      `server-process CPU per request (Node side only, PostgreSQL excluded): static ${cpuMs(cpuBase, base.requests)} ms, webhook ${cpuMs(cpuHook, hook.requests)} ms${low ? ` (${connections} connections), ${cpuMs(cpuLow, low.requests)} ms (${lowConnections} connections)` : ''}`,
    );
    // Where the machine's cores went during each measured run (cores = CPU seconds per second).
    const split = (name: string, node: NodeJS.CpuUsage, pgMs: number, r: LoadResult) => {
      const nodeMs = (node.user + node.system) / 1000;
      const per = (ms: number) => (ms / Math.max(r.requests, 1)).toFixed(3);
      const cores = (ms: number) => (ms / 1000 / r.durationS).toFixed(2);
      console.log(
        `  ${name.padEnd(22)} server Node ${per(nodeMs)} ms/req (${cores(nodeMs)} cores), PostgreSQL ${per(pgMs)} ms/req (${cores(pgMs)} cores), load generator ${per(r.clientCpuMs)} ms/req (${cores(r.clientCpuMs)} cores)`,
      );
    };
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    console.log(
      `server event-loop delay during the ${connections}-connection webhook run: p50 ${ms(loopDelay.percentile(50))} ms, p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms`,
    );
    console.log(
      `server GC pauses during that run: ${[...gcPauses].map(([k, g]) => `${k} ${g.n}× (${g.ms.toFixed(0)} ms, max ${g.max.toFixed(1)} ms)`).join(', ') || 'none'}; heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB, new space ${((getHeapSpaceStatistics().find((sp) => sp.space_name === 'new_space')?.space_size ?? 0) / 2 ** 20).toFixed(0)} MiB`,
    );
    console.log(`PostgreSQL background work during the runs: ${backgroundLog.join('; ')}`);
    console.log(`CPU per request and cores used, by process:`);
    split('static', cpuBase, pgBase, base);
    split(`webhook, ${connections} connections`, cpuHook, pgHook, hook);
    if (low) split(`webhook, ${lowConnections} connections`, cpuLow, pgLow, low);
    console.log(
      `calls stored by the webhook during the measured run: ${callsAfter - callsAfterWarmup} (warm-up ${callsAfterWarmup - callsBefore}); 2xx answered: ${hook.status2xx}`,
    );
    console.log(`call outcomes in the measured run (status: count): ${outcomes.rows.map((r) => `${r.status}: ${r.n}`).join(', ')}`);
    console.log(
      `\nagainst the durable floor (POST ${FLOOR_PATH}: the product's signature check, one row inserted with synchronous commit through the server's pool; ${fmt(floorRows)} rows), ${connections} connections, measured one after the other:`,
    );
    console.log(
      '| endpoint | req/s answered | ÷ floor | req/s with reactions | ÷ floor | p50 ms | p99 ms | non-2xx | pending at end → drained in | server Node ms/req | PostgreSQL ms/req | statements/req | transactions/req |',
    );
    console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |');
    const withReactions = (m: Awaited<ReturnType<typeof measured>>) => m.r.requests / (m.r.durationS + m.drainS);
    const floorRow = (name: string, m: Awaited<ReturnType<typeof measured>>) => {
      const per = (x: number) => (x / Math.max(m.r.requests, 1)).toFixed(2);
      console.log(
        `| ${name} | ${f(m.r.rps, 0)} | ${f(m.r.rps / floor.r.rps, 2)} | ${f(withReactions(m), 0)} | ${f(withReactions(m) / withReactions(floor), 2)} | ${f(m.r.p50)} | ${f(m.r.p99)} | ${m.r.non2xx + m.r.errors} | ${fmt(m.pendingAtEnd)} → ${f(m.drainS)} s${m.pendingLeft ? ` (${fmt(m.pendingLeft)} left)` : ''} | ${per(m.nodeMs)} | ${per(m.pgMs)} | ${per(m.statements)} | ${per(m.xacts)} |`,
      );
    };
    const writesLine = (name: string, m: Awaited<ReturnType<typeof measured>>) =>
      console.log(
        `  rows written per request, ${name}: ${m.writes
          .slice(0, 14)
          .map(([t, n]) => `${t} ${(n / Math.max(m.r.requests, 1)).toFixed(1)}`)
          .join(', ')}`,
      );
    floorRow(`POST ${FLOOR_PATH} (durable floor)`, floor);
    floorRow(`POST ${VOICE_PATH} (new call)`, voiceAgain);
    floorRow(`POST ${SMS_PATH} (inbound SMS)`, sms);
    writesLine('new call', voiceAgain);
    writesLine('inbound SMS', sms);
    const handlersLine = (name: string, m: Awaited<ReturnType<typeof measured>>) =>
      console.log(
        `  consumers' handler time per request (ms, wall clock; runs per request), ${name}: ${m.handlers
          .map(([c, h]) => `${c} ${((1000 * h.s) / Math.max(m.r.requests, 1)).toFixed(2)} (${(h.n / Math.max(m.r.requests, 1)).toFixed(1)})`)
          .join(', ')}`,
      );
    handlersLine('new call', voiceAgain);
    handlersLine('inbound SMS', sms);
    // Judged with the reactions: answering faster than the reactions keep up only grows a backlog.
    const voiceFloor = withReactions(voiceAgain) / withReactions(floor);
    const smsFloor = withReactions(sms) / withReactions(floor);
    console.log(`\ntargets (printed, not asserted):`);
    console.log(
      `  voice webhook vs the durable floor, ${connections} connections: p99 < 25 ms ${voiceAgain.r.p99 < 25 ? 'PASS' : 'MISS'} (${f(voiceAgain.r.p99)} ms); ≥ 0.5 × floor with reactions ${voiceFloor >= 0.5 ? 'PASS' : 'MISS'} (${f(voiceFloor, 2)})`,
    );
    console.log(
      `  inbound SMS vs the durable floor, ${connections} connections: p99 < 25 ms ${sms.r.p99 < 25 ? 'PASS' : 'MISS'} (${f(sms.r.p99)} ms); ≥ 0.5 × floor with reactions ${smsFloor >= 0.5 ? 'PASS' : 'MISS'} (${f(smsFloor, 2)})`,
    );
    console.log(
      `  p99 < 25 ms at the measured rate: ${hook.p99 < 25 ? 'PASS' : 'MISS'} (p99 ${f(hook.p99)} ms at ${f(hook.rps, 0)} req/s, ${connections} connections)`,
    );
    if (low)
      console.log(`  p99 < 25 ms at ${lowConnections} connections:    ${low.p99 < 25 ? 'PASS' : 'MISS'} (p99 ${f(low.p99)} ms at ${f(low.rps, 0)} req/s)`);
    if (paced)
      console.log(
        `  p99 < 25 ms paced at ${rate} req/s: ${paced.p99 < 25 ? 'PASS' : 'MISS'} (p99 ${f(paced.p99)} ms, ${f(paced.rps, 0)} req/s served; 75 % of the 20-connection rate unless BENCH_RATE is set)`,
      );
    console.log(`  throughput ≥ 0.5 × baseline:     ${ratio >= 0.5 ? 'PASS' : 'MISS'} (ratio ${f(ratio, 3)})`);
    if (hook.errors || hook.non2xx || hook.timeouts)
      console.log(`  note: the webhook run had ${hook.errors} errors, ${hook.timeouts} timeouts, ${hook.non2xx} non-2xx`);
    if (paced && (paced.errors || paced.non2xx || paced.timeouts))
      console.log(`  note: the paced webhook run had ${paced.errors} errors, ${paced.timeouts} timeouts, ${paced.non2xx} non-2xx`);
    if (low && (low.errors || low.non2xx || low.timeouts))
      console.log(`  note: the ${lowConnections}-connection webhook run had ${low.errors} errors, ${low.timeouts} timeouts, ${low.non2xx} non-2xx`);
    if (cpuProfile) {
      console.log(`\nNode CPU profile of the server process during the webhook run (top self time):`);
      for (const row of summarizeProfile(cpuProfile).slice(0, 20)) console.log(`  ${row.pct.toFixed(1).padStart(5)}%  ${row.name}`);
      console.log(`by package / folder (self time):`);
      for (const row of summarizeProfile(cpuProfile, true).slice(0, 15)) console.log(`  ${row.pct.toFixed(1).padStart(5)}%  ${row.name}`);
    }
    if (profile) {
      const perRequest = hook.requests || 1;
      console.log(`\nSQL during the webhook run (per request: count, total ms; mean ms per statement):`);
      for (const [k, v] of [...sqlStats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) {
        console.log(
          `  ${(v.n / perRequest).toFixed(2).padStart(5)}×  ${(v.ms / perRequest).toFixed(2).padStart(6)} ms  mean ${(v.ms / v.n).toFixed(2).padStart(6)} ms  ${k}`,
        );
      }
    }
    for (const [label, statements, perRequest] of [
      ['the webhook run', pgStatements, hook.requests || 1],
      ['the inbound SMS run (its reactions included)', smsStatements, sms.r.requests || 1],
    ] as const) {
      if (statements.length === 0) continue;
      console.log(
        `\nPostgreSQL time during ${label} (pg_stat_statements; per request: calls, ms planning + execution; mean ms planning, execution; rows per call):`,
      );
      for (const r of statements) {
        const calls = Number(r.calls);
        console.log(
          `  ${(calls / perRequest).toFixed(2).padStart(5)}×  ${(r.total / perRequest).toFixed(3).padStart(6)} ms  plan ${r.plan.toFixed(3).padStart(6)} exec ${r.mean.toFixed(3).padStart(6)} ms  rows ${(Number(r.rows) / Math.max(calls, 1)).toFixed(1).padStart(5)}  ${r.query.replace(/\s+/g, ' ').slice(0, 120)}`,
        );
      }
    }
    console.log(
      `\nsetup: ${numberCount} numbers, ${callCount} calls, ${connections} connections${low ? ` (webhook also at ${lowConnections})` : ''}, pipelining ${pipelining}, ${durationS} s per measured run (${warmupS} s warm-up), ${os.cpus().length} CPU(s); total ${elapsed()}`,
    );
  } finally {
    await shutdown();
  }
}

if (process.env[CHILD_ROLE]) {
  runLoadChild().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
} else {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
