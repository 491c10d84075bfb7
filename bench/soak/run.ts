/**
 * bench/soak (docs/architecture.md "Transactions never wait on the pool"): two server nodes on one
 * database under a paced, open-loop mix of carrier webhooks, inbox reads and live subscribers.
 *
 * What it does, in one run (about 1½ minutes at the defaults):
 *  1. Starts a throwaway embedded PostgreSQL and TWO real servers on it, each in its own process
 *     as two nodes of a deployment would be (`apps/server/src/main.ts` with DATABASE_URL; own port,
 *     pool of DB_POOL_MAX connections, queue workers and Socket.IO fanned out through PostgreSQL),
 *     sandbox carrier, LOG_LEVEL silent; plus, in this process, a plain Fastify app whose
 *     `POST /static` answers a fixed TwiML string (the baseline).
 *  2. Signs a company up through the API of node A, buys BENCH_NUMBERS numbers through it, and
 *     loads by SQL the outbound messages (state `sent`, one carrier SID each) that the status
 *     callbacks of the run will move to `delivered`.
 *  3. In a CHILD process (the load generator does not share the servers' event loop):
 *     - BENCH_SUBSCRIBERS Socket.IO clients signed in with the session, half on each node,
 *       subscribed to the company's inbox channel;
 *     - baseline: `POST /static` paced at BENCH_RATE for BENCH_BASELINE_S seconds;
 *     - the soak: BENCH_RATE requests per second for BENCH_WARMUP_S (warm-up: JIT, caches, pool
 *       connections; checked like the rest but left out of the latency figures), then BENCH_SECONDS
 *       measured, open loop (each request
 *       starts at its scheduled time whether or not earlier ones were answered; latency counts
 *       from that time), alternating nodes: 35 % signed inbound SMS (every 20th delivered twice at
 *       once, to both nodes, as a carrier retry), 20 % SMS status callbacks, 25 % voice webhooks
 *       (new calls), 20 % inbox reads (`GET /api/companies/{id}/conversations`).
 *  4. Prints errors (anything but 2xx, 503 included), p50/p99 per kind and overall with the ratio
 *     to the baseline's, messages stored vs sent (lost, doubled), status callbacks and calls
 *     stored, and live `conversation updated` events delivered to each subscriber, across nodes;
 *     the domain-event outbox's time from commit to each consumer's delivery (p50, p95, max), and its cost per
 *     webhook from the nodes' /metrics: the server's mean time per request, the outbox's write inside the change's
 *     transaction (the part on the answer's path; the time without the outbox is the difference) and the
 *     after-commit dispatch's time per request.
 *     Targets: no error, nothing lost or doubled, p99 < 100 ms. Nothing is asserted.
 *
 * Usage: `npm run bench:soak` (repository root). Knobs: BENCH_RATE (200 requests/s), BENCH_SECONDS
 * (60), BENCH_WARMUP_S (10), BENCH_BASELINE_S (10), BENCH_SUBSCRIBERS (20), BENCH_NUMBERS (5); DB_POOL_MAX (10, the
 * servers' own setting).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmt, sleep, startBenchDatabase, tempDir } from '../lib/bench-server.js';

const CHILD_ROLE = 'BENCH_SOAK_LOAD';
const AUTH_TOKEN = 'bench-auth-token';
/** A request unanswered after this long counts as an error (status `timeout`). */
const REQUEST_TIMEOUT_MS = 30_000;
const STATIC_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Thanks for calling.</Say></Response>';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

