/**
 * bench/inbox (docs/messaging.md "Search"): the inbox list and its searches at production scale,
 * through the HTTP API beside the bare repository query in the same run. Prints p50/p95 per case
 * and PASS/MISS against p95 < 20 ms (HTTP); asserts nothing.
 *
 * One run (about 3-4 minutes on 2 cores, most of it loading):
 *  1. A throwaway embedded PostgreSQL and the real server on it (`startBenchServer`); a person signs
 *     up through `POST /api/client/signup/create` (owner of a new company) and keeps the session.
 *  2. Loads, by SQL: 20 numbers, BENCH_CONVERSATIONS (100,000) conversations with distinct
 *     recipients over 18 months (10 % archived), 60 % of them with a contact (first × last names
 *     from small lists, so last names repeat), and BENCH_ITEMS_PER (10) items each (1,000,000):
 *     texts in and out with bodies from a small vocabulary, and calls. Then VACUUM ANALYZE.
 *  3. For each case, BENCH_REQUESTS (200) sequential requests after 20 warm-up ones:
 *     - first page (perPage 25), cursor pages (random positions among the first 40 pages), archived;
 *     - digit searches: common ('201', '555'), rare (a random existing recipient's 10 digits), absent;
 *     - name searches: common (a frequent last name), rare (a random contact's full name), absent.
 *     Each case is timed through `GET /api/companies/{id}/conversations` and as the bare query
 *     (`conversationsRepository.list` on the server's pool, the statement(s) the API runs), and the
 *     ratio HTTP ÷ SQL is printed.
 *
 * Usage: `npm run bench:inbox` at the repository root. Knobs: BENCH_CONVERSATIONS, BENCH_ITEMS_PER, BENCH_REQUESTS.
 */
import os from 'node:os';
import { fmt, startBenchServer, tempDir } from '../lib/bench-server.js';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return process.env[name] && Number.isFinite(v) && v > 0 ? v : fallback;
};
const CONVERSATIONS = env('BENCH_CONVERSATIONS', 100_000);
const ITEMS_PER = env('BENCH_ITEMS_PER', 10);
const REQUESTS = env('BENCH_REQUESTS', 200);
const TARGET_P95_MS = 20;
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

const FIRST = [
  'Maria',
  'James',
  'Ana',
  'John',
  'Wei',
  'Fatima',
  'Luis',
  'Olga',
  'Sam',
  'Priya',
  'Noah',
  'Emma',
  'Liam',
  'Zoe',
  'Omar',
  'Chloe',
  'Ivan',
  'Mia',
  'Hugo',
  'Lena',
];
const LAST = Array.from({ length: 400 }, (_, i) => (i < 5 ? ['Smith', 'Garcia', 'Nguyen', 'Khan', 'Lopez'][i]! : `Surname${i.toString(36)}x`));

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

