/**
 * Safe defaults of sign-in and the platform around it, through the real HTTP API and Socket.IO
 * (docs/auth.md): the development outbox is per recipient; the login throttle counts before the
 * password is checked (parallel bursts); TRUST_PROXY off ignores X-Forwarded-For; a TOTP code is
 * accepted once; `remember` decides the cookie; logout is a POST; `/metrics` needs a token or a
 * loopback peer; the security headers on API answers and on the SPA; the live connection accepts
 * only the app's origin and ends when its session or token is revoked (also across nodes).
 */
import fs from 'node:fs';
import { generate } from 'otplib';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount, uniqueEmail, type Account } from '../../../test/fixtures.js';
import { ApiClient, eventually, IpClient, startSecondNode, startTestServer, type TestServer } from '../../../test/harness.js';
import { hashToken } from '../../platform/auth/tokens.js';

// A built SPA in a folder of its own (read by app.ts when it loads) so its answers can be checked.
await vi.hoisted(async () => {
  const fsh = await import('node:fs');
  const osh = await import('node:os');
  const ph = await import('node:path');
  const dir = fsh.mkdtempSync(ph.join(osh.tmpdir(), 'switchboard-spa-'));
  fsh.mkdirSync(ph.join(dir, 'assets'));
  fsh.writeFileSync(
    ph.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  fsh.writeFileSync(ph.join(dir, 'assets', 'app-abc123.js'), 'console.log("app");');
  process.env.WEB_DIST = dir;
});

let s: TestServer;

/** The instant (s) codes are counted from; `atStepStart` pins it so one test's codes share a step. */
let baseEpoch: number | undefined;
/** The TOTP code of `secret` `steps` 30-second steps from now (or from the pinned step). */
function codeAt(secret: string, steps: number): Promise<string> {
  return generate({ secret, epoch: (baseEpoch ?? Math.floor(Date.now() / 1000)) + steps * 30 });
}
/**
 * Waits for the start of a 30-second TOTP step and pins codes to it, so a test whose codes must be
 * "previous", "current" and "next" relative to one another does not straddle a step boundary (the
 * server accepts a step either side, so the codes stay valid for 30 s after this resolves).
 */
async function atStepStart(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 1_000) await new Promise((r) => setTimeout(r, 30_000 - intoStep + 100));
  baseEpoch = Math.floor(Date.now() / 1000);
}

/** Enables TOTP for the account with the code of `step` (0 = now, -1 = the previous step); returns the secret. */
async function enrolTotp(acc: Account, step = 0): Promise<string> {
  const qr = await acc.client.get('/api/user/mfa/qr');
  const secret: string = qr.body.secret;
  expect((await acc.client.post('/api/user/mfa/verify', { code: await codeAt(secret, step) })).status).toBe(200);
  return secret;
}

/** A fresh client past the password step of an MFA account (session pending its code). */
async function pendingMfa(acc: Account, body: Record<string, unknown> = {}): Promise<IpClient> {
  const c = new IpClient(s.url);
  await c.get('/api/csrf-cookie');
  const r = await c.post('/api/sanctum/login', { email: acc.email, password: acc.password, ...body });
  expect(r.body).toEqual({ mfa_required: true });
  return c;
}

/** Opens a Socket.IO connection to `server` with `options` (cookie header, bearer, origin). */
function connect(server: TestServer, options: { cookie?: string; token?: string; origin?: string }): Promise<Socket> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = `switchboard_session=${options.cookie}`;
  if (options.origin) headers.origin = options.origin;
  const socket = io(server.url, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: headers,
    auth: options.token ? { token: options.token } : {},
    reconnection: false,
    forceNew: true,
  });
  return new Promise<Socket>((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (e) => {
      socket.close();
      reject(e);
    });
  });
}

/**
 * Watches `socket` for a disconnect from now on; `within(ms)` (called once the revoking request
 * has answered) resolves with the reason if the disconnect came or comes within `ms`, else rejects.
 */
