/**
 * bench/dni (bench/README.md "dni"; docs/tracking.md "Performance"): the tracking script's size and
 * the number-assignment endpoint under concurrent load.
 *
 * What it does, in one run (about a minute):
 *  1. Prints the tracking script's size (raw and gzipped, as served with a configuration) against
 *     its 5 KB gzipped budget.
 *  2. Starts a throwaway embedded PostgreSQL and the real server on it (`startServer`; sandbox
 *     carrier, TRUST_PROXY=127.0.0.1 so each simulated visitor has its own address).
 *  3. Bulk-loads 1,000 companies, each with its tracking key and one pool of BENCH_POOL_SIZE (50)
 *     numbers for every visitor, and BENCH_HISTORY (100,000) past sessions over those 1,000 pools
 *     (with a page view each), then VACUUM ANALYZE.
 *  4. Starts a plain Fastify app in the same process answering `GET /static` with a fixed JSON body
 *     of the same shape as the assignment's answer (the baseline).
 *  5. Load: autocannon in a CHILD process, BENCH_CONNECTIONS (20) connections; every request is a
 *     new visitor (its own X-Forwarded-For address, no cookie) of a random company, landing from a
 *     Google Ads click: `GET /api/dni/public/{key}/session?url=...&referrer=...`, i.e. the full path
 *     (key → cached company and pools, classification, the one-statement assignment with the page
 *     view, the live event, the cookie). The baseline gets the same query string. Warm-up, then
 *     measured runs of both.
 *  6. Checks after the run that no number was held by two live sessions, prints req/s, p50, p99,
 *     errors and non-2xx, the ratio assignment ÷ baseline and PASS/MISS against p99 < 15 ms, and
 *     where the assignment run's time went: CPU of the server process and of PostgreSQL per
 *     request, committed transactions per request (about: PostgreSQL's statistics lag up to a
 *     second). Nothing is asserted on wall-clock figures.
 *
 * Usage: `npm run bench:dni` (or `cd bench && npx tsx dni/run.ts`).
 * Knobs: BENCH_CONNECTIONS (20), BENCH_DURATION_S (10), BENCH_WARMUP_S (3), BENCH_POOLS (1000),
 * BENCH_POOL_SIZE (50), BENCH_HISTORY (100000); BENCH_CPU_PROFILE=<file.cpuprofile> writes a CPU
 * profile of the server process during the measured assignment run (open it in Chrome DevTools).
 */
import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { fmt, postgresCpuDelta, postgresCpuMs, startBenchServer, tempDir, type BenchServer } from '../lib/bench-server.js';

const CHILD_ROLE = 'BENCH_DNI_LOAD';
const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

type LoadJob = { url: string; keys: string[]; connections: number; durationS: number; baseline: boolean };
type LoadResult = { requests: number; rps: number; p50: number; p99: number; max: number; errors: number; non2xx: number; durationS: number };

const key = (i: number) => `benchkey${String(i).padStart(6, '0')}`;

// ───────────────────────────── load child ─────────────────────────────

async function runLoadChild(): Promise<void> {
  const job = await new Promise<LoadJob>((resolve) => process.once('message', (m) => resolve(m as LoadJob)));
  const { default: autocannon } = await import('autocannon');
  let seq = 0;
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.durationS,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: Record<string, unknown>) => {
          seq++;
          const k = job.keys[Math.floor(Math.random() * job.keys.length)]!;
          const q = new URLSearchParams({
            url: `https://site-${k}.example/landing?utm_source=google&utm_medium=cpc&utm_campaign=c${seq % 50}&gclid=G${seq}`,
            referrer: 'https://www.google.com/',
            title: 'Landing page',
          });
          const ip = `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}`;
          return {
            ...req,
            path: job.baseline ? `/static?${q}` : `/api/dni/public/${k}/session?${q}`,
            headers: { 'x-forwarded-for': ip, 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36' },
          };
        },
      },
    ],
  } as never);
  const r = (await instance) as unknown as { requests: { total: number }; latency: Record<string, number>; errors: number; non2xx: number; duration: number };
  process.send!({
    requests: r.requests.total,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50!,
    p99: r.latency.p99!,
    max: r.latency.max!,
    errors: r.errors,
    non2xx: r.non2xx,
    durationS: r.duration,
  } satisfies LoadResult);
}

function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, [CHILD_ROLE]: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | undefined;
    child.on('message', (m) => {
      result = m as LoadResult;
    });
    child.send(job);
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`load child exited ${code} without a result`))));
  });
}

