/**
 * The HTTP client's shared conventions (foundation §7) and error handling (foundation §8), against a
 * stubbed fetch. Runs in node: `document`/`window` are minimal stubs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./notify', () => ({ notify: { show: vi.fn(), danger: vi.fn(), success: vi.fn(), update: vi.fn(), hide: vi.fn(), clear: vi.fn() } }));
vi.mock('./realtime', () => ({ disconnectRealtime: vi.fn() }));

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
vi.stubGlobal('window', { location: { assign: vi.fn() } });

const { request, http, setAfterLogout, setOnAdminModeMismatch, HttpError } = await import('./http');
const { notify } = await import('./notify');
const { signIn, getSession, selectCompany } = await import('./session');
const { queryClient } = await import('./query-client');

type Call = { url: string; init: RequestInit };
let calls: Call[];
let answers: Array<(call: Call) => Response>;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

beforeEach(() => {
  calls = [];
  answers = [];
  cookies.clear();
  vi.mocked(notify.danger).mockClear();
  vi.mocked(notify.show).mockClear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, init };
      calls.push(call);
      const next = answers.shift();
      if (!next) throw new Error(`unexpected fetch ${url}`);
      return next(call);
    }),
  );
  signIn({
    id: 1,
    email: 'a@b.c',
    name: 'A',
    first_name: 'A',
    last_name: '',
    timezone: 'UTC',
    support_pins: null,
    read_whats_new_at: null,
    hasBusinessUnits: false,
    in_app_calling_status: 'active',
    companies: [{ id: 7, name: 'Demo', role: 'owner' }],
    isAdmin: false,
  });
  selectCompany(7);
});

afterEach(() => {
  vi.useRealTimers();
});

const header = (call: Call, name: string) => (call.init.headers as Record<string, string>)[name];

describe('shared conventions', () => {
  it('sends credentials and Accept JSON, replaces :companyId in path and query, brackets arrays, JSON-encodes objects', async () => {
    answers.push(() => json(200, { ok: true }));
    const result = await request<{ ok: boolean }>('/api/companies/:companyId/numbers', {
      params: { company: ':companyId', ids: [1, 2], filter: { calls: true }, empty: undefined },
    });
    expect(result).toEqual({ data: { ok: true }, status: 200 });
    const call = calls[0]!;
    expect(call.url).toBe(`/api/companies/7/numbers?company=7&ids[]=1&ids[]=2&filter=${encodeURIComponent('{"calls":true}')}`);
    expect(call.init.credentials).toBe('include');
    expect(header(call, 'Accept')).toBe('application/json');
  });

  it('fetches the XSRF cookie once before the first state-changing call and copies it into X-XSRF-TOKEN', async () => {
    answers.push(() => {
      cookies.set('XSRF-TOKEN', 'abc%3D');
      return new Response(null, { status: 204 });
    });
    answers.push(() => json(200, {}));
    answers.push(() => json(200, {}));
    await http.post('/api/a', { x: 1 });
    await http.put('/api/b', { x: 2 });
    expect(calls.map((c) => c.url)).toEqual(['/api/csrf-cookie', '/api/a', '/api/b']);
    expect(header(calls[1]!, 'X-XSRF-TOKEN')).toBe('abc=');
    expect(calls[1]!.init.body).toBe('{"x":1}');
    expect(header(calls[1]!, 'Content-Type')).toBe('application/json');
  });

  it('sends no XSRF header to absolute URLs and sends FormData as multipart', async () => {
    cookies.set('XSRF-TOKEN', 'tok');
    answers.push(() => json(200, {}));
    answers.push(() => json(201, {}));
    await http.get('https://elsewhere.example/x');
    const form = new FormData();
    form.append('content', 'hi');
    await http.post('/api/message', form);
    expect(header(calls[0]!, 'X-XSRF-TOKEN')).toBeUndefined();
    expect(calls[1]!.init.body).toBe(form);
    expect(header(calls[1]!, 'Content-Type')).toBeUndefined();
    expect(header(calls[1]!, 'X-XSRF-TOKEN')).toBe('tok');
  });
});

describe('admin mode (spec 000 §3 isAdmin, §7 admin header)', () => {
  it('sends X-Admin-Mode: 1 only while the session is an admin session, and never to other sites', async () => {
    answers.push(() => json(200, {}));
    await http.get('/api/a');
    expect(header(calls[0]!, 'x-admin-mode')).toBeUndefined();
    signIn({ ...getSession().user!, isAdmin: true });
    answers.push(() => json(200, {}));
    answers.push(() => json(200, {}));
    await http.get('/api/b');
    await http.get('https://elsewhere.example/x');
    expect(header(calls[1]!, 'x-admin-mode')).toBe('1');
    expect(header(calls[2]!, 'x-admin-mode')).toBeUndefined();
  });

  it('409 admin-mode mismatch: toasts and calls the mismatch handler (the app reloads)', async () => {
    const handler = vi.fn();
    setOnAdminModeMismatch(handler);
    cookies.set('XSRF-TOKEN', 'tok');
    answers.push(() => json(409, { message: 'Admin mode changed in another tab or window. Reload the page to continue.' }));
    await expect(http.post('/api/a', {})).rejects.toMatchObject({ status: 409 });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(notify.danger).toHaveBeenCalledTimes(1);
  });
});

describe('error handling', () => {
  it('422: rejects with status and errors and toasts the collected messages for 10 s', async () => {
    answers.push(() => json(422, { message: 'The given data was invalid.', errors: { email: ['Wrong email.'], password: ['Too short.'] } }));
    const error = await http.get('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as InstanceType<typeof HttpError>).status).toBe(422);
    expect((error as InstanceType<typeof HttpError>).errors).toEqual({ email: ['Wrong email.'], password: ['Too short.'] });
    expect(notify.danger).toHaveBeenCalledWith('Wrong email.\nToo short.', 10_000, undefined);
  });

  it('403 with title and detail toasts them', async () => {
    answers.push(() => json(403, { title: 'Forbidden', detail: 'Not your company' }));
    await http.get('/api/x').catch(() => undefined);
    expect(notify.danger).toHaveBeenCalledWith('Not your company', 10_000, 'Forbidden');
  });

  it('429: retries after Retry-After seconds, warns once, then succeeds', async () => {
    vi.useFakeTimers();
    answers.push(() => json(429, { message: 'slow down' }, { 'Retry-After': '2' }));
    answers.push(() => json(429, { message: 'slow down' }));
    answers.push(() => json(200, { done: true }));
    const pending = http.get('/api/x');
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toEqual({ done: true });
    expect(notify.show).toHaveBeenCalledTimes(1);
    expect(vi.mocked(notify.show).mock.calls[0]![0]).toMatchObject({ type: 'warn' });
  });

  it('429: gives up after 3 retries with the unknown-error toast', async () => {
    vi.useFakeTimers();
    for (let i = 0; i < 4; i++) answers.push(() => json(429, {}, { 'Retry-After': '0' }));
    const pending = http.get('/api/x').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    const error = await pending;
    expect(calls).toHaveLength(4);
    expect((error as InstanceType<typeof HttpError>).status).toBe(429);
    expect(notify.danger).toHaveBeenCalledWith(expect.stringContaining('An unknown error has occurred'), 10_000);
  });

  it('401: clears the session and cache, then signals after-logout 500 ms later', async () => {
    vi.useFakeTimers();
    const after = vi.fn();
    setAfterLogout(after);
    queryClient.setQueryData(['anything'], 1);
    answers.push(() => json(401, { message: 'Unauthenticated.' }));
    await http.get('/api/x').catch(() => undefined);
    expect(getSession().status).toBe('anonymous');
    expect(queryClient.getQueryData(['anything'])).toBeUndefined();
    await vi.advanceTimersByTimeAsync(499);
    expect(after).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('401 on a call that opts out leaves the session alone', async () => {
    answers.push(() => json(401, { message: 'Unauthenticated.' }));
    await http.get('/api/user', { skipAuthHandling: true }).catch(() => undefined);
    expect(getSession().status).toBe('authenticated');
    expect(notify.danger).not.toHaveBeenCalled();
  });

  it('500 "Unauthenticated" logs out; other 500s toast the unknown error', async () => {
    answers.push(() => json(500, { message: 'Server error' }));
    await http.get('/api/x').catch(() => undefined);
    expect(notify.danger).toHaveBeenCalledWith(
      'An unknown error has occurred, please try again or contact support by emailing us at support@switchboard.local',
      10_000,
    );
    expect(getSession().status).toBe('authenticated');
    answers.push(() => json(500, { message: 'Unauthenticated.' }));
    await http.get('/api/x').catch(() => undefined);
    expect(getSession().status).toBe('anonymous');
  });
});
