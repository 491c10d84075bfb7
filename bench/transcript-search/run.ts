/**
 * bench/transcript-search (docs/call-intelligence.md "Search"): GET /api/calls/search over BENCH_CALLS (1,000,000)
 * transcribed calls of one company, through the HTTP API beside the bare full-text SQL in the same run. Prints
 * p50/p95 per case, the ratio HTTP ÷ SQL and PASS/MISS against p95 < 50 ms (HTTP); asserts nothing.
 *
 *  1. A throwaway embedded PostgreSQL and the real server on it (`startBenchServer`); a person signs up (owner).
 *  2. Loads by SQL: 20 numbers, BENCH_CALLS search documents over two years (`call_search_docs`, migration 0031),
 *     each a dealership call of 6-12 segments (agent and client alternate) drawn from a realistic vocabulary
 *     (greetings, service and sales phrases, vehicles, parts, days, prices; Zipf-like: common phrases often, rare
 *     words seldom), with the three tsvectors computed by PostgreSQL. Then VACUUM ANALYZE.
 *  3. Per case BENCH_REQUESTS (100) sequential requests after 10 warm-up ones: single words (common, medium,
 *     rare), phrases (common, rare), a client-only word. Timed through `GET /api/calls/search?q=…` (page 1, 20 hits,
 *     passages, count capped at 10,001) and as the bare unbounded query (the baseline: `websearch_to_tsquery` +
 *     `ts_rank` of every match + exact count, limit 20). `hits` is the exact count, `total` what the API answered.
 *     BENCH_EXPLAIN=1 prints the EXPLAIN ANALYZE of the bounded ranking per case.
 *
 * Usage: `npm run bench:transcript-search` at the repository root. Knobs: BENCH_CALLS, BENCH_REQUESTS.
 */
import os from 'node:os';
import { fmt, startBenchServer, tempDir } from '../lib/bench-server.js';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return process.env[name] && Number.isFinite(v) && v > 0 ? v : fallback;
};
const CALLS = env('BENCH_CALLS', 1_000_000);
const REQUESTS = env('BENCH_REQUESTS', 100);
const TARGET_P95_MS = 50;
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

/** Agent lines (common first). */
const AGENT = [
  'Thanks for calling, how can I help you today?',
  'Let me check that for you.',
  'We can get you in on Tuesday morning.',
  'The total comes to three hundred and forty nine dollars.',
  'Would you like me to book the appointment?',
  'Our service department opens at seven thirty.',
  'We have that model in stock in silver and black.',
  'I can transfer you to the parts counter.',
  'The oil change special is forty nine ninety five.',
  'Can I get your name and a good callback number?',
  'The warranty covers the transmission for five years.',
  'We offer financing with zero percent for sixty months.',
  'The alignment and tire rotation take about an hour.',
  'Your vehicle is ready for pickup.',
  'We can order the catalytic converter by Thursday.',
];
/** Client lines (common first). */
const CLIENT = [
  'Hi, I have a question about my car.',
  'Yes, that works for me.',
  'How much would that cost?',
  'I need an oil change and new brake pads.',
  'Do you have any trucks available for a test drive?',
  'My check engine light came on yesterday.',
  'Can I trade in my old sedan?',
  'What time do you close on Saturday?',
  'I was quoted a different price last week.',
  'The air conditioning is blowing warm air.',
  'I would like to schedule a state inspection.',
  'Is the hybrid still under recall?',
  'My windshield has a crack from a rock.',
  'Do you sell winter tires for a pickup?',
  'I want to cancel my appointment.',
];

