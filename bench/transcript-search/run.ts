/**
 * bench/transcript-search (docs/call-intelligence.md "Search at scale"): GET /api/calls/search over BENCH_CALLS
 * (1,000,000) transcribed calls of one company, through the HTTP API beside the bare full-text SQL in the same run.
 * Prints p50/p95 per case, the ratio HTTP ÷ SQL and PASS/MISS against p95 < 50 ms (HTTP); asserts nothing.
 *
 *  1. A throwaway embedded PostgreSQL and the real server on it (`startBenchServer`: migrations included); a person
 *     signs up (owner).
 *  2. Loads by SQL: 20 numbers, BENCH_CALLS search documents over two years in call order (corpus.ts: dealership
 *     lines plus Zipf-distributed names, models, parts and a 20,000-word tail of surnames; the vectors computed by
 *     PostgreSQL as the product computes them). The table's secondary indexes are dropped for the load and created
 *     again from their own definitions after it (bulk load), then VACUUM ANALYZE.
 *  3. Per case BENCH_REQUESTS (100) sequential requests after 10 warm-up ones: single words (common ~40 %,
 *     frequent ~15 %, medium ~2 %, rare ~0.02 %), phrases (common ~45 %, rare ~0.25 %), a client-only word. Timed
 *     through `GET /api/calls/search?q=…` (page 1, 20 hits, passages, total capped at 2,001) and, after every
 *     BENCH_SQL_EVERY-th (5) request, the bare unbounded query (the baseline: `websearch_to_tsquery` + `ts_rank` of
 *     every match + exact count, limit 20). `hits` is the exact count, `total` what the API answered.
 *
 * Usage: `npm run bench:transcript-search` at the repository root. Knobs: BENCH_CALLS, BENCH_REQUESTS, BENCH_SQL_EVERY.
 */
import os from 'node:os';
import { fmt, startBenchServer, tempDir } from '../lib/bench-server.js';
import { MODELS, PARTS, loadCalls, surname } from './corpus.js';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return process.env[name] && Number.isFinite(v) && v > 0 ? v : fallback;
};
const CALLS = env('BENCH_CALLS', 1_000_000);
const REQUESTS = env('BENCH_REQUESTS', 100);
const SQL_EVERY = env('BENCH_SQL_EVERY', 5);
const TARGET_P95_MS = 50;
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

const CASES: Array<{ name: string; q: string; speaker?: string }> = [
  { name: 'word, common (“appointment”)', q: 'appointment' },
  { name: 'word, frequent (“windshield”)', q: 'windshield' },
  { name: `word, medium (“${MODELS[11]}”)`, q: MODELS[11]! },
  { name: `word, rare (“${surname(500)}”)`, q: surname(500) },
  { name: 'phrase, common (“oil change”)', q: '"oil change"' },
  { name: `phrase, rare (“${PARTS[56]}”)`, q: `"${PARTS[56]}"` },
  { name: 'client word (“recall”, speaker=client)', q: 'recall', speaker: 'client' },
];

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