// ───────────────────────────── parent ─────────────────────────────

async function main(): Promise<void> {
  const t0 = Date.now();
  const log = (msg: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${msg}`);
  const connections = env('BENCH_CONNECTIONS', 20);
  const durationS = env('BENCH_DURATION_S', 10);
  const warmupS = env('BENCH_WARMUP_S', 3);
  const pools = env('BENCH_POOLS', 1000);
  const poolSize = env('BENCH_POOL_SIZE', 50);
  const history = env('BENCH_HISTORY', 100_000);

  const { scriptSize, SCRIPT_BUDGET_BYTES } = await import('../../apps/server/src/modules/tracking/script.js');
  const size = scriptSize();
  console.log(
    `tracking script: ${fmt(size.raw)} bytes raw, ${fmt(size.gzip)} bytes gzipped; budget ${fmt(SCRIPT_BUDGET_BYTES)} bytes gzipped → ${(size.gzip / SCRIPT_BUDGET_BYTES).toFixed(2)} of the budget ${size.gzip < SCRIPT_BUDGET_BYTES ? 'PASS' : 'MISS'}`,
  );

  process.env.TRUST_PROXY = '127.0.0.1';
  const pgDir = tempDir('bench-dni-pg-');
  const bench = await startBenchServer(tempDir('bench-dni-'), pgDir);
  const { client, server } = bench;
  try {
    log(`server up; loading ${fmt(pools)} companies with one pool of ${poolSize} numbers each and ${fmt(history)} past sessions`);
    await client.query(`insert into companies (name) select 'Bench company ' || g from generate_series(1, $1) g`, [pools]);
    await client.query(
      `insert into dni_settings (company_id, key) select id, 'benchkey' || lpad(row_number() over (order by id)::text, 6, '0') from companies`,
    );
    await client.query(
      `insert into numbers (company_id, number, type, label)
       select c.id, '+1415' || lpad(((c.rn - 1) * $1 + j)::text, 7, '0'), 1, 'Pool number'
       from (select id, row_number() over (order by id) as rn from companies) c, generate_series(0, $1 - 1) j`,
      [poolSize],
    );
    await client.query(
      `insert into dni_pools (company_id, name, source_rules, target_numbers)
       select id, 'All visitors', '{"all_visitors": true, "traffic_sources": [], "custom_rules": []}', '["+15125550100"]' from companies`,
    );
    await client.query(
      `insert into dni_pool_numbers (number_id, pool_id, company_id, number) select n.id, p.id, n.company_id, n.number from numbers n join dni_pools p on p.company_id = n.company_id`,
    );
    await client.query(
      `with h as (
         select gen_random_uuid() as id, p.company_id, p.id as pool_id, pn.number_id, pn.number,
           now() - (random() * interval '30 days') - interval '1 hour' as started_at, g
         from generate_series(1, $1) g
         join dni_pools p on p.id = (select min(id) from dni_pools) + (g % $2)
         join lateral (select number_id, number from dni_pool_numbers where pool_id = p.id offset (g / $2) % $3 limit 1) pn on true
       ), s as (
         insert into dni_sessions (id, company_id, pool_id, visitor_id, number_id, number, traffic_source, source, medium, campaign, landing_page, gclid,
           first_touch, started_at, last_seen_at, expires_at, ended_at, cool_down_minutes, last_page_url)
         select id, company_id, pool_id, gen_random_uuid(), number_id, number, 'google_ads', 'google', 'cpc', 'c' || (g % 50), 'https://site.example/landing', 'H' || g,
           '{"traffic_source":"google_ads","source":"google","medium":"cpc","campaign":null,"keyword":null}', started_at, started_at + interval '5 minutes',
           started_at + interval '35 minutes', started_at + interval '35 minutes', 10, 'https://site.example/landing'
         from h returning id, company_id, started_at
       )
       insert into dni_page_views (session_id, company_id, at, url) select id, company_id, started_at, 'https://site.example/landing' from s`,
      [history, pools, poolSize],
    );
    await client.query('vacuum analyze');
    log('data loaded');

    const { default: Fastify } = await import('fastify');
    const baseline = Fastify({ logger: false });
    const body = JSON.stringify({
      session_id: '00000000-0000-4000-8000-000000000000',
      visitor_id: '00000000-0000-4000-8000-000000000001',
      swaps: [{ target: '+15125550100', number: '+14150000001' }],
      heartbeat_s: 60,
    });
    baseline.get('/static', async (_req, reply) => reply.type('application/json').send(body));
    await baseline.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(baseline.server.address() as { port: number }).port}`;

    const keys = Array.from({ length: pools }, (_, i) => key(i + 1));
    const serverUrl = server.url;
    log(`warm-up ${warmupS} s each`);
    await runLoad({ url: serverUrl, keys, connections, durationS: warmupS, baseline: false });
    await runLoad({ url: baseUrl, keys, connections, durationS: warmupS, baseline: true });
    log(`measuring ${durationS} s each at ${connections} connections (load ${os.loadavg()[0]!.toFixed(2)})`);
    const profiler = process.env.BENCH_CPU_PROFILE ? await startProfiler() : null;
    const before = { cpu: process.cpuUsage(), pg: postgresCpuMs(pgDir), at: Date.now(), xacts: await committedXacts(client) };
    const dni = await runLoad({ url: serverUrl, keys, connections, durationS, baseline: false });
    const used = {
      serverMs: ((c) => (c.user + c.system) / 1000)(process.cpuUsage(before.cpu)),
      pgMs: postgresCpuDelta(before.pg, postgresCpuMs(pgDir)),
      wallMs: Date.now() - before.at,
      xacts: (await committedXacts(client)) - before.xacts - 1,
    };
    if (profiler) await profiler.stop(process.env.BENCH_CPU_PROFILE!);
    const stat = await runLoad({ url: baseUrl, keys, connections, durationS, baseline: true });
    await baseline.close();

    const shared = await client.query(
      `select count(*)::int as n from (select number_id from dni_sessions where number_id is not null and not fallback and expires_at > now() group by number_id having count(*) > 1) x`,
    );
    const sessions = await client.query(`select count(*)::int as n, count(*) filter (where fallback)::int as fallback from dni_sessions`);

    const row = (name: string, r: LoadResult) =>
      `${name.padEnd(22)} ${fmt(r.rps).padStart(8)} ${r.p50.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)} ${r.max.toFixed(0).padStart(7)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(7)}`;
    console.log('');
    console.log(
      `${'endpoint'.padEnd(22)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'errors'.padStart(7)} ${'non2xx'.padStart(7)}`,
    );
    console.log(row('dni session (assign)', dni));
    console.log(row('static JSON', stat));
    console.log('');
    console.log(`ratio assignment ÷ static: req/s ${(dni.rps / stat.rps).toFixed(2)}, p99 ${(dni.p99 / Math.max(0.1, stat.p99)).toFixed(1)}×`);
    console.log(`target p99 < 15 ms: ${dni.p99 < 15 ? 'PASS' : 'MISS'} (${dni.p99.toFixed(1)} ms)`);
    const per = (ms: number) => (ms / Math.max(1, dni.requests)).toFixed(3);
    console.log(
      `where the time went (assignment run): server process ${per(used.serverMs)} ms CPU per request (${((used.serverMs / used.wallMs) * 100).toFixed(0)} % of a core), ` +
        `PostgreSQL ${per(used.pgMs)} ms CPU per request (${((used.pgMs / used.wallMs) * 100).toFixed(0)} % of a core), ` +
        `${(used.xacts / Math.max(1, dni.requests)).toFixed(2)} committed transactions per request (all of the database's, background jobs included)`,
    );
    console.log(
      `sessions in the database: ${fmt(sessions.rows[0].n)} (${fmt(sessions.rows[0].fallback)} got the fallback number); numbers held by two live sessions: ${shared.rows[0].n}`,
    );
    console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}`);
  } finally {
    await bench.stop();
  }
}

/** Transactions committed so far in the bench database (pg_stat_database; the query itself counts one). */
async function committedXacts(client: BenchServer['client']): Promise<number> {
  const r = await client.query(`select pg_stat_clear_snapshot(), xact_commit::float8 as n from pg_stat_database where datname = current_database()`);
  return Number(r.rows[0].n);
}

/** A CPU profile of this process (the server's) from now until `stop(path)` writes it (BENCH_CPU_PROFILE). */
async function startProfiler(): Promise<{ stop: (path: string) => Promise<void> }> {
  const [{ Session }, fs] = await Promise.all([import('node:inspector/promises'), import('node:fs')]);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async (path: string) => {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
      console.log(`CPU profile of the server process during the assignment run: ${path}`);
    },
  };
}

if (process.env[CHILD_ROLE]) await runLoadChild();
else await main();
