/**
 * The consumer area's client (api/client.ts) against a stubbed fetch, and the optimistic activation's prediction
 * (api/numbers.ts): the bearer token of the consumer session, the anti-forgery header on state-changing calls (a
 * business cookie may be beside it), a 401 that ends only the consumer session, field errors and waits, and the
 * activation rule of docs/consumer-area.md "Numbers". Runs in node: `document` and `localStorage` are minimal stubs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const cookies = new Map<string, string>();
vi.stubGlobal('document', {
  get cookie() {
    return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  },
  set cookie(value: string) {
    const [pair] = value.split(';');
    const [k, v] = pair!.split('=');
    if (value.includes('Max-Age=0')) cookies.delete(k!);
    else cookies.set(k!, v ?? '');
  },
});
const store = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
  removeItem: (k: string) => void store.delete(k),
});

const { caddy, caddyRequest, CaddyError, clearCaddySession, getCaddySession, setCaddySession, setCaddyUnauthorizedHandler, CADDY_SESSION_KEY } =
  await import('./client');
const { predictActivation } = await import('./numbers');

type Call = { url: string; init: RequestInit };
let calls: Call[];
let answers: Array<(call: Call) => Response>;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

const SESSION = {
  accountId: 7,
  token: 'consumer-token',
  iapId: '3f1c5a9e-6d8b-4b1e-9f0a-2c7d4e5f6a7b',
  plan: 'starter' as const,
  subscriptionStatus: 'not_subscribed' as const,
};

beforeEach(() => {
  calls = [];
  answers = [];
  cookies.clear();
  store.clear();
  clearCaddySession();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, init };
      calls.push(call);
      if (url === '/api/csrf-cookie') {
        cookies.set('XSRF-TOKEN', 'fresh%3Dtoken');
        return new Response(null, { status: 204 });
      }
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected call ${url}`);
      return answer(call);
    }),
  );
});
afterEach(() => setCaddyUnauthorizedHandler(() => {}));

const headers = (c: Call) => c.init.headers as Record<string, string>;

describe('consumer client', () => {
  it('sends the consumer bearer token, keeps the session in storage, and reads query parameters', async () => {
    setCaddySession(SESSION);
    expect(JSON.parse(store.get(CADDY_SESSION_KEY)!)).toEqual(SESSION);
    answers.push(() => json(200, { data: [] }));
    await caddy.get('/catalog', { areaCode: '212', limit: 10 });
    expect(calls[0]!.url).toBe('/api/caddy/catalog?areaCode=212&limit=10');
    expect(headers(calls[0]!).Authorization).toBe('Bearer consumer-token');
    expect(headers(calls[0]!)['X-XSRF-TOKEN']).toBeUndefined();
    expect(calls[0]!.init.method).toBe('GET');
  });

  it('fetches the anti-forgery cookie once and sends it on state-changing calls; a 419 retries with a fresh one', async () => {
    answers.push(() => json(202, { message: 'sent', codeSent: true, channel: 'email' }));
    const first = await caddyRequest('/auth/register', { method: 'POST', data: { provider: 'email', email: 'a@b.c', password: 'x'.repeat(8) } });
    expect(first.status).toBe(202);
    expect(calls.map((c) => c.url)).toEqual(['/api/csrf-cookie', '/api/caddy/auth/register']);
    expect(headers(calls[1]!)['X-XSRF-TOKEN']).toBe('fresh=token');
    expect(headers(calls[1]!).Authorization).toBeUndefined();

    calls = [];
    cookies.set('XSRF-TOKEN', 'stale');
    answers.push(() => json(419, { message: 'CSRF token mismatch.' }));
    answers.push(() => json(200, { message: 'ok' }));
    await caddy.post('/auth/password/reset/code', { email: 'a@b.c' });
    expect(calls.map((c) => c.url)).toEqual(['/api/caddy/auth/password/reset/code', '/api/csrf-cookie', '/api/caddy/auth/password/reset/code']);
    expect(headers(calls[0]!)['X-XSRF-TOKEN']).toBe('stale');
    expect(headers(calls[2]!)['X-XSRF-TOKEN']).toBe('fresh=token');
  });

  it('a 401 on a call with a consumer token ends the consumer session only and calls the shell', async () => {
    const handler = vi.fn();
    setCaddyUnauthorizedHandler(handler);
    setCaddySession(SESSION);
    answers.push(() => json(401, { message: 'Unauthenticated.' }));
    await expect(caddy.get('/numbers')).rejects.toMatchObject({ status: 401 });
    expect(getCaddySession()).toBeNull();
    expect(store.has(CADDY_SESSION_KEY)).toBe(false);
    expect(handler).toHaveBeenCalledOnce();

    // Signing in with a wrong password (no token yet) is the form's to show, not a sign-out.
    answers.push(() => json(401, { message: 'The e-mail or password is incorrect.' }));
    const error = await caddy.post('/auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaddyError);
    expect((error as Error).message).toBe('The e-mail or password is incorrect.');
    expect(handler).toHaveBeenCalledOnce();
  });

  it('answers field errors, waits and failures as CaddyErrors with readable messages', async () => {
    answers.push(() => json(422, { message: 'The given data was invalid.', errors: { areaCode: ['The area code must be 3 digits.'] } }));
    const invalid = (await caddy.get('/catalog', { areaCode: '1' }).catch((e: unknown) => e)) as InstanceType<typeof CaddyError>;
    expect(invalid.field('areaCode')).toBe('The area code must be 3 digits.');

    answers.push(() => json(429, { message: 'Too many codes.' }, { 'Retry-After': '30' }));
    const limited = (await caddy.post('/auth/login', {}).catch((e: unknown) => e)) as InstanceType<typeof CaddyError>;
    expect(limited.retryAfter).toBe(30);
    expect(limited.message).toBe('Too many codes. Try again in 30 s.');

    answers.push(() => json(500, { message: 'boom' }));
    await expect(caddy.get('/profile')).rejects.toThrow('Something went wrong on our side');

    answers.push(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(caddy.get('/profile')).rejects.toMatchObject({ status: 0 });
  });
});

describe('activation prediction (the optimistic update)', () => {
  const now = new Date('2026-11-29T10:00:00.000Z');
  const base = { nationalNumber: '', createdAt: now.toISOString() };
  const numbers = [
    { ...base, id: 1, number: '+13125550101', isActive: true, willBeRemovedAt: null },
    { ...base, id: 2, number: '+13125550102', isActive: false, willBeRemovedAt: '2026-12-10T10:00:00.000Z' },
    { ...base, id: 3, number: '+13125550103', isActive: true, willBeRemovedAt: null },
  ];

  it('the chosen become active without a date; the others inactive, 30 days ahead unless they already had a date', () => {
    const next = predictActivation(numbers, [2], now);
    expect(next.map((n) => [n.id, n.isActive, n.willBeRemovedAt])).toEqual([
      [1, false, '2026-12-29T10:00:00.000Z'],
      [2, true, null],
      [3, false, '2026-12-29T10:00:00.000Z'],
    ]);
    expect(predictActivation(numbers, [1, 3], now)[1]!.willBeRemovedAt).toBe('2026-12-10T10:00:00.000Z');
  });
});