type Node = { name: 'A' | 'B'; url: string; publicUrl: string };
type LoadJob = {
  nodes: Node[];
  staticUrl: string;
  cookie: string;
  session: string;
  companyId: number;
  numbers: string[];
  statusSids: string[];
  rate: number;
  seconds: number;
  /** Seconds of the same mix before the measured soak: checked for errors, loss and doubles like the rest, left out of the latency figures. */
  warmupS: number;
  baselineS: number;
  subscribers: number;
};
type Kind = 'sms' | 'status' | 'voice' | 'inbox';
type KindResult = { sent: number; ok: number; errors: number; busy: number; byStatus: Record<string, number>; p50: number; p99: number; max: number };
type LoadResult = {
  baseline: { sent: number; errors: number; p50: number; p99: number; max: number };
  kinds: Record<Kind, KindResult>;
  all: { sent: number; errors: number; p50: number; p99: number; max: number };
  /** Inbound SMS answered 2xx, by node that answered the first delivery: MessageSid → node. */
  smsAnswered: Record<string, 'A' | 'B'>;
  smsDuplicated: number;
  callsAnswered: number;
  statusAnswered: number;
  /** Per subscriber: its node and the distinct inbound message SIDs it saw `conversation updated` for. */
  live: Array<{ node: 'A' | 'B'; seen: string[] }>;
  achievedRate: number;
  /** p50/p99 of every request by 10-s window of its scheduled time. */
  windows: Array<{ p50: number; p99: number; n: number }>;
};

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

// ───────────────────────────── load child ─────────────────────────────