async function main(): Promise<void> {
  const bench = await startBenchServer(tempDir('sb-bench-search-'), tempDir('sb-bench-search-pg-'));
  const { server, client } = bench;
  try {
    const api = new Client(server.url);
    await api.req('GET', '/api/csrf-cookie');
    const signup = await api.req('POST', '/api/client/signup/create', {
      first_name: 'Bench',
      last_name: 'Person',
      email: 'bench@search.example',
      password: 'bench-password-2026',
      company_name: 'Search Bench Co',
    });
    if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.json)}`);
    const companyId: number = signup.json.company.id;
    await client.query(
      `insert into numbers (company_id, number, label, type, routes, schedule)
      select $1, '+1212555' || lpad(g::text, 4, '0'), 'Line ' || g, 1, '[]'::jsonb, '{}'::jsonb from generate_series(1, 20) g`,
      [companyId],
    );
    const numberIds = (await client.query('select id from numbers where company_id = $1 order by id', [companyId])).rows.map((r: { id: string }) =>
      Number(r.id),
    );
    // Bulk load: the secondary indexes are created again from their own definitions once the rows are in.
    const indexes = (
      await client.query(`select indexname, indexdef from pg_indexes where tablename = 'call_search_docs' and indexname <> 'call_search_docs_pkey'`)
    ).rows as Array<{ indexname: string; indexdef: string }>;
    for (const i of indexes) await client.query(`drop index ${i.indexname}`);
    const end = new Date();
    const BATCH = 100_000;
    for (let start = 1; start <= CALLS; start += BATCH) {
      const last = Math.min(CALLS, start + BATCH - 1);
      await loadCalls(client, companyId, numberIds, start, last, CALLS, end);
      log(`loaded ${fmt(last)} transcribed calls`);
    }
    await client.query(`set maintenance_work_mem = '512MB'`);
    for (const i of indexes) await client.query(i.indexdef);
    await client.query('reset maintenance_work_mem');
    log(`indexes created: ${indexes.map((i) => i.indexname).join(', ')}`);
    await client.query('vacuum analyze call_search_docs');
    log('vacuum analyze done');

    console.log(
      `\nbench:transcript-search: ${fmt(CALLS)} transcribed calls, ${REQUESTS} requests per case (bare SQL after every ${SQL_EVERY}th), load ${os.loadavg()[0]!.toFixed(2)}`,
    );
    console.log('| case | hits | HTTP p50 ms | HTTP p95 ms | SQL p50 ms | SQL p95 ms | HTTP ÷ SQL (p50) | HTTP ÷ SQL (p95) | load | p95 < 50 ms |');
    console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|---|');
    let pass = 0;
    for (const c of CASES) {
      const params = new URLSearchParams({ company_id: String(companyId), q: c.q, ...(c.speaker ? { speaker: c.speaker } : {}) });
      const vector = c.speaker === 'client' ? 'tsv_client' : 'tsv_all';
      const bareSql = `select call_id, ts_rank(${vector}, q) as rank, count(*) over () as total
        from call_search_docs, websearch_to_tsquery('english', $2) q
        where company_id = $1 and ${vector} @@ q order by rank desc, started_at desc, call_id desc limit 20`;
      const http: number[] = [];
      const bare: number[] = [];
      let hits = 0;
      let exact = 0;
      for (let i = 0; i < REQUESTS + 10; i++) {
        const t = performance.now();
        const r = await api.req('GET', `/api/calls/search?${params}`);
        const h = performance.now() - t;
        if (r.status !== 200) throw new Error(`search ${c.q}: ${r.status} ${JSON.stringify(r.json)}`);
        if (i >= 10) http.push(h);
        hits = r.json.meta.total;
        if (i % SQL_EVERY === 0) {
          const t2 = performance.now();
          const b = await client.query(bareSql, [companyId, c.q]);
          const s = performance.now() - t2;
          exact = Number(b.rows[0]?.total ?? 0);
          if (i >= 10) bare.push(s);
        }
      }
      const ok = pct(http, 95) < TARGET_P95_MS;
      if (ok) pass++;
      console.log(
        `| ${c.name} | ${fmt(exact)} (total ${fmt(hits)}) | ${pct(http, 50).toFixed(1)} | ${pct(http, 95).toFixed(1)} | ${pct(bare, 50).toFixed(1)} | ${pct(bare, 95).toFixed(1)} | ${(pct(http, 50) / pct(bare, 50)).toFixed(2)} | ${(pct(http, 95) / pct(bare, 95)).toFixed(2)} | ${os.loadavg()[0]!.toFixed(1)} | ${ok ? 'PASS' : 'MISS'} |`,
      );
    }
    console.log(`\n${pass} of ${CASES.length} cases with p95 under ${TARGET_P95_MS} ms (load ${os.loadavg()[0]!.toFixed(2)})`);
  } finally {
    await bench.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
