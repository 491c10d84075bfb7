/**
 * bench/analytics (docs/analytics.md): the dashboard, its comparison period and the call report at
 * scale, through the HTTP API beside hand-written SQL over the raw calls in the same run; and a CSV
 * export of BENCH_EXPORT (1,000,000) calls beside PostgreSQL's `COPY … TO` of the same rows. Prints
 * p50/p95 and PASS/MISS against the targets; asserts nothing.
 *
 * One run:
 *  1. A throwaway embedded PostgreSQL and the real server (`startBenchServer`); a person signs up
 *     (owner of the busy company); 999 more companies by SQL.
 *  2. Loads in bulk (generate_series, one statement per million rows): BENCH_CALLS (10,000,000) calls
 *     over the last two years; BENCH_BUSY_SHARE (10 %) of them belong to the busy company (20 numbers),
 *     the rest spread over 999 companies (3 numbers each). 70 % answered after 3-30 s (30-600 s long),
 *     20 % missed, 10 % voicemail; 75 % tracked (traffic source of 7, pools for paid sources) with
 *     call tracking's attribution stored; a third first contacts. Then the reporting store is built
 *     from them in bulk (`call_facts` by INSERT … SELECT with the rollup trigger off, the hourly
 *     rollups — totals, per number, per traffic source, per pool — by one GROUP BY each), and VACUUM ANALYZE. Load time is printed per step.
 *  3. With the answers cache off (ANALYTICS_NO_CACHE=1: every request computes), BENCH_REQUESTS (40)
 *     sequential requests after 5 warm-up ones for: the dashboard (its comparison period included)
 *     over the last 30 days and the last 365 days, and the report grouped by traffic source and day
 *     over both. Beside each, the same figures by hand-written SQL over `calls` (and the stored
 *     attribution) in the same run, and whether both give the same total.
 *  4. The busy company's calls of the last two years (1,000,000 at full scale) exported through
 *     `POST /api/calls/export` (the job, the blob store, the `export ready` answer) in rows/s, beside
 *     `COPY (the same columns) TO STDOUT` read by the bench.
 *
 * Usage: `npm run bench:analytics` at the repository root. Knobs: BENCH_CALLS, BENCH_BUSY_SHARE,
 * BENCH_REQUESTS. A quick run: `BENCH_CALLS=500000 npm run bench:analytics`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fmt, startBenchServer, tempDir, type BenchServer } from '../lib/bench-server.js';

process.env.ANALYTICS_NO_CACHE = '1';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return process.env[name] && Number.isFinite(v) && v > 0 ? v : fallback;
};
const CALLS = env('BENCH_CALLS', 10_000_000);
const BUSY_SHARE = env('BENCH_BUSY_SHARE', 0.1);
const REQUESTS = env('BENCH_REQUESTS', 40);
const COMPANIES = 1000;
/** Measure columns of every rollup (migrations 0024 and 0027). */
const MEASURES = 'calls, answered, missed, voicemails, blocked, first_time, qualified, leads, duration_s, answered_duration_s, answer_time_s, answer_time_n';
const TZ = 'America/New_York';
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