async function main(): Promise<void> {
  const bench = await startBenchServer(tempDir('sb-bench-inbox-'), tempDir('sb-bench-inbox-pg-'));
  const { server, client } = bench;
  try {
    const api = new Client(server.url);
    await api.req('GET', '/api/csrf-cookie');
    const signup = await api.req('POST', '/api/client/signup/create', {
      first_name: 'Bench',
      last_name: 'Person',
      email: 'bench@inbox.example',
      password: 'bench-password-2026',
      company_name: 'Inbox Bench Co',
    });
    if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.json)}`);
    const companyId: number = signup.json.company.id;

    // 2. data
    await client.query(
      `insert into numbers (company_id, number, label, type, routes, schedule)
      select $1, '+1212555' || lpad(g::text, 4, '0'), 'Line ' || g, 1, '[]'::jsonb, '{}'::jsonb from generate_series(1, 20) g`,
      [companyId],
    );
    // Distinct recipients: area code 201-899 and a 7-digit number from a bijective map of g.
    const recipient = `'+1' || (201 + g % 699) || lpad(((g::bigint * 7919) % 9999991)::text, 7, '0')`;
    await client.query(
      `insert into contacts (company_id, name, number)
      select $1, ($3::text[])[1 + g % ${FIRST.length}] || ' ' || ($4::text[])[1 + (g / ${FIRST.length}) % ${LAST.length}], ${recipient}
      from generate_series(1, $2::int) g where g % 5 < 3`,
      [companyId, CONVERSATIONS, FIRST, LAST],
    );
    await client.query(
      `insert into conversations (company_id, number_id, recipient, contact_id, is_archived, last_activity_at, created_at)
      select $1, n.ids[1 + g % 20], ${recipient}, null, g % 10 = 0,
             now() - make_interval(secs => (g::bigint * 4729) % (548 * 86400)), now() - interval '600 days'
      from generate_series(1, $2::int) g, (select array_agg(id order by id) ids from numbers where company_id = $1) n`,
      [companyId, CONVERSATIONS],
    );
    await client.query(
      `update conversations v set contact_id = c.id from contacts c where c.company_id = $1 and c.number = v.recipient and v.company_id = $1`,
      [companyId],
    );
    log(`loaded ${fmt(CONVERSATIONS)} conversations and their contacts`);
    await client.query(
      `insert into conversation_items (company_id, conversation_id, type, is_inbound, is_read, body, created_at)
      select $1, v.id, case when k % 4 = 3 then 'call' else 'sms' end, k % 2 = 0, true,
             case when k % 4 = 3 then null else (array['Hi, is this still available?', 'Thanks, see you tomorrow', 'Can you call me back about the quote', 'Your appointment is confirmed', 'What time do you open on Saturday?', 'Running 10 minutes late', 'Please send the invoice', 'Got it, thank you!'])[1 + (v.id + k) % 8] end,
             v.last_activity_at - make_interval(mins => k * 37)
      from conversations v, generate_series(0, $2::int - 1) k where v.company_id = $1`,
      [companyId, ITEMS_PER],
    );
    log(`loaded ${fmt(CONVERSATIONS * ITEMS_PER)} items`);
    await client.query('vacuum analyze');
    log('vacuum analyze done');

    const sample = async (sqlText: string, params: unknown[] = []) => (await client.query(sqlText, params)).rows;
    const recipients = (
      await sample(`select recipient from conversations where company_id = $1 and not is_archived order by random() limit 500`, [companyId])
    ).map((r) => r.recipient as string);
    const names = (await sample(`select name from contacts where company_id = $1 order by random() limit 500`, [companyId])).map((r) => r.name as string);
    const cursors: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 40; i++) {
      const r = await api.req('GET', `/api/companies/${companyId}/conversations?perPage=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      cursor = r.json.meta.next_cursor;
      if (!cursor) break;
      cursors.push(cursor);
    }

    const { conversationsRepository } = await import('../../apps/server/src/modules/conversations/conversations.repository.js');
    const { decodeCursor } = await import('../../apps/server/src/modules/conversations/conversations.service.js');
    const since = new Date();
    since.setFullYear(since.getFullYear() - 2);
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const idsByName = async (name: string) =>
      (await client.query(`select id from contacts where company_id = $1 and name ilike $2 limit 500`, [companyId, `%${name}%`])).rows.map((r) => Number(r.id));

    type Case = { name: string; query: () => string; sql: (q: string) => Promise<unknown> };
    const base = { companyId, isArchived: false, limit: 26 };
    const params = (q: string) => new URLSearchParams(q);
    const digitCase = (name: string, term: () => string): Case => ({
      name,
      query: () => `search=${term()}`,
      sql: async (q) => conversationsRepository.list(server.ctx.db, { ...base, since, recipientDigits: params(q).get('search')! }),
    });
    const nameCase = (name: string, term: () => string): Case => ({
      name,
      query: () => `search=${encodeURIComponent(term())}`,
      sql: async (q) => {
        const t = params(q).get('search')!;
        return conversationsRepository.list(server.ctx.db, { ...base, since, text: { contactIds: await idsByName(t), pattern: `%${t}%` } });
      },
    });
    const cases: Case[] = [
      { name: 'first page', query: () => '', sql: async () => conversationsRepository.list(server.ctx.db, base) },
      {
        name: 'cursor page',
        query: () => `cursor=${encodeURIComponent(pick(cursors))}`,
        sql: async (q) => conversationsRepository.list(server.ctx.db, { ...base, after: decodeCursor(params(q).get('cursor')!) }),
      },
      { name: 'archived', query: () => 'isArchived=1', sql: async () => conversationsRepository.list(server.ctx.db, { ...base, isArchived: true }) },
      digitCase('digits, common (201)', () => '201'),
      digitCase('digits, common (555)', () => '555'),
      digitCase('digits, rare (a number)', () => pick(recipients).slice(2)),
      digitCase('digits, absent', () => '9999999999'),
      nameCase('name, common (Smith)', () => 'Smith'),
      nameCase('name, rare (a full name)', () => pick(names)),
      nameCase('name, absent', () => 'Quixotic'),
    ];

    console.log(
      `\nbench:inbox: ${fmt(CONVERSATIONS)} conversations, ${fmt(CONVERSATIONS * ITEMS_PER)} items, ${REQUESTS} requests per case, load ${os.loadavg()[0]!.toFixed(2)}`,
    );
    console.log('| case | HTTP p50 ms | HTTP p95 ms | SQL p50 ms | SQL p95 ms | HTTP ÷ SQL (p50) | rows | p95 < 20 ms |');
    console.log('|---|--:|--:|--:|--:|--:|--:|---|');
    let pass = 0;
    for (const c of cases) {
      const http: number[] = [];
      const bare: number[] = [];
      let rows = 0;
      for (let i = 0; i < REQUESTS + 20; i++) {
        const q = c.query();
        let t = performance.now();
        const r = await api.req('GET', `/api/companies/${companyId}/conversations?perPage=25${q ? `&${q}` : ''}`);
        const h = performance.now() - t;
        if (r.status !== 200) throw new Error(`${c.name}: ${r.status} ${JSON.stringify(r.json)}`);
        t = performance.now();
        await c.sql(q);
        const s = performance.now() - t;
        if (i >= 20) {
          http.push(h);
          bare.push(s);
          rows += r.json.data.length;
        }
      }
      const ok = pct(http, 95) < TARGET_P95_MS;
      if (ok) pass++;
      console.log(
        `| ${c.name} | ${pct(http, 50).toFixed(1)} | ${pct(http, 95).toFixed(1)} | ${pct(bare, 50).toFixed(1)} | ${pct(bare, 95).toFixed(1)} | ${(pct(http, 50) / pct(bare, 50)).toFixed(2)} | ${(rows / REQUESTS).toFixed(1)} | ${ok ? 'PASS' : 'MISS'} |`,
      );
    }
    console.log(`\n${pass} of ${cases.length} cases with p95 under ${TARGET_P95_MS} ms (load ${os.loadavg()[0]!.toFixed(2)})`);
  } finally {
    await bench.stop();
  }
}

await main();
