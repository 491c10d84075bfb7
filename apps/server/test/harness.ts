/**
 * Integration-test harness: a throwaway database per test file, the real server listening on a
 * free port (HTTP, realtime, workers), and an HTTP client that behaves like the web app
 * (cookie jar, XSRF header). Also signs Twilio-dialect webhooks with the `twilio` package.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import twilio from 'twilio';
import { inject } from 'vitest';
import { startServer, type Running } from '../src/bootstrap.js';
import { loadConfig, type Config } from '../src/platform/config.js';
import { withDatabase } from '../src/platform/db/database.js';

export type TestServer = Running & { dbUrl: string };

/** Creates a fresh database (or takes `options.databaseUrl`, a database of the test's own) and starts the server on it. Call `close()` in afterAll. */
// Tests act as if a proxy on loopback sat in front (TRUST_PROXY=127.0.0.1) so X-Forwarded-For gives
// each simulated client its own address; the default (no proxy trusted) is tested in auth.test.ts.
export async function startTestServer(overrides: Partial<Config> = {}, options: { databaseUrl?: string } = {}): Promise<TestServer> {
  let dbUrl = options.databaseUrl;
  if (!dbUrl) {
    const admin = inject('pgAdminUrl');
    const name = `test_${crypto.randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    // A copy of the run's migrated template (test/global-setup.ts); the server's migrate() then finds nothing to do.
    await client.query(`create database ${name} template ${inject('pgTemplate')}`);
    await client.end();
    dbUrl = withDatabase(admin, name);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-data-'));
  const config = loadConfig(
    {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      CARRIER: 'sandbox',
      TWILIO_AUTH_TOKEN: 'test-auth-token',
      SMTP_URL: '',
      PUBLIC_URL: '',
      TRUST_PROXY: '127.0.0.1',
      // Campaign tests are about dispatch; 10DLC enforcement is tested where it is switched on (sms-verification tests).
      SMS_REGISTRATION_ENFORCED: process.env.SMS_REGISTRATION_ENFORCED ?? '0',
    },
    { ...overrides },
  );
  const running = await startServer(config, dbUrl, { publicUrlFromPort: true });
  return {
    ...running,
    dbUrl,
    close: async () => {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts another node of the same deployment: a second server on the SAME database (and data
 * directory) as `server`, with its own port, workers and Socket.IO (fanned out through the
 * PostgreSQL adapter). Close it before `server`.
 */
export async function startSecondNode(server: TestServer, overrides: Partial<Config> = {}): Promise<TestServer> {
  const config = loadConfig(
    {
      ...process.env,
      DATA_DIR: server.ctx.config.dataDir,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      CARRIER: 'sandbox',
      TWILIO_AUTH_TOKEN: 'test-auth-token',
      SMTP_URL: '',
      PUBLIC_URL: '',
      TRUST_PROXY: '127.0.0.1',
      // Campaign tests are about dispatch; 10DLC enforcement is tested where it is switched on (sms-verification tests).
      SMS_REGISTRATION_ENFORCED: process.env.SMS_REGISTRATION_ENFORCED ?? '0',
    },
    { ...overrides },
  );
  const running = await startServer(config, server.dbUrl, { publicUrlFromPort: true });
  return { ...running, dbUrl: server.dbUrl };
}

export type HttpResult<T = any> = { status: number; body: T; headers: Headers };

/** A browser-like API client: keeps cookies, copies XSRF-TOKEN into X-XSRF-TOKEN. */
export class ApiClient {
  private cookies = new Map<string, string>();
  bearer: string | undefined;

  constructor(readonly baseUrl: string) {}

  private store(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
  clearCookies(): void {
    this.cookies.clear();
  }

  /** Sends a request; JSON bodies by default, `FormData`/`URLSearchParams` as given. */
  async request<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const h: Record<string, string> = { accept: 'application/json', ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf && !('x-xsrf-token' in h)) h['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (this.bearer) h.authorization = `Bearer ${this.bearer}`;
    let payload: RequestInit['body'];
    if (body instanceof FormData || body instanceof URLSearchParams) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      h['content-type'] = 'application/json';
    }
    const res = await fetch(this.baseUrl + url, { method, headers: h, body: payload, redirect: 'manual' });
    this.store(res);
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }
  get<T = any>(url: string) {
    return this.request<T>('GET', url);
  }
  post<T = any>(url: string, body?: unknown) {
    return this.request<T>('POST', url, body ?? {});
  }
  put<T = any>(url: string, body?: unknown) {
    return this.request<T>('PUT', url, body ?? {});
  }
  patch<T = any>(url: string, body?: unknown) {
    return this.request<T>('PATCH', url, body ?? {});
  }
  delete<T = any>(url: string) {
    return this.request<T>('DELETE', url);
  }

  /** GET /api/csrf-cookie then POST /api/sanctum/login. Throws unless 200. */
  async signIn(email: string, password: string): Promise<any> {
    await this.get('/api/csrf-cookie');
    const r = await this.post('/api/sanctum/login', { email, password });
    if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
}

let ipSeq = 0;
/** A distinct client address for this test file (10.77.x.y); servers started here trust X-Forwarded-For from loopback. */
export function freshIp(): string {
  ipSeq += 1;
  return `10.77.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
}

/** A browser-like client whose requests all come from one simulated address (throttles count per address). */
export class IpClient extends ApiClient {
  constructor(
    baseUrl: string,
    readonly ip = freshIp(),
  ) {
    super(baseUrl);
  }
  override request<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    return super.request<T>(method, url, body, { 'x-forwarded-for': this.ip, ...headers });
  }
}

/**
 * Posts a Twilio-signed form webhook to `path` (signature over PUBLIC_URL + path with the
 * `twilio` package's own algorithm), as the carrier would.
 */
export async function postWebhook(
  server: TestServer,
  pathname: string,
  params: Record<string, string>,
  options: { signature?: string; token?: string } = {},
): Promise<HttpResult<string>> {
  const url = server.ctx.config.publicUrl + pathname;
  const signature = options.signature ?? twilio.getExpectedTwilioSignature(options.token ?? server.ctx.config.twilioAuthToken, url, params);
  const res = await fetch(server.url + pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** The `X-Twilio-Signature` of a form post of `params` to `url` signed with `token` (tests of server processes). */
export function twilioSignature(token: string, url: string, params: Record<string, string>): string {
  return twilio.getExpectedTwilioSignature(token, url, params);
}

/** Polls `fn` until it returns a truthy value (default 10 s). */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, stepMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met in ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}

/** One request a {@link startReceiver} receiver got. */
export type ReceivedRequest = { path: string; headers: http.IncomingHttpHeaders; body: string };

/**
 * A loopback HTTP receiver for outgoing webhooks: records every request in `received` (in arrival order) and answers
 * `status(path)` (default 200). Close it in afterAll.
 */
export async function startReceiver(status: (path: string) => number = () => 200): Promise<{ base: string; received: ReceivedRequest[]; close: () => void }> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = status(req.url ?? '');
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => server.close() };
}

/** The payload of a received Standard Webhooks request verified with `secret` (throws when the signature does not verify). */
export function verifyWebhook(secret: string, r: ReceivedRequest): { type: string; data: Record<string, any> } {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; data: Record<string, any> };
}