const CASES: Array<{ name: string; q: string; speaker?: string }> = [
  { name: 'word, common (“appointment”)', q: 'appointment' },
  { name: 'word, medium (“transmission”)', q: 'transmission' },
  { name: 'word, rare (“windshield”)', q: 'windshield' },
  { name: 'phrase, common (“oil change”)', q: '"oil change"' },
  { name: 'phrase, rare (“catalytic converter”)', q: '"catalytic converter"' },
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
    // Zipf-like pick of line k of n: floor(n * r^2) for a pseudo-random r in [0,1) leans to the common lines.
    const pick = (arr: string, n: number, seed: string) => `(${arr})[1 + floor(${n} * power(((${seed}) % 1000) / 1000.0, 2))::int]`;
    const BATCH = 100_000;
    for (let start = 1; start <= CALLS; start += BATCH) {
      const end = Math.min(CALLS, start + BATCH - 1);
      await client.query(
        `with segs as (
           select g, k, case when k % 2 = 0 then 1 else 2 end as speaker,
                  case when k % 2 = 0 then ${pick('$3::text[]', AGENT.length, '(g * 7919 + k * 104729)')}
                       else ${pick('$4::text[]', CLIENT.length, '(g * 6271 + k * 15485863)')} end as text
           from generate_series($1::int, $2::int) g, generate_series(0, 5 + (g % 7)) k
         ), docs as (
           select g,
                  jsonb_agg(jsonb_build_object('speaker', speaker, 'start', k * 6, 'end', k * 6 + 5, 'text', text) order by k) as segments,
                  string_agg(text, E'\\n' order by k) as all_text,
                  coalesce(string_agg(text, E'\\n' order by k) filter (where speaker = 1), '') as agent_text,
                  coalesce(string_agg(text, E'\\n' order by k) filter (where speaker = 2), '') as client_text
           from segs group by g
         )
         insert into call_search_docs (call_id, company_id, number_id, transcript_id, started_at, duration_s, direction, caller,
                                       answer_status, answered_by, qualification, tag_ids, segments, tsv_all, tsv_agent, tsv_client)
         select g, $5, n.ids[1 + g % 20], g, now() - make_interval(secs => (g::bigint * 4729) % (730 * 86400)), 30 + g % 600,
                'inbound', '+1' || (201 + g % 699) || lpad(((g::bigint * 7919) % 9999991)::text, 7, '0'), 1 + g % 3, null,
                case when g % 4 = 0 then 1 else null end, '{}', segments,
                to_tsvector('english', all_text), to_tsvector('english', agent_text), to_tsvector('english', client_text)
         from docs, (select array_agg(id order by id) ids from numbers where company_id = $5) n`,
        [start, end, AGENT, CLIENT, companyId],
      );
      log(`loaded ${fmt(end)} transcribed calls`);
    }
    await client.query('vacuum analyze call_search_docs');
    log('vacuum analyze done');

    console.log(`\nbench:transcript-search: ${fmt(CALLS)} transcribed calls, ${REQUESTS} requests per case, load ${os.loadavg()[0]!.toFixed(2)}`);
    console.log('| case | hits | HTTP p50 ms | HTTP p95 ms | SQL p50 ms | SQL p95 ms | HTTP ÷ SQL (p50) | p95 < 50 ms |');
    console.log('|---|--:|--:|--:|--:|--:|--:|---|');
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
      if (process.env.BENCH_EXPLAIN) {
        // The plan of the bounded ranking (docs/call-intelligence.md "Search at scale"): the newest 2,000 matches.
        const plan = await client.query(
          `explain (analyze, buffers off) select call_id, ts_rank(v, websearch_to_tsquery('english', $2)) as rank
           from (select call_id, started_at, ${vector} as v from call_search_docs
                 where company_id = $1 and ${vector} @@ websearch_to_tsquery('english', $2)
                 order by started_at desc, call_id desc limit 2000) d
           order by rank desc, started_at desc, call_id desc limit 20`,
          [companyId, c.q],
        );
        console.log(`plan (${c.name}):\n` + plan.rows.map((x: Record<string, string>) => '  ' + x['QUERY PLAN']).join('\n'));
      }
      for (let i = 0; i < REQUESTS + 10; i++) {
        let t = performance.now();
        const r = await api.req('GET', `/api/calls/search?${params}`);
        const h = performance.now() - t;
        if (r.status !== 200) throw new Error(`search ${c.q}: ${r.status} ${JSON.stringify(r.json)}`);
        t = performance.now();
        const b = await client.query(bareSql, [companyId, c.q]);
        exact = Number(b.rows[0]?.total ?? 0);
        const s = performance.now() - t;
        if (i >= 10) {
          http.push(h);
          bare.push(s);
        }
        hits = r.json.meta.total;
      }
      const ok = pct(http, 95) < TARGET_P95_MS;
      if (ok) pass++;
      console.log(
        `| ${c.name} | ${fmt(exact)} (total ${fmt(hits)}) | ${pct(http, 50).toFixed(1)} | ${pct(http, 95).toFixed(1)} | ${pct(bare, 50).toFixed(1)} | ${pct(bare, 95).toFixed(1)} | ${(pct(http, 50) / pct(bare, 50)).toFixed(2)} | ${ok ? 'PASS' : 'MISS'} |`,
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