async function runLoadChild(): Promise<void> {
  const job = await new Promise<LoadJob>((resolve) => process.once('message', (m) => resolve(m as LoadJob)));
  const { default: twilio } = await import('twilio');
  const { io } = await import('socket.io-client');

  // node:http with keep-alive rather than fetch: the generator shares the two cores with the
  // servers, and fetch's streams cost it about a sixth of its CPU. Bodies are drained, not decoded
  // (the servers still compress as for a browser: accept-encoding is sent).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const send = (url: string, method: string, headers: Record<string, string>, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(url, { method, agent, headers: { 'accept-encoding': 'gzip, deflate, br', ...headers } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(Object.assign(new Error('request timed out'), { name: 'TimeoutError' })));
      req.on('error', reject);
      req.end(body);
    });
  const post = async (node: Node, pathname: string, params: Record<string, string>) => {
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, node.publicUrl + pathname, params);
    const body = new URLSearchParams(params).toString();
    return send(
      node.url + pathname,
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature, 'content-length': String(Buffer.byteLength(body)) },
      body,
    );
  };

  // Live subscribers, half on each node.
  const live: Array<{ node: 'A' | 'B'; seen: Set<string> }> = [];
  const sockets = [];
  for (let i = 0; i < job.subscribers; i++) {
    const node = job.nodes[i % 2]!;
    const seen = new Set<string>();
    const socket = io(node.url, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: `switchboard_session=${job.session}` },
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const ack = await socket.timeout(5000).emitWithAck('subscribe', `conversations.${job.companyId}`);
    if (!ack?.ok) throw new Error(`subscribe refused: ${JSON.stringify(ack)}`);
    socket.on('conversation updated', (e: { item?: { details?: { content?: string } } }) => {
      const m = /^soak ([AB]) (\d+)$/.exec(e.item?.details?.content ?? '');
      if (m) seen.add(`${m[1]}${m[2]}`);
    });
    sockets.push(socket);
    live.push({ node: node.name, seen });
  }

  /** Fires `fire(i)` at `rate`/s for `seconds`, open loop; latency from each request's scheduled time. */
  async function paced(seconds: number, fire: (i: number) => Promise<void>): Promise<number> {
    const interval = 1000 / job.rate;
    const total = Math.floor(seconds * job.rate);
    const inFlight: Promise<void>[] = [];
    const t0 = performance.now();
    let next = 0;
    while (next < total) {
      const due = Math.min(total, Math.floor((performance.now() - t0) / interval) + 1);
      while (next < due) inFlight.push(fire(next++));
      await sleep(1);
    }
    const achieved = total / ((performance.now() - t0) / 1000);
    await Promise.all(inFlight);
    return achieved;
  }
  let pending = 0;
  let done = 0;
  const timed = async (scheduled: number, send: () => Promise<number>): Promise<{ status: number | string; ms: number }> => {
    pending++;
    let status: number | string = 0;
    try {
      status = await send();
    } catch (e) {
      status = (e as Error).name === 'TimeoutError' ? 'timeout' : 'network error';
    }
    pending--;
    done++;
    return { status, ms: performance.now() - scheduled, scheduled };
  };

  // Baseline: the same pacing against a static answer.
  const baseLat: number[] = [];
  let baseErrors = 0;
  const interval = 1000 / job.rate;
  let t0 = performance.now();
  await paced(job.baselineS, async (i) => {
    const r = await timed(t0 + i * interval, () =>
      post({ name: 'A', url: job.staticUrl, publicUrl: job.staticUrl }, '/static', { CallSid: `CAbase${i}`, From: '+13125550100', To: job.numbers[0]! }),
    );
    baseLat.push(r.ms);
    if (typeof r.status !== 'number' || r.status < 200 || r.status > 299) baseErrors++;
  });

  // The soak.
  const lat: Record<Kind, number[]> = { sms: [], status: [], voice: [], inbox: [] };
  const kinds = Object.fromEntries(
    (['sms', 'status', 'voice', 'inbox'] as Kind[]).map((k) => [k, { sent: 0, ok: 0, errors: 0, busy: 0, byStatus: {} as Record<string, number> }]),
  ) as Record<Kind, Omit<KindResult, 'p50' | 'p99' | 'max'>>;
  const smsAnswered: Record<string, 'A' | 'B'> = {};
  let smsDuplicated = 0;
  let statusNext = 0;
  /** Latencies by 10-s window of the scheduled time: shows warm-up and stalls apart from the steady state. */
  const byWindow: number[][] = [];
  const record = (kind: Kind, r: { status: number | string; ms: number; scheduled?: number }) => {
    const k = kinds[kind];
    k.sent++;
    const sinceStart = (r.scheduled ?? Infinity) - t0;
    (byWindow[Math.floor(sinceStart / 10_000)] ??= []).push(r.ms);
    if (sinceStart >= job.warmupS * 1000) lat[kind].push(r.ms);
    k.byStatus[r.status] = (k.byStatus[r.status] ?? 0) + 1;
    if (typeof r.status === 'number' && r.status >= 200 && r.status < 300) k.ok++;
    else {
      k.errors++;
      if (r.status === 503) k.busy++;
    }
  };
  t0 = performance.now();
  const progress = setInterval(() => console.log(`  … ${((performance.now() - t0) / 1000).toFixed(0)} s: ${done} answered, ${pending} waiting`), 10_000);
  const achievedRate = await paced(job.warmupS + job.seconds, async (i) => {
    const scheduled = t0 + i * interval;
    const node = job.nodes[i % 2]!;
    const other = job.nodes[(i + 1) % 2]!;
    const slot = (i * 37) % 20; // 7 sms, 4 status, 5 voice, 4 inbox out of 20
    const to = job.numbers[i % job.numbers.length]!;
    const from = `+1312${String(2000000 + ((i * 7919) % 7999999))}`;
    if (slot < 7) {
      const sid = `SMsoak${node.name}${String(i).padStart(26, '0')}`;
      const params = { MessageSid: sid, From: from, To: to, Body: `soak ${node.name} ${i}`, NumMedia: '0' };
      const deliveries = [timed(scheduled, () => post(node, '/webhooks/twilio/messaging', params))];
      if (i % 20 === 0) {
        smsDuplicated++;
        deliveries.push(timed(scheduled, () => post(other, '/webhooks/twilio/messaging', params)));
      }
      const rs = await Promise.all(deliveries);
      for (const r of rs) record('sms', r);
      if (rs.some((r) => typeof r.status === 'number' && r.status >= 200 && r.status < 300)) smsAnswered[sid] = node.name;
    } else if (slot < 11 && statusNext < job.statusSids.length) {
      const sid = job.statusSids[statusNext++]!;
      record('status', await timed(scheduled, () => post(node, '/webhooks/twilio/messaging/status', { MessageSid: sid, MessageStatus: 'delivered' })));
    } else if (slot < 16) {
      record(
        'voice',
        await timed(scheduled, () =>
          post(node, '/webhooks/twilio/voice', {
            CallSid: `CAsoak${String(i).padStart(28, '0')}`,
            From: from,
            To: to,
            CallStatus: 'ringing',
            Direction: 'inbound',
          }),
        ),
      );
    } else {
      record(
        'inbox',
        await timed(scheduled, async () => {
          return send(`${node.url}/api/companies/${job.companyId}/conversations`, 'GET', { accept: 'application/json', cookie: job.cookie });
        }),
      );
    }
  });
  clearInterval(progress);
  await sleep(3000); // live events still on their way
  for (const s of sockets) s.close();

  const summary = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: pct(s, 50), p99: pct(s, 99), max: s[s.length - 1] ?? 0 };
  };
  const allLat = Object.values(lat).flat();
  const out: LoadResult = {
    baseline: { sent: baseLat.length, errors: baseErrors, ...summary(baseLat) },
    kinds: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, { ...v, ...summary(lat[k as Kind]) }])) as Record<Kind, KindResult>,
    all: { sent: Object.values(kinds).reduce((n, k) => n + k.sent, 0), errors: Object.values(kinds).reduce((n, k) => n + k.errors, 0), ...summary(allLat) },
    smsAnswered,
    smsDuplicated,
    callsAnswered: kinds.voice.ok,
    statusAnswered: kinds.status.ok,
    live: live.map((l) => ({ node: l.node, seen: [...l.seen] })),
    achievedRate,
    windows: byWindow.map((w) => ({ n: w.length, ...summary(w) })),
  };
  process.send!(out);
}