function watchDisconnect(socket: Socket): { within: (ms: number) => Promise<string> } {
  let reason: string | null = null;
  const waiters: ((r: string) => void)[] = [];
  socket.once('disconnect', (r) => {
    reason = r;
    for (const w of waiters) w(r);
  });
  return {
    within: (ms) =>
      reason !== null
        ? Promise.resolve(reason)
        : new Promise<string>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`socket still connected ${ms} ms after the revocation`)), ms);
            waiters.push((r) => {
              clearTimeout(timer);
              resolve(r);
            });
          }),
  };
}

/** Turns off `server`'s periodic re-validation (the backstop) for `fn`, so only the revocation broadcast can disconnect. */
async function withoutBackstop<T>(server: TestServer, fn: () => Promise<T>): Promise<T> {
  const spy = vi.spyOn(server.ctx.realtime, 'revalidate').mockResolvedValue();
  try {
    return await fn();
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
  if (process.env.WEB_DIST?.includes('switchboard-spa-')) fs.rmSync(process.env.WEB_DIST, { recursive: true, force: true });
});

describe('development outbox', () => {
  it('answers 401 to a stranger, only their own mail to a signed-in person, and every mail to an operator', async () => {
    const alice = await createAccount(s);
    const bob = await createAccount(s);
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    for (const email of [alice.email, bob.email]) expect((await c.post('/api/password/forgot', { email })).status).toBe(200);

    const stranger = await new ApiClient(s.url).get('/api/dev/outbox');
    expect(stranger.status).toBe(401);
    expect(JSON.stringify(stranger.body)).not.toContain('reset-password');

    const mine = await alice.client.get('/api/dev/outbox');
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((m: { to: string }) => m.to === alice.email)).toBe(true);
    expect(mine.body.data[0].text).toContain('/reset-password?token=');
    // Bob's reset mail (the link that would own his account) never reaches Alice.
    expect(JSON.stringify(mine.body)).not.toContain(encodeURIComponent(bob.email));
    const bobs = await bob.client.get('/api/dev/outbox');
    expect(bobs.body.data.map((m: { to: string }) => m.to)).toEqual([bob.email]);

    const operator = await createAccount(s);
    await s.ctx.db.updateTable('users').set({ is_operator: true }).where('id', '=', operator.userId).execute();
    const all = await operator.client.get('/api/dev/outbox');
    const recipients = new Set(all.body.data.map((m: { to: string }) => m.to));
    expect(recipients.has(alice.email) && recipients.has(bob.email)).toBe(true);
  });
});

describe('login throttle under concurrency', () => {
  /** One sign-in attempt from its own client (and address), so only the per-account counter limits it. */
  async function attempt(email: string, password: string): Promise<number> {
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    return (await c.post('/api/sanctum/login', { email, password })).status;
  }

  it('20 parallel wrong passwords: 5 are evaluated, 15 answer 429', async () => {
    const acc = await createAccount(s);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => attempt(acc.email, 'wrong-password')));
    expect(statuses.filter((x) => x === 422)).toHaveLength(5);
    expect(statuses.filter((x) => x === 429)).toHaveLength(15);
  });

  it('a burst of 100 with the right password inside evaluates at most 5; once the limit is hit the right password is refused', async () => {
    const acc = await createAccount(s);
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => attempt(acc.email, i === 60 ? acc.password : 'wrong-password')));
    expect(statuses.filter((x) => x === 422 || x === 200).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(95);

    // The right password sent while a burst of wrong ones is still in flight, after the first 429.
    const other = await createAccount(s);
    let refusedOnce!: () => void;
    const firstRefused = new Promise<void>((resolve) => {
      refusedOnce = resolve;
    });
    const burst = Promise.all(
      Array.from({ length: 60 }, async () => {
        const status = await attempt(other.email, 'wrong-password');
        if (status === 429) refusedOnce();
        return status;
      }),
    );
    await firstRefused;
    expect(await attempt(other.email, other.password)).toBe(429);
    expect((await burst).filter((x) => x === 422)).toHaveLength(5);
  }, 120_000);

  it('parallel wrong MFA codes: 5 are evaluated', async () => {
    const acc = await createAccount(s);
    const secret = await enrolTotp(acc);
    const c = await pendingMfa(acc);
    const valid = new Set(await Promise.all([-1, 0, 1].map((k) => codeAt(secret, k))));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !valid.has(code))!;
    const statuses = await Promise.all(Array.from({ length: 20 }, () => c.post('/api/sanctum/mfa', { code: wrong }).then((r) => r.status)));
    expect(statuses.filter((x) => x === 422)).toHaveLength(5);
    expect(statuses.filter((x) => x === 429)).toHaveLength(15);
  });
});