/** A minimal browser-like client: session cookies and the XSRF header. */
class Client {
  private cookies = new Map<string, string>();
  constructor(readonly base: string) {}
  async req(method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> {
    const h: Record<string, string> = { accept: 'application/json' };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf) h['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(this.base + url, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i).trim(), pair!.slice(i + 1).trim());
    }
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const day = (offset: number) => {
  // Local date in New York of today + offset days.
  const d = new Date(Date.now() + offset * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
};

/**
 * BENCH_KEEP_DIR: a folder kept between runs (a persistent cluster in `<dir>/pg`, the server's data in
 * `<dir>/data`). The first run loads into it; later runs find the loaded data (table `bench_loaded`),
 * start the current code on it (its migrations run, e.g. building a new rollup from the stored facts)
 * and only time. For measuring a change without reloading; a fresh folder per run otherwise.
 */
async function startKept(dir: string): Promise<BenchServer> {
  const [{ loadConfig }, { startServer }, { startEmbeddedPostgres }, { default: pg }] = await Promise.all([
    import('../../apps/server/src/platform/config.js'),
    import('../../apps/server/src/bootstrap.js'),
    import('../../apps/server/src/platform/db/database.js'),
    import('pg'),
  ]);
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'), true);
  const admin = new pg.Client({ connectionString: embedded.url('postgres') });
  await admin.connect();
  const exists = await admin.query(`select 1 from pg_database where datname = 'bench'`);
  if (exists.rows.length === 0) await admin.query('create database bench');
  await admin.end();
  const dbUrl = embedded.url('bench');
  const config = loadConfig({
    ...process.env,
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    CARRIER: 'sandbox',
    TWILIO_AUTH_TOKEN: 'bench-auth-token',
    SMTP_URL: '',
    PUBLIC_URL: '',
    WORKERS: '1',
    SEED_DEMO: '0',
  });
  const server = await startServer(config, dbUrl, { publicUrlFromPort: true });
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const stop = async () => {
    console.error = () => {};
    await client.end().catch(() => {});
    await server.close().catch(() => {});
    await embedded.stop().catch(() => {});
  };
  return { server, client, dbUrl, stop };
}

const timed = async (what: string, fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  const s = (performance.now() - t) / 1000;
  log(`${what}: ${s.toFixed(1)} s`);
  return s;
};

/** Loads the companies, numbers, calls, attributions and the reporting store in bulk (module doc, step 2). */
async function load(client: BenchServer['client'], busy: number): Promise<void> {
  // ---------------------------------------------------------------- load
  let loadSeconds = 0;
  // The server's reconcile job (facts for calls that have none, every 10 minutes) would race the bulk load of a long
  // run: its last run is set a day ahead, so it skips until the bench is over.
  await client.query(
    `insert into analytics_job_runs (name, last_run_at) values ('analytics.reconcile', now() + interval '1 day')
     on conflict (name) do update set last_run_at = excluded.last_run_at`,
  );
  loadSeconds += await timed('companies and numbers', async () => {
    await client.query(
      `insert into companies (name, timezone, help_text, quiet_hours_start, quiet_hours_end)
       select 'Company ' || g, $1, '', '21:00', '08:00' from generate_series(1, $2::int) g`,
      [TZ, COMPANIES - 1],
    );
    await client.query(`create table bench_companies as select row_number() over (order by id) - 1 as k, id from companies where id <> $1`, [busy]);
    await client.query(
      `insert into numbers (company_id, number, label, type, routes, schedule)
       select $1, '+1212555' || lpad(g::text, 4, '0'), 'Line ' || g, 1, '[]'::jsonb, '{}'::jsonb from generate_series(1, 20) g`,
      [busy],
    );
    await client.query(
      `insert into numbers (company_id, number, label, type, routes, schedule)
       select c.id, '+1646' || lpad((c.k * 3 + j)::text, 7, '0'), 'Line ' || j, 1, '[]'::jsonb, '{}'::jsonb from bench_companies c, generate_series(0, 2) j`,
    );
    await client.query(
      `create table bench_numbers as
       select 0::bigint as k, $1::bigint as company_id, row_number() over (order by id) - 1 as j, id, number from numbers where company_id = $1
       union all
       select c.k + 1, c.id, row_number() over (partition by c.id order by n.id) - 1, n.id, n.number from bench_companies c join numbers n on n.company_id = c.id`,
      [busy],
    );
    await client.query(`create index on bench_numbers (k, j)`);
  });

  // One generated call per g: company slot k (0 = busy), number j, time, outcome, caller, tracking.
  const gen = `
    select g,
      case when (hashint8(g) & 1023) < ${Math.round(BUSY_SHARE * 1024)} then 0 else 1 + ((hashint8(g * 7)::bigint & 2147483647) % ${COMPANIES - 1}) end as k,
      (hashint8(g * 11)::bigint & 2147483647) as h1, (hashint8(g * 13)::bigint & 2147483647) as h2, (hashint8(g * 17)::bigint & 2147483647) as h3
    from generate_series($1::bigint, $2::bigint) g`;
  const SOURCES = `(array['google_ads','organic','direct','referral','meta_ads','microsoft_ads','email'])`;
  const STEP = 1_000_000;
  loadSeconds += await timed(`calls (${fmt(CALLS)}) and attributions`, async () => {
    for (let lo = 1; lo <= CALLS; lo += STEP) {
      const hi = Math.min(CALLS, lo + STEP - 1);
      await client.query(
        `insert into calls (id, company_id, number_id, carrier_sid, from_number, to_number, from_state, direction, status, duration_s, started_at, answered_at, ended_at)
         overriding system value
         select x.g, n.company_id, n.id, 'CAbench' || x.g,
           '+1' || (201 + x.h1 % 699) || lpad(((x.h1 / 699) % 9999991)::text, 7, '0'), n.number,
           (array['NY','CA','TX','FL','IL','NJ','PA','OH','GA','NC'])[1 + x.h2 % 10], 'inbound',
           case when x.h2 % 10 < 7 then 12 when x.h2 % 10 < 9 then 5 else 4 end,
           case when x.h2 % 10 < 7 then 30 + x.h3 % 571 when x.h2 % 10 = 9 then 10 + x.h3 % 50 else 0 end,
           t.at,
           case when x.h2 % 10 < 7 then t.at + make_interval(secs => 3 + x.h3 % 28) end,
           t.at + make_interval(secs => 60)
         from (${gen}) x
         join bench_numbers n on n.k = x.k and n.j = x.h1 % (case when x.k = 0 then 20 else 3 end)
         cross join lateral (select now() - make_interval(secs => (x.h3 / 7) % (730 * 86400)) as at) t`,
        [lo, hi],
      );
      await client.query(
        `insert into call_attributions (call_id, company_id, is_first_contact, method, pool_id, traffic_source, source, medium)
         select c.id, c.company_id, (hashint8(c.id * 19) % 3) = 0,
           case when s.src in ('google_ads','meta_ads') then 'pool' else 'static' end,
           case when s.src in ('google_ads','meta_ads') then 1 + (hashint8(c.id * 23)::bigint & 2147483647) % 3 end,
           s.src, s.src, 'cpc'
         from calls c cross join lateral (select ${SOURCES}[1 + (hashint8(c.id * 29)::bigint & 2147483647) % 7] as src) s
         where c.id between $1 and $2 and (hashint8(c.id * 31)::bigint & 2147483647) % 4 <> 0`,
        [lo, hi],
      );
      log(`  … ${fmt(hi)} calls`);
    }
    await client.query(`select setval(pg_get_serial_sequence('calls', 'id'), $1)`, [CALLS]);
  });
  // The server's reconcile job may have written facts for some calls meanwhile (a long load): those are kept.
  loadSeconds += await timed('call_facts from calls (rollup trigger off)', async () => {
    await client.query(`set session_replication_role = replica`);
    for (let lo = 1; lo <= CALLS; lo += STEP) {
      const hi = Math.min(CALLS, lo + STEP - 1);
      await client.query(
        `insert into call_facts (call_id, company_id, number_id, started_at, direction, status, answer_status, duration_s, answer_time_s,
           from_number, to_number, caller, geo, is_first_contact, traffic_source, source, medium, first_traffic_source, dni_pool_id)
         select c.id, c.company_id, c.number_id, c.started_at, c.direction, c.status,
           case when c.status = 12 then 1 when c.status = 4 then 3 else 2 end, c.duration_s,
           case when c.answered_at is not null then extract(epoch from c.answered_at - c.started_at)::int end,
           c.from_number, c.to_number, c.from_number, coalesce(c.from_state, ''), coalesce(a.is_first_contact, false),
           coalesce(a.traffic_source, ''), a.source, a.medium, coalesce(a.traffic_source, ''), a.pool_id
         from calls c left join call_attributions a on a.call_id = c.id
         where c.id between $1 and $2
         on conflict (call_id) do nothing`,
        [lo, hi],
      );
    }
    await client.query(`set session_replication_role = origin`);
  });
  const ROLLUPS: Array<[string, string, string]> = [
    ['call_rollup_hours', '', ''],
    ['call_rollup_hour_numbers', 'number_id', 'number_id'],
    ['call_rollup_hour_sources', 'traffic_source', 'traffic_source'],
    ['call_rollup_hour_pools', 'dni_pool_id', 'coalesce(dni_pool_id, 0)'],
  ];
  loadSeconds += await timed('the four hourly rollups (one GROUP BY each)', async () => {
    // Built from all the facts at once: what the rollup trigger added for the reconcile job's facts goes first.
    const dayTables = ROLLUPS.map(([t]) => t.replace('_hour', '_day').replace('call_rollup_hours', 'call_rollup_days'));
    await client.query(`truncate ${[...ROLLUPS.map(([t]) => t), ...dayTables].join(', ')}`);
    for (const [table, column, expr] of ROLLUPS) {
      await client.query(
        `insert into ${table} (company_id, hour, ${column ? `${column}, ` : ''}calls, answered, missed, voicemails, blocked, first_time,
           qualified, leads, duration_s, answered_duration_s, answer_time_s, answer_time_n)
         select company_id, date_trunc('hour', started_at), ${expr ? `${expr}, ` : ''}count(*), count(*) filter (where answer_status = 1),
           count(*) filter (where answer_status = 2), count(*) filter (where answer_status = 3), count(*) filter (where answer_status = 4),
           count(*) filter (where is_first_contact), count(*) filter (where is_qualified), count(*) filter (where is_lead),
           sum(duration_s), sum(case when answer_status = 1 then duration_s else 0 end),
           sum(case when answer_status = 1 and answer_time_s is not null then answer_time_s else 0 end),
           count(*) filter (where answer_status = 1 and answer_time_s is not null)
         from call_facts group by 1, 2${expr ? ', 3' : ''}`,
      );
    }
  });
  loadSeconds += await timed('the four day rollups (from the hourly ones, one GROUP BY each)', async () => {
    for (const [table, column] of ROLLUPS) {
      const dayTable = table.replace('_hour', '_day').replace('call_rollup_hours', 'call_rollup_days');
      const dim = column ? `, ${column}` : '';
      await client.query(
        `insert into ${dayTable} (company_id, day${dim}, ${MEASURES})
         select company_id, date_trunc('day', hour, 'UTC')${dim}, ${MEASURES.split(', ')
           .map((m) => `sum(${m})`)
           .join(', ')}
         from ${table} group by 1, 2${dim ? ', 3' : ''}`,
      );
    }
  });
  loadSeconds += await timed('VACUUM ANALYZE', async () => {
    await client.query('vacuum analyze calls');
    await client.query('vacuum analyze call_attributions');
    await client.query('vacuum analyze call_facts');
    for (const [table] of ROLLUPS) await client.query(`vacuum analyze ${table}`);
  });
  await client.query(`create table bench_loaded (at timestamptz default now(), seconds real)`);
  await client.query(`insert into bench_loaded (seconds) values ($1)`, [loadSeconds]);
}

/** Prints the busy company's calls, rollup rows and the store's sizes. */
async function printSizes(client: BenchServer['client'], busy: number): Promise<void> {
  const loadSeconds = Number((await client.query(`select seconds from bench_loaded`)).rows[0].seconds);
  const sizes = await client.query(
    `select (select count(*) from call_facts where company_id = $1) as busy_calls,
            (select count(*) from call_rollup_hours where company_id = $1) || ' / ' ||
              (select count(*) from call_rollup_hour_numbers where company_id = $1) || ' / ' ||
              (select count(*) from call_rollup_hour_sources where company_id = $1) || ' / ' ||
              (select count(*) from call_rollup_hour_pools where company_id = $1) as busy_rollups,
            (select count(*) from call_rollup_days where company_id = $1) || ' / ' ||
              (select count(*) from call_rollup_day_numbers where company_id = $1) || ' / ' ||
              (select count(*) from call_rollup_day_sources where company_id = $1) || ' / ' ||
              (select count(*) from call_rollup_day_pools where company_id = $1) as busy_day_rollups,
            pg_size_pretty(pg_total_relation_size('call_facts')) as facts_size,
            pg_size_pretty(pg_total_relation_size('call_rollup_hours') + pg_total_relation_size('call_rollup_hour_numbers')
              + pg_total_relation_size('call_rollup_hour_sources') + pg_total_relation_size('call_rollup_hour_pools')) as rollup_size,
            pg_size_pretty(pg_total_relation_size('call_rollup_days') + pg_total_relation_size('call_rollup_day_numbers')
              + pg_total_relation_size('call_rollup_day_sources') + pg_total_relation_size('call_rollup_day_pools')) as day_rollup_size`,
    [busy],
  );
  const z = sizes.rows[0];
  log(
    `loaded in ${loadSeconds.toFixed(0)} s; busy company: ${fmt(Number(z.busy_calls))} calls, ${z.busy_rollups} hourly rollup rows (hours / numbers / sources / pools), ${z.busy_day_rollups} day rollup rows; facts ${z.facts_size}, hourly rollups ${z.rollup_size}, day rollups ${z.day_rollup_size}`,
  );
}

async function main(): Promise<void> {
  const keepDir = process.env.BENCH_KEEP_DIR;
  const bench = keepDir ? await startKept(keepDir) : await startBenchServer(tempDir('sb-bench-analytics-'), tempDir('sb-bench-analytics-pg-'));
  const { server, client } = bench;
  try {
    const api = new Client(server.url);
    await api.req('GET', '/api/csrf-cookie');
    const loaded = (await client.query(`select to_regclass('bench_loaded') is not null as loaded`)).rows[0].loaded as boolean;
    let busy: number;
    if (loaded) {
      const login = await api.req('POST', '/api/sanctum/login', { email: 'bench@analytics.example', password: 'bench-password-2026' });
      if (login.status >= 300) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.json)}`);
      await api.req('GET', '/api/csrf-cookie');
      busy = Number((await client.query(`select id from companies where name = 'Analytics Bench Co'`)).rows[0].id);
      log(`bench:analytics: reusing the data loaded in ${keepDir}, load ${os.loadavg()[0]!.toFixed(2)}`);
    } else {
      const signup = await api.req('POST', '/api/client/signup/create', {
        first_name: 'Bench',
        last_name: 'Person',
        email: 'bench@analytics.example',
        password: 'bench-password-2026',
        company_name: 'Analytics Bench Co',
        timezone: TZ,
      });
      if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.json)}`);
      busy = signup.json.company.id;
      log(`bench:analytics: ${fmt(CALLS)} calls over ${COMPANIES} companies, busy share ${BUSY_SHARE}, load ${os.loadavg()[0]!.toFixed(2)}`);
      await load(client, busy);
    }
    await printSizes(client, busy);

    // ---------------------------------------------------------------- timings
    const ranges = { '30 d': [day(-29), day(0)], '365 d': [day(-364), day(0)] } as const;
    const tzq = encodeURIComponent(TZ);
    type Case = { name: string; http: () => Promise<number>; sql: () => Promise<number>; target: number };
    const cases: Case[] = [];
    for (const [label, [from, to]] of Object.entries(ranges)) {
      const bounds = async () =>
        (
          await client.query(
            `select (($1::date)::timestamp at time zone $3) as f, ((($2::date) + 1)::timestamp at time zone $3) as t,
                    ((($1::date) - ($2::date - $1::date + 1))::timestamp at time zone $3) as pf`,
            [from, to, TZ],
          )
        ).rows[0];
      const b = await bounds();
      cases.push({
        name: `dashboard + comparison, ${label}`,
        target: label === '30 d' ? 100 : 300,
        http: async () => {
          const r = await api.req('GET', `/api/dashboard?company_id=${busy}&tz=${tzq}&filters[dates][from]=${from}&filters[dates][to]=${to}`);
          if (r.status !== 200) throw new Error(`dashboard ${r.status} ${JSON.stringify(r.json)}`);
          return r.json.data.kpis.totalCalls.value;
        },
        sql: async () => {
          // The same figures by hand over the raw calls: KPIs of both ranges, the series, sources, numbers, heat map.
          const k = `select count(*) as n, count(*) filter (where answered_at is not null) as answered, count(*) filter (where status = 5) as missed,
                       count(*) filter (where status = 4) as vm, avg(extract(epoch from answered_at - started_at)) as ans, avg(duration_s) filter (where answered_at is not null) as dur
                     from calls where company_id = $1 and started_at >= $2 and started_at < $3`;
          const [cur] = await Promise.all([client.query(k, [busy, b.f, b.t]), client.query(k.replace('from calls', 'from calls'), [busy, b.pf, b.f])]);
          await client.query(
            `select (started_at at time zone $4)::date, count(*), count(*) filter (where answered_at is not null) from calls where company_id = $1 and started_at >= $2 and started_at < $3 group by 1`,
            [busy, b.f, b.t, TZ],
          );
          await client.query(
            `select coalesce(a.traffic_source, ''), count(*) from calls c left join call_attributions a on a.call_id = c.id where c.company_id = $1 and c.started_at >= $2 and c.started_at < $3 group by 1`,
            [busy, b.f, b.t],
          );
          await client.query(
            `select number_id, count(*), count(*) filter (where status in (4, 5)) from calls where company_id = $1 and started_at >= $2 and started_at < $3 group by 1`,
            [busy, b.f, b.t],
          );
          await client.query(
            `select extract(dow from started_at at time zone $4), extract(hour from started_at at time zone $4), count(*) from calls where company_id = $1 and started_at >= $2 and started_at < $3 group by 1, 2`,
            [busy, b.f, b.t, TZ],
          );
          return Number(cur.rows[0].n);
        },
      });
      cases.push({
        name: `report by traffic source and day, ${label}`,
        target: label === '30 d' ? 100 : 300,
        http: async () => {
          const r = await api.req(
            'GET',
            `/api/analytics/calls?company_id=${busy}&timezone=${tzq}&group=traffic_source_day&dates[from]=${from}&dates[to]=${to}`,
          );
          if (r.status !== 200) throw new Error(`report ${r.status} ${JSON.stringify(r.json)}`);
          return r.json.data.totals.calls;
        },
        sql: async () => {
          const r = await client.query(
            `select coalesce(a.traffic_source, '') as source, (c.started_at at time zone $4)::date as day, count(*) as n,
                    count(*) filter (where c.answered_at is not null) as answered
             from calls c left join call_attributions a on a.call_id = c.id
             where c.company_id = $1 and c.started_at >= $2 and c.started_at < $3 group by 1, 2`,
            [busy, b.f, b.t, TZ],
          );
          return r.rows.reduce((s: number, x: any) => s + Number(x.n), 0);
        },
      });
    }

    console.log(`\n| case | HTTP p50 ms | HTTP p95 ms | SQL over calls p50 ms | SQL p95 ms | same total | target p95 |`);
    console.log(`|---|---:|---:|---:|---:|---|---|`);
    for (const c of cases) {
      for (let i = 0; i < 5; i++) {
        await c.http();
        await c.sql();
      }
      const http: number[] = [];
      const bare: number[] = [];
      let apiTotal = 0;
      let sqlTotal = 0;
      for (let i = 0; i < REQUESTS; i++) {
        let t = performance.now();
        apiTotal = await c.http();
        http.push(performance.now() - t);
        t = performance.now();
        sqlTotal = await c.sql();
        bare.push(performance.now() - t);
      }
      const ok = pct(http, 95) < c.target;
      console.log(
        `| ${c.name} | ${pct(http, 50).toFixed(1)} | ${pct(http, 95).toFixed(1)} | ${pct(bare, 50).toFixed(1)} | ${pct(bare, 95).toFixed(1)} | ${apiTotal === sqlTotal ? `yes (${fmt(apiTotal)})` : `NO (${apiTotal} vs ${sqlTotal})`} | < ${c.target}: ${ok ? 'PASS' : 'MISS'} |`,
      );
    }

    // ---------------------------------------------------------------- export
    const from = day(-729);
    const to = day(0);
    const columns = ['id', 'started_at', 'from', 'to', 'answer_status', 'duration_s', 'traffic_source'];
    const t0 = performance.now();
    const started = await api.req('POST', '/api/calls/export', { company_id: busy, columns, tz: TZ, filters: { dates: { from, to } } });
    if (started.status !== 202) throw new Error(`export ${started.status} ${JSON.stringify(started.json)}`);
    let job: any;
    for (;;) {
      job = (await api.req('GET', `/api/analytics/exports/${started.json.data.id}`)).json.data;
      if (job.status === 'done' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const exportSeconds = (performance.now() - t0) / 1000;
    if (job.status !== 'done') throw new Error(`export failed: ${JSON.stringify(job)}`);
    const { default: copyStreams } = await import('pg-copy-streams');
    const b = (await client.query(`select (($1::date)::timestamp at time zone $3) as f, ((($2::date) + 1)::timestamp at time zone $3) as t`, [from, to, TZ]))
      .rows[0];
    const t1 = performance.now();
    let bytes = 0;
    const copy = client.query(
      copyStreams.to(
        `copy (select call_id, to_char(started_at at time zone '${TZ}', 'YYYY-MM-DD HH24:MI:SS'), from_number, to_number,
                 (array['none','answered','missed','voicemail','blocked'])[answer_status + 1], duration_s, traffic_source
               from call_facts where company_id = ${busy} and started_at >= '${b.f.toISOString()}' and started_at < '${b.t.toISOString()}'
               order by started_at, call_id) to stdout with (format csv, header)`,
      ),
    );
    await pipeline(
      copy,
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          bytes += chunk.length;
          cb();
        },
      }),
    );
    const copySeconds = (performance.now() - t1) / 1000;
    const exportRate = job.rows / exportSeconds;
    const copyRate = job.rows / copySeconds;
    console.log(`\n| export | rows | seconds | rows/s | COPY TO rows/s (${fmt(bytes / 1e6)} MB) | ratio | target ≥ 0.5 |`);
    console.log(`|---|---:|---:|---:|---:|---:|---|`);
    console.log(
      `| POST /api/calls/export, ${columns.length} columns | ${fmt(job.rows)} | ${exportSeconds.toFixed(1)} | ${fmt(exportRate)} | ${fmt(copyRate)} | ${(exportRate / copyRate).toFixed(2)} | ${exportRate / copyRate >= 0.5 ? 'PASS' : 'MISS'} |`,
    );
    console.log(
      `\nload average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' / ')}`,
    );
  } finally {
    await bench.stop();
  }
}

main().catch((error: unknown) => {
  // `stop()` silences console.error (pg-boss's noise while stopping): write the failure directly.
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