// ───────────────────────────── parent ─────────────────────────────

function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)] : [];
    const child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, [CHILD_ROLE]: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [...process.execArgv, ...prof],
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

const started = Date.now();
const log = (msg: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}`);
const load1 = () => os.loadavg()[0]!.toFixed(2);

/** A tiny cookie-keeping client for the setup (sign-up, number purchase) through node A's API. */
function apiClient(base: string) {
  const cookies = new Map<string, string>();
  const request = async (method: string, url: string, body?: unknown) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = cookies.get('XSRF-TOKEN');
    if (xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return { request, cookies };
}

async function main(): Promise<void> {
  const rate = env('BENCH_RATE', 200);
  const seconds = env('BENCH_SECONDS', 60);
  const baselineS = env('BENCH_BASELINE_S', 10);
  const warmupS = env('BENCH_WARMUP_S', 10);
  const subscribers = env('BENCH_SUBSCRIBERS', 20);
  const numberCount = env('BENCH_NUMBERS', 5);
  const [{ freePort }, { default: Fastify }, { default: formbody }, { default: pg }] = await Promise.all([
    import('../../apps/server/src/platform/db/database.js'),
    import('fastify'),
    import('@fastify/formbody'),
    import('pg'),
  ]);

  const dir = tempDir('switchboard-soak-');
  const pgDir = tempDir('switchboard-soak-pg-');
  // BENCH_PROFILE=1: pg_stat_statements shows where PostgreSQL spends its time during the soak.
  const profile = process.env.BENCH_PROFILE === '1';
  const { embedded, dbUrl } = await startBenchDatabase(
    pgDir,
    profile ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all', '-c', 'pg_stat_statements.track_planning=on'] : [],
  );
  const poolMax = Number(process.env.DB_POOL_MAX ?? 10);
  /** One node: the server's own entry point in a process of its own, on the shared database. */
  const startNode = async (): Promise<{ url: string; ctx: { config: { publicUrl: string; dbPoolMax: number } }; close: () => Promise<void> }> => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // BENCH_CPU_PROF=<dir>: each node writes a V8 CPU profile there on exit (open in Chrome DevTools).
    const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)] : [];
    const child: ChildProcess = spawn(
      process.execPath,
      [...prof, '--import', 'tsx', path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/src/main.ts')],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          DATABASE_URL: dbUrl,
          DATA_DIR: path.join(dir, 'data'),
          LOG_LEVEL: 'silent',
          PORT: String(port),
          HOST: '127.0.0.1',
          CARRIER: 'sandbox',
          SMS_REGISTRATION_ENFORCED: '0',
          TWILIO_AUTH_TOKEN: AUTH_TOKEN,
          SMTP_URL: '',
          PUBLIC_URL: url,
          WORKERS: '1',
          SEED_DEMO: '0',
          LOG_FORMAT: 'json',
          DB_POOL_MAX: String(poolMax),
        },
      },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // The nodes never outlive the bench (an error in the report used to leave both running against a stopped database).
    process.once('exit', () => child.kill('SIGKILL'));
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`node on port ${port} exited with ${child.exitCode}`);
      if (
        await fetch(`${url}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 600) throw new Error(`node on port ${port} did not start`);
      await sleep(100);
    }
    return {
      url,
      ctx: { config: { publicUrl: url, dbPoolMax: poolMax } },
      close: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    };
  };
  const nodeA = await startNode();
  const nodeB = await startNode();
  const baseline = Fastify();
  await baseline.register(formbody);
  baseline.post('/static', async (_req, reply) => reply.type('text/xml').send(STATIC_TWIML));
  const staticUrl = await baseline.listen({ port: 0, host: '127.0.0.1' });
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  if (profile) await client.query('create extension if not exists pg_stat_statements');
  log(`two nodes up: A ${nodeA.url}, B ${nodeB.url}; pool ${nodeA.ctx.config.dbPoolMax} each`);

  // Setup through the API of node A.
  const api = apiClient(nodeA.url);
  await api.request('GET', '/api/csrf-cookie');
  const signup = await api.request('POST', '/api/client/signup/create', {
    first_name: 'Soak',
    last_name: 'Bench',
    email: 'soak@example.test',
    password: 'correct-horse-battery',
    company_name: 'Soak Co',
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const companyId: number = signup.body.company.id;
  const numbers: Array<{ id: number; number: string }> = [];
  const search = await api.request('GET', '/api/numbers/search?type=local&areaCode=212');
  for (const candidate of (search.body?.data ?? []).slice(0, numberCount)) {
    const bought = await api.request('POST', '/api/numbers', { company_id: companyId, provider_id: candidate.provider_id, number: candidate.number });
    if (bought.status !== 201) throw new Error(`number purchase failed: ${bought.status} ${JSON.stringify(bought.body)}`);
    numbers.push({ id: bought.body.id, number: bought.body.number });
  }
  // Outbound messages whose status callbacks the run sends (one per status slot, with a margin).
  const statusCount = Math.ceil(rate * (warmupS + seconds) * 0.25);
  const { rows: statusRows } = await client.query<{ carrier_sid: string }>(
    `
    with conv as (
      insert into conversations (company_id, number_id, recipient) values ($1, $2, '+13125559999') returning id
    )
    insert into conversation_items (company_id, conversation_id, type, is_inbound, is_read, body, media, delivery_state, carrier_sid)
    select $1, conv.id, 'message', false, true, 'outbound ' || g, '[]', 'sent', 'SMsoakout' || lpad(g::text, 23, '0')
    from conv, generate_series(1, $3) g
    returning carrier_sid`,
    [companyId, numbers[0]!.id, statusCount],
  );
  const session = api.cookies.get('switchboard_session') ?? '';
  const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  log(`setup: company ${companyId}, ${numbers.length} numbers, ${fmt(statusRows.length)} outbound messages awaiting status callbacks`);

  log(
    `load: baseline ${baselineS} s, then warm-up ${warmupS} s and soak ${seconds} s at ${rate} requests/s, ${subscribers} live subscribers (load avg ${load1()})`,
  );
  if (profile) await client.query('select pg_stat_statements_reset()');
  const r = await runLoad({
    nodes: [
      { name: 'A', url: nodeA.url, publicUrl: nodeA.ctx.config.publicUrl },
      { name: 'B', url: nodeB.url, publicUrl: nodeB.ctx.config.publicUrl },
    ],
    staticUrl,
    cookie,
    session,
    companyId,
    numbers: numbers.map((n) => n.number),
    statusSids: statusRows.map((x) => x.carrier_sid),
    rate,
    seconds,
    baselineS,
    warmupS,
    subscribers,
  });
  log(`load done (load avg ${load1()}); waiting for batched writes`);
  await sleep(2000);

  // What the database holds.
  const q = async <T>(text: string, values: unknown[] = []) => (await client.query(text, values)).rows as T[];
  const sms = await q<{ carrier_sid: string; n: number }>(
    `select carrier_sid, count(*)::int as n from conversation_items where carrier_sid like 'SMsoak%' and carrier_sid not like 'SMsoakout%' group by carrier_sid`,
  );
  const storedSids = new Set(sms.map((x) => x.carrier_sid));
  const answered = Object.keys(r.smsAnswered);
  const lost = answered.filter((sid) => !storedSids.has(sid)).length;
  const doubled = sms.filter((x) => x.n > 1).length;
  const [delivered] = await q<{ n: number }>(
    `select count(*)::int as n from conversation_items where carrier_sid like 'SMsoakout%' and delivery_state = 'delivered'`,
  );
  const calls = await q<{ carrier_sid: string; n: number }>(
    `select carrier_sid, count(*)::int as n from calls where carrier_sid like 'CAsoak%' group by carrier_sid`,
  );
  const stuck = await q<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity where state like 'idle in transaction%' and state_change < now() - interval '2 seconds'`,
  );

  const ms = (x: number) => x.toFixed(1);
  console.log(
    '\nbaseline POST /static (same pacing):',
    `${r.baseline.sent} requests, errors ${r.baseline.errors}, p50 ${ms(r.baseline.p50)} ms, p99 ${ms(r.baseline.p99)} ms`,
  );
  console.log(
    `soak: ${fmt(r.all.sent)} requests over ${warmupS} s of warm-up and ${seconds} s measured (${r.achievedRate.toFixed(0)} requests/s scheduled); every request counts for errors, loss and doubles, the measured ones for latency\n`,
  );
  console.log('| kind | requests | errors (503) | p50 ms | p99 ms | max ms | p99 ÷ baseline p99 |');
  console.log('| --- | --: | --: | --: | --: | --: | --: |');
  const row = (name: string, k: { sent: number; errors: number; busy?: number; p50: number; p99: number; max: number }) =>
    console.log(
      `| ${name} | ${fmt(k.sent)} | ${k.errors} (${k.busy ?? 0}) | ${ms(k.p50)} | ${ms(k.p99)} | ${ms(k.max)} | ${(k.p99 / Math.max(0.1, r.baseline.p99)).toFixed(1)} |`,
    );
  console.log(
    `by 10-s window from the warm-up's start (p50/p99 ms): ${r.windows.map((w, i) => `${i * 10}–${i * 10 + 10} s ${ms(w.p50)}/${ms(w.p99)}`).join(', ')}\n`,
  );
  row('inbound SMS', r.kinds.sms);
  row('SMS status callback', r.kinds.status);
  row('voice webhook', r.kinds.voice);
  row('inbox read', r.kinds.inbox);
  row('all', { ...r.all, busy: Object.values(r.kinds).reduce((n, k) => n + k.busy, 0) });
  for (const [k, v] of Object.entries(r.kinds)) if (v.errors) console.log(`  ${k} answers: ${JSON.stringify(v.byStatus)}`);

  console.log(
    `\nmessages: ${fmt(answered.length)} distinct inbound SMS answered (${r.smsDuplicated} of them delivered twice), ${fmt(storedSids.size)} stored, lost ${lost}, doubled ${doubled}`,
  );
  console.log(`status callbacks: ${fmt(r.statusAnswered)} answered, ${fmt(delivered!.n)} messages delivered`);
  console.log(`calls: ${fmt(r.callsAnswered)} answered, ${fmt(calls.length)} stored, doubled ${calls.filter((c) => c.n > 1).length}`);
  for (const name of ['A', 'B'] as const) {
    const subs = r.live.filter((l) => l.node === name);
    const otherNode = name === 'A' ? 'B' : 'A';
    const expectedAll = answered.length;
    const expectedCross = answered.filter((sid) => r.smsAnswered[sid] === otherNode).length;
    const gotAll = subs.reduce((n, l) => n + l.seen.length, 0);
    const gotCross = subs.reduce((n, l) => n + l.seen.filter((k) => k.startsWith(otherNode)).length, 0);
    console.log(
      `live, ${subs.length} subscribers on node ${name}: ${fmt(gotAll)} of ${fmt(expectedAll * subs.length)} events (${((100 * gotAll) / Math.max(1, expectedAll * subs.length)).toFixed(1)} %), from node ${otherNode}: ${fmt(gotCross)} of ${fmt(expectedCross * subs.length)}`,
    );
  }
  console.log(`sessions idle in a transaction for over 2 s after the run: ${stuck[0]!.n}`);
  // The outbox: time from an event's commit to each consumer's delivery done (docs/architecture.md "Domain events").
  const lagByConsumer = await client.query<{ consumer: string; n: number; p50: number; p95: number; max: number; open: number }>(
    `select d.consumer, count(*)::int as n,
       percentile_cont(0.5) within group (order by extract(epoch from d.done_at - e.created_at) * 1000)::float8 as p50,
       percentile_cont(0.95) within group (order by extract(epoch from d.done_at - e.created_at) * 1000)::float8 as p95,
       max(extract(epoch from d.done_at - e.created_at) * 1000)::float8 as max,
       (select count(*)::int from event_deliveries o where o.consumer = d.consumer and o.status <> 'done') as open
     from event_deliveries d join domain_events e on e.id = d.event_id
     where d.status = 'done' group by d.consumer order by d.consumer`,
  );
  console.log('\n| outbox consumer | deliveries | commit → done p50 ms | p95 ms | max ms | not done |');
  console.log('| --- | --: | --: | --: | --: | --: |');
  for (const c of lagByConsumer.rows) console.log(`| ${c.consumer} | ${fmt(c.n)} | ${ms(c.p50)} | ${ms(c.p95)} | ${ms(c.max)} | ${c.open} |`);
  // The same by event name, with how many deliveries ran more than once (a failure, a lease that ran out) and how many
  // took over a second (the tail: held behind an earlier event of their aggregate, or left to the outbox workers).
  const lagByEvent = await client.query<{ name: string; n: number; p50: number; p95: number; max: number; retried: number; slow: number }>(
    `select e.name, count(*)::int as n,
       percentile_cont(0.5) within group (order by extract(epoch from d.done_at - e.created_at) * 1000)::float8 as p50,
       percentile_cont(0.95) within group (order by extract(epoch from d.done_at - e.created_at) * 1000)::float8 as p95,
       max(extract(epoch from d.done_at - e.created_at) * 1000)::float8 as max,
       count(*) filter (where d.attempts > 1)::int as retried,
       count(*) filter (where d.done_at - e.created_at > interval '1 second')::int as slow
     from event_deliveries d join domain_events e on e.id = d.event_id
     where d.status = 'done' group by e.name order by e.name`,
  );
  console.log('\n| event | deliveries | commit → done p50 ms | p95 ms | max ms | ran more than once | over 1 s |');
  console.log('| --- | --: | --: | --: | --: | --: | --: |');
  for (const c of lagByEvent.rows) console.log(`| ${c.name} | ${fmt(c.n)} | ${ms(c.p50)} | ${ms(c.p95)} | ${ms(c.max)} | ${fmt(c.retried)} | ${fmt(c.slow)} |`);
  const worstP95 = Math.max(0, ...lagByConsumer.rows.map((c) => c.p95));
  console.log(`outbox: slowest consumer p95 ${ms(worstP95)} ms (target < 500 ms: ${worstP95 < 500 ? 'PASS' : 'MISS'})`);
  // The outbox's own cost per webhook, from both nodes' /metrics (loopback): the server's mean time per request and,
  // of it, the outbox's write inside the change's transaction (the only part on the answer's path); the after-commit
  // dispatch (off the answer's path, but CPU of the same process) beside it. "Without the outbox" = mean − emit.
  const scraped = await Promise.all([nodeA, nodeB].map((n) => fetch(`${n.url}/metrics`).then((res) => res.text())));
  const metric = (name: string, labels: Record<string, string>): number =>
    scraped.reduce((sum, text) => {
      for (const line of text.split('\n')) {
        if (!line.startsWith(`${name}{`)) continue;
        if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
      }
      return sum;
    }, 0);
  console.log('\n| webhook | requests (both nodes) | server mean ms | outbox emit in the transaction ms | share | without it ms | dispatch after commit ms |');
  console.log('| --- | --: | --: | --: | --: | --: | --: |');
  for (const [label, route, event] of [
    ['voice webhook', '/webhooks/twilio/voice', 'call.changed'],
    ['inbound SMS', '/webhooks/twilio/messaging', 'message.received'],
    ['SMS status callback', '/webhooks/twilio/messaging/status', 'message.status-changed'],
  ] as const) {
    const count = metric('http_request_duration_seconds_count', { route, method: 'POST' });
    const mean = (1000 * metric('http_request_duration_seconds_sum', { route, method: 'POST' })) / Math.max(1, count);
    const emit = (1000 * metric('outbox_cost_seconds_total', { step: 'emit', event })) / Math.max(1, count);
    const dispatch = (1000 * metric('outbox_cost_seconds_total', { step: 'dispatch', event })) / Math.max(1, count);
    console.log(
      `| ${label} | ${fmt(count)} | ${mean.toFixed(2)} | ${emit.toFixed(2)} | ${((100 * emit) / Math.max(0.001, mean)).toFixed(0)} % | ${(mean - emit).toFixed(2)} | ${dispatch.toFixed(2)} |`,
    );
  }
  if (profile) {
    const top = await client.query<{ calls: string; total: number; mean: number; query: string }>(
      `select calls::text, total_exec_time total, mean_exec_time mean, query from pg_stat_statements
       where query not ilike '%pg_stat_statements%' order by total_exec_time desc limit 25`,
    );
    const sum = await client.query<{ calls: string; exec: number; plan: number; plans: string }>(
      `select sum(calls)::text calls, sum(total_exec_time)::float8 exec, sum(total_plan_time)::float8 plan, sum(plans)::text plans from pg_stat_statements where query not ilike '%pg_stat_statements%'`,
    );
    const s0 = sum.rows[0];
    console.log(
      `\nPostgreSQL: ${s0.calls} statements (${(Number(s0.calls) / r.all.sent).toFixed(1)} per request), executing ${s0.exec.toFixed(0)} ms, planning ${s0.plan.toFixed(0)} ms in ${s0.plans} plans`,
    );
    const byCalls = await client.query<{ calls: string; total: number; plan: number; plans: string; query: string }>(
      `select calls::text, total_exec_time total, total_plan_time plan, plans::text, query from pg_stat_statements
       where query not ilike '%pg_stat_statements%' order by calls::bigint desc limit 30`,
    );
    console.log('by calls: calls, exec ms, plans, plan ms');
    for (const r of byCalls.rows)
      console.log(
        `${r.calls.padStart(7)} ${r.total.toFixed(0).padStart(7)} ${r.plans.padStart(7)} ${r.plan.toFixed(0).padStart(6)}  ${r.query.replace(/\s+/g, ' ').slice(0, 160)}`,
      );
    const byPlan = await client.query<{ calls: string; total: number; plan: number; plans: string; query: string }>(
      `select calls::text, total_exec_time total, total_plan_time plan, plans::text, query from pg_stat_statements
       where query not ilike '%pg_stat_statements%' order by total_plan_time desc limit 15`,
    );
    console.log('by planning time: calls, exec ms, plans, plan ms');
    for (const r of byPlan.rows)
      console.log(
        `${r.calls.padStart(7)} ${r.total.toFixed(0).padStart(7)} ${r.plans.padStart(7)} ${r.plan.toFixed(0).padStart(6)}  ${r.query.replace(/\s+/g, ' ').slice(0, 160)}`,
      );
    console.log('\nPostgreSQL statements by total time (ms):');
    for (const r of top.rows)
      console.log(`${r.total.toFixed(0).padStart(8)} ${r.calls.padStart(7)} × ${r.mean.toFixed(2).padStart(7)}  ${r.query.replace(/\s+/g, ' ').slice(0, 220)}`);
  }
  const pass = r.all.errors === 0 && lost === 0 && doubled === 0 && r.all.p99 < 100;
  console.log(
    `\ntargets: no error ${r.all.errors === 0 ? 'PASS' : 'MISS'}; nothing lost or doubled ${lost === 0 && doubled === 0 ? 'PASS' : 'MISS'}; p99 < 100 ms ${r.all.p99 < 100 ? 'PASS' : 'MISS'} (${ms(r.all.p99)} ms, ${(r.all.p99 / Math.max(0.1, r.baseline.p99)).toFixed(1)} × baseline) → ${pass ? 'PASS' : 'MISS'}; load avg ${load1()}`,
  );

  console.error = () => {}; // pg-boss reports the connections PostgreSQL closes while stopping
  await client.end().catch(() => {});
  await nodeB.close().catch(() => {});
  await nodeA.close().catch(() => {});
  await baseline.close();
  await embedded.stop().catch(() => {});
  const fs = await import('node:fs');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(pgDir, { recursive: true, force: true });
}

if (process.env[CHILD_ROLE]) await runLoadChild();
else
  await main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