describe('TRUST_PROXY unset (the default)', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer({ trustProxy: '' });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('a spoofed X-Forwarded-For does not change the throttled address', async () => {
    const acc = await createAccount(plain);
    const c = new ApiClient(plain.url);
    await c.get('/api/csrf-cookie');
    const ok = await c.request('POST', '/api/sanctum/login', { email: acc.email, password: acc.password }, { 'x-forwarded-for': '198.51.100.1' });
    expect(ok.status).toBe(200);
    const session = await plain.ctx.db
      .selectFrom('sessions')
      .select('ip')
      .where('user_id', '=', acc.userId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(session.ip).toBe('127.0.0.1');

    // 20 failures, each "from" another forged address and for another account: all count against the real peer.
    for (let i = 0; i < 20; i++) {
      const r = await c.request('POST', '/api/sanctum/login', { email: uniqueEmail('ghost'), password: 'bad' }, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      expect(r.status).toBe(422);
    }
    const locked = await c.request('POST', '/api/sanctum/login', { email: acc.email, password: acc.password }, { 'x-forwarded-for': '192.0.2.55' });
    expect(locked.status).toBe(429);
    const keys = await plain.ctx.db.selectFrom('auth_throttle').select(['key', 'failures']).where('key', 'like', 'login:ip:%').execute();
    expect(keys.map((k) => k.key)).toEqual(['login:ip:127.0.0.1']);
    expect(keys[0]!.failures).toBeGreaterThanOrEqual(20);
  }, 120_000); // 21 password hashes in a row: slow on a shared machine
});

describe('TOTP codes are accepted once', () => {
  it('the enrolment code, a used sign-in code and the same code sent twice at once are refused', async () => {
    const acc = await createAccount(s);
    await atStepStart();
    const secret = await enrolTotp(acc, -1); // used the previous step's code
    const replayEnrol = await (await pendingMfa(acc)).post('/api/sanctum/mfa', { code: await codeAt(secret, -1) });
    expect(replayEnrol.status).toBe(422);
    expect(replayEnrol.body.errors.code).toEqual(['The provided two factor authentication code was invalid.']);

    // Two pending sign-ins send the same current code at the same moment: exactly one gets in.
    const [a, b] = await Promise.all([pendingMfa(acc, { remember: true }), pendingMfa(acc, { remember: true })]);
    const code = await codeAt(secret, 0);
    const both = await Promise.all([a.post('/api/sanctum/mfa', { code }), b.post('/api/sanctum/mfa', { code })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    const winner = both[0]!.status === 200 ? both[0]! : both[1]!;
    // `remember` chosen at the password step carries over the code step.
    expect(winner.headers.getSetCookie().some((h) => /^switchboard_session=/.test(h) && /Max-Age=1209600/i.test(h))).toBe(true);

    // The mobile path shares the rule: the next step's code works once.
    const m = new IpClient(s.url);
    const t1 = await m.post('/api/sanctum/createTokenSession', { email: acc.email, password: acc.password });
    const next = await codeAt(secret, 1);
    expect((await m.post('/api/sanctum/mfaToken', { mfa_token: t1.body.mfa_token, code: next })).status).toBe(200);
    expect((await m.post('/api/sanctum/mfaToken', { mfa_token: t1.body.mfa_token, code: next })).status).toBe(422);
    // And disabling with a used code is refused.
    expect((await acc.client.request('DELETE', '/api/user/mfa', { code: next })).status).toBe(422);
    baseEpoch = undefined;
  }, 120_000); // may wait up to 30 s for a step to start
});

describe('remember', () => {
  it('true: a 14-day persistent cookie; false or absent: a browser-session cookie and a 12-hour session', async () => {
    const acc = await createAccount(s);
    const cookieOf = (headers: Headers) => headers.getSetCookie().find((h) => h.startsWith('switchboard_session='))!;
    const expiresOf = async () =>
      await s.ctx.db
        .selectFrom('sessions')
        .select(['expires_at', 'remember'])
        .where('user_id', '=', acc.userId)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();

    const long = new IpClient(s.url);
    await long.get('/api/csrf-cookie');
    const r1 = await long.post('/api/sanctum/login', { email: acc.email, password: acc.password, remember: true });
    expect(r1.status).toBe(200);
    expect(cookieOf(r1.headers)).toMatch(/Max-Age=1209600/i);
    const row1 = await expiresOf();
    expect(row1.remember).toBe(true);
    expect(row1.expires_at.getTime() - Date.now()).toBeGreaterThan(13 * 24 * 3600 * 1000);

    for (const body of [{ remember: false }, {}]) {
      const short = new IpClient(s.url);
      await short.get('/api/csrf-cookie');
      const r = await short.post('/api/sanctum/login', { email: acc.email, password: acc.password, ...body });
      expect(r.status).toBe(200);
      expect(cookieOf(r.headers)).not.toMatch(/Max-Age|Expires/i);
      const row = await expiresOf();
      expect(row.remember).toBe(false);
      const left = row.expires_at.getTime() - Date.now();
      expect(left).toBeGreaterThan(11 * 3600 * 1000);
      expect(left).toBeLessThanOrEqual(12 * 3600 * 1000);
      expect((await short.get('/api/user')).status).toBe(200);
    }
  });
});

describe('/metrics', () => {
  it('without METRICS_TOKEN: loopback peers only, and never through a proxy', async () => {
    expect((await new ApiClient(s.url).get('/metrics')).status).toBe(200);
    const proxied = await new ApiClient(s.url).request('GET', '/metrics', undefined, { 'x-forwarded-for': '203.0.113.9' });
    expect(proxied.status).toBe(403);
    const remote = await s.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.10' });
    expect(remote.statusCode).toBe(403);
    expect(remote.body).not.toContain('http_request_duration_seconds');
  });

  it('with METRICS_TOKEN: the bearer token is required, from anywhere', async () => {
    const saved = s.ctx.config.metricsToken;
    s.ctx.config.metricsToken = 'metrics-secret-1';
    try {
      const none = await new ApiClient(s.url).get('/metrics');
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const wrong = await new ApiClient(s.url).request('GET', '/metrics', undefined, { authorization: 'Bearer nope' });
      expect(wrong.status).toBe(401);
      const remote = await s.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '203.0.113.11',
        headers: { authorization: 'Bearer metrics-secret-1' },
      });
      expect(remote.statusCode).toBe(200);
      expect(remote.body).toContain('http_request_duration_seconds');
    } finally {
      s.ctx.config.metricsToken = saved;
    }
  });
});

describe('security headers', () => {
  function expectSecurityHeaders(h: Headers): void {
    expect(h.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(h.get('content-security-policy')).toContain("default-src 'self'");
    expect(h.get('x-frame-options')).toBe('DENY');
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  }

  it('on an API answer, an error answer and the SPA (page and asset); HSTS only over TLS', async () => {
    const c = new ApiClient(s.url);
    const health = await c.get('/api/health');
    expect(health.status).toBe(200);
    expectSecurityHeaders(health.headers);
    expect(health.headers.get('strict-transport-security')).toBeNull();
    const denied = await c.get('/api/user');
    expect(denied.status).toBe(401);
    expectSecurityHeaders(denied.headers);

    const page = await fetch(`${s.url}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expectSecurityHeaders(page.headers);
    const asset = await fetch(`${s.url}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expectSecurityHeaders(asset.headers);

    // Through a trusted TLS-terminating proxy (the harness trusts loopback): HSTS.
    const tls = await c.request('GET', '/api/health', undefined, { 'x-forwarded-proto': 'https' });
    expect(tls.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});

describe('live connection', () => {
  it("accepts only the app's own origin (or the request's host), and clients without an Origin", async () => {
    const acc = await createAccount(s);
    const cookie = acc.client.cookie('switchboard_session')!;
    await expect(connect(s, { cookie, origin: 'https://evil.example' })).rejects.toThrow();
    await expect(connect(s, { cookie, origin: 'null' })).rejects.toThrow();
    const own = await connect(s, { cookie, origin: s.ctx.config.publicUrl });
    const sameHost = await connect(s, { cookie, origin: `http://${new URL(s.url).host}` });
    const native = await connect(s, { cookie });
    for (const socket of [own, sameHost, native]) {
      expect(socket.connected).toBe(true);
      socket.close();
    }
  });

  it('logout disconnects the sockets of that session at once (a client cannot leave the revocation room); other sessions stay', async () => {
    const acc = await createAccount(s);
    const cookie = acc.client.cookie('switchboard_session')!;
    const socket = await connect(s, { cookie });
    const other = new IpClient(s.url);
    await other.signIn(acc.email, acc.password);
    const otherSocket = await connect(s, { cookie: other.cookie('switchboard_session') });
    for (const room of [`#session:${hashToken(cookie)}`, `#user:${acc.userId}`]) socket.emit('unsubscribe', room);
    await new Promise((r) => setTimeout(r, 100));

    await withoutBackstop(s, async () => {
      const gone = watchDisconnect(socket);
      expect((await acc.client.post('/api/sanctum/logout')).status).toBe(204);
      expect(await gone.within(2000)).toBe('io server disconnect');
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(otherSocket.connected).toBe(true);
    otherSocket.close();
  });

  it('a password reset disconnects every socket of the user; revoking bearer tokens disconnects the token sockets', async () => {
    const acc = await createAccount(s);
    const mobile = new IpClient(s.url);
    const t = await mobile.post('/api/sanctum/createTokenSession', { email: acc.email, password: acc.password, device_name: 'phone' });
    const tokenSocket = await connect(s, { token: t.body.access_token });
    const browserSocket = await connect(s, { cookie: acc.client.cookie('switchboard_session') });

    mobile.bearer = t.body.access_token;
    const tokenGone = watchDisconnect(tokenSocket);
    const browserGone = watchDisconnect(browserSocket);
    await withoutBackstop(s, async () => {
      expect((await mobile.post('/api/sanctum/clearTokenSessions')).status).toBe(204);
      await tokenGone.within(2000);
    });
    expect(browserSocket.connected).toBe(true);

    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    await c.post('/api/password/forgot', { email: acc.email });
    const mail = (await acc.client.get('/api/dev/outbox')).body.data[0];
    const link = new URL(/(http\S+\/reset-password\?\S+)/.exec(mail.text)![1]!);
    await withoutBackstop(s, async () => {
      const reset = await c.post('/api/password/reset', {
        token: link.searchParams.get('token'),
        email: acc.email,
        password: 'a-new-password-1',
        password_confirmation: 'a-new-password-1',
      });
      expect(reset.status).toBe(200);
      await browserGone.within(2000);
    });
  });

  it('re-validation disconnects a socket whose session ended by any other path (expiry)', async () => {
    const acc = await createAccount(s);
    const cookie = acc.client.cookie('switchboard_session')!;
    const socket = await connect(s, { cookie });
    await s.ctx.realtime.revalidate();
    expect(socket.connected).toBe(true);
    await s.ctx.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', hashToken(cookie))
      .execute();
    const gone = watchDisconnect(socket);
    await s.ctx.realtime.revalidate();
    await gone.within(2000);
  });

  it('a logout on one node disconnects the socket held by another node', async () => {
    const nodeB = await startSecondNode(s);
    try {
      const acc = await createAccount(s);
      // Node A must have seen node B's heartbeat to broadcast rather than act alone.
      const socket = await connect(nodeB, { cookie: acc.client.cookie('switchboard_session') });
      await eventually(async () => s.ctx.realtime.mayHaveSubscribers('#nobody'), 10_000);
      // Node B's backstop is off: only the broadcast from node A can end it.
      await withoutBackstop(nodeB, async () => {
        const gone = watchDisconnect(socket);
        expect((await acc.client.post('/api/sanctum/logout')).status).toBe(204);
        await gone.within(3000);
      });
    } finally {
      await nodeB.close();
    }
  });
});
