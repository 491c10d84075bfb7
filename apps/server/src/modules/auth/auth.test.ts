/**
 * Sign-in and accounts through the real HTTP API (foundation §7 "Session and account calls"; docs/auth.md):
 * CSRF, login/throttle, deactivated accounts, TOTP enrolment and the two-step sign-in,
 * logout, password reset via the development outbox, signup, bearer tokens, tenant checks.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, uniqueEmail } from '../../../test/fixtures.js';
import { ApiClient, IpClient, type TestServer, startTestServer } from '../../../test/harness.js';

let s: TestServer;

/** The development outbox as `reader` (signed in) sees it, narrowed to mail addressed to `email`. */
async function outboxFor(reader: ApiClient, email: string): Promise<{ text: string; subject: string }[]> {
  const r = await reader.get('/api/dev/outbox');
  expect(r.status).toBe(200);
  return r.body.data.filter((m: { to: string }) => m.to === email);
}

/** The TOTP code of `secret` `steps` 30-second steps from now (each code is accepted once). */
function codeAt(secret: string, steps: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

function resetLinkParams(text: string): { token: string; email: string } {
  const m = /(http\S+\/reset-password\?\S+)/.exec(text);
  expect(m).not.toBeNull();
  const u = new URL(m![1]!);
  return { token: u.searchParams.get('token')!, email: u.searchParams.get('email')! };
}

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('CSRF', () => {
  it('sign-in without the XSRF header answers 419; with a mismatched header 419', async () => {
    const c = new IpClient(s.url);
    const bare = await c.request('POST', '/api/sanctum/login', { email: 'a@b.test', password: 'x' });
    expect(bare.status).toBe(419);
    const got = await c.get('/api/csrf-cookie');
    expect(got.status).toBe(204);
    expect(c.cookie('XSRF-TOKEN')).toBeTruthy();
    const mismatch = await c.request('POST', '/api/sanctum/login', { email: 'a@b.test', password: 'x' }, { 'x-xsrf-token': 'wrong' });
    expect(mismatch.status).toBe(419);
  });

  it('a signed-in cookie request without the header answers 419; a bearer-only request is exempt', async () => {
    const acc = await createAccount(s);
    const noHeader = await acc.client.request('POST', '/api/user/whats_new_read', {}, { 'x-xsrf-token': '' });
    expect(noHeader.status).toBe(419);
    const mobile = new IpClient(s.url);
    const t = await mobile.post('/api/sanctum/createTokenSession', { email: acc.email, password: acc.password, device_name: 'phone' });
    expect(t.status).toBe(200);
    mobile.bearer = t.body.access_token;
    const r = await mobile.post('/api/user/whats_new_read');
    expect(r.status).toBe(200);
    expect(r.body.read_whats_new_at).toBeTruthy();
  });
});

describe('login', () => {
  it('signs in with the right password and answers the current user', async () => {
    const acc = await createAccount(s, { firstName: 'Ada' });
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    const r = await c.post('/api/sanctum/login', { email: acc.email.toUpperCase(), password: acc.password });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({
      id: acc.userId,
      email: acc.email,
      first_name: 'Ada',
      timezone: 'America/New_York',
      hasBusinessUnits: false,
      in_app_calling_status: 'away',
    });
    expect(r.body.user.companies).toEqual([{ id: acc.companyId, name: expect.any(String), role: 'owner' }]);
    expect(r.body.user).not.toHaveProperty('sip_address');
    expect(r.headers.getSetCookie().some((h) => /^switchboard_session=.*HttpOnly/i.test(h) && /SameSite=Lax/i.test(h))).toBe(true);
    expect((await c.get('/api/user')).body.id).toBe(acc.userId);
  });

  it('wrong password answers 422 with the field error', async () => {
    const acc = await createAccount(s);
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    const r = await c.post('/api/sanctum/login', { email: acc.email, password: 'not-the-password' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ email: ['These credentials do not match our records.'] });
    expect((await c.get('/api/user')).status).toBe(401);
  });

  it('locks an account after 5 failures (429 with numeric Retry-After), even from another address', async () => {
    const acc = await createAccount(s);
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    for (let i = 0; i < 5; i++) expect((await c.post('/api/sanctum/login', { email: acc.email, password: 'bad' })).status).toBe(422);
    const locked = await c.post('/api/sanctum/login', { email: acc.email, password: acc.password });
    expect(locked.status).toBe(429);
    const retry = Number(locked.headers.get('retry-after'));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThan(800);
    expect(retry).toBeLessThanOrEqual(900);
    const other = new IpClient(s.url);
    await other.get('/api/csrf-cookie');
    expect((await other.post('/api/sanctum/login', { email: acc.email, password: acc.password })).status).toBe(429);
  });

  it('a success clears the account counter', async () => {
    const acc = await createAccount(s);
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    for (let i = 0; i < 4; i++) await c.post('/api/sanctum/login', { email: acc.email, password: 'bad' });
    expect((await c.post('/api/sanctum/login', { email: acc.email, password: acc.password })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await c.post('/api/sanctum/login', { email: acc.email, password: 'bad' })).status).toBe(422);
    expect((await c.post('/api/sanctum/login', { email: acc.email, password: acc.password })).status).toBe(200);
  });

  it('locks an address after 20 failures across accounts', async () => {
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    for (let i = 0; i < 20; i++) expect((await c.post('/api/sanctum/login', { email: uniqueEmail('nobody'), password: 'bad' })).status).toBe(422);
    const acc = await createAccount(s);
    const r = await c.post('/api/sanctum/login', { email: acc.email, password: acc.password });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000); // 20 password hashes in a row: slow on a shared machine

  it('a user whose every membership is deactivated cannot sign in', async () => {
    const acc = await createAccount(s);
    await s.ctx.db.updateTable('company_users').set({ role: 'deactivated' }).where('user_id', '=', acc.userId).execute();
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    const r = await c.post('/api/sanctum/login', { email: acc.email, password: acc.password });
    expect(r.status).toBe(422);
    expect(r.body.errors.email).toEqual(['This account has been deactivated.']);
    expect((await c.get('/api/user')).status).toBe(401);
    const t = await new IpClient(s.url).post('/api/sanctum/createTokenSession', { email: acc.email, password: acc.password });
    expect(t.status).toBe(422);
  });
});

describe('MFA', () => {
  it('enrols with a real TOTP code, then signs in in two steps', async () => {
    const acc = await createAccount(s);
    const c = acc.client;
    expect((await c.get('/api/user/mfa')).body).toEqual({ enabled: false });
    const qr = await c.get('/api/user/mfa/qr');
    expect(qr.status).toBe(200);
    expect(qr.body.qr).toMatch(/^data:image\/png;base64,/);
    expect(qr.body.otpauth_url).toContain(`secret=${qr.body.secret}`);
    const secret: string = qr.body.secret;
    expect((await c.post('/api/user/mfa/verify', { code: '000000' === (await generate({ secret })) ? '111111' : '000000' })).status).toBe(422);
    // Each code is accepted once, so the steps below use the previous, the current and the next 30-s code in turn.
    const ok = await c.post('/api/user/mfa/verify', { code: await codeAt(secret, -1) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ enabled: true });
    expect((await c.get('/api/user/mfa/qr')).status).toBe(409);

    const b = new IpClient(s.url);
    await b.get('/api/csrf-cookie');
    const step1 = await b.post('/api/sanctum/login', { email: acc.email, password: acc.password });
    expect(step1.status).toBe(200);
    expect(step1.body).toEqual({ mfa_required: true });
    expect((await b.get('/api/user')).status).toBe(401);
    const wrong = await b.post('/api/sanctum/mfa', { code: (await generate({ secret })) === '123456' ? '654321' : '123456' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code).toBeDefined();
    const step2 = await b.post('/api/sanctum/mfa', { code: await codeAt(secret, 0) });
    expect(step2.status).toBe(200);
    expect(step2.body.user.id).toBe(acc.userId);
    expect((await b.get('/api/user')).status).toBe(200);

    // Mobile: password step gives an mfa_token, the code step gives the bearer token.
    const m = new IpClient(s.url);
    const t1 = await m.post('/api/sanctum/createTokenSession', { email: acc.email, password: acc.password });
    expect(t1.body.mfa_required).toBe(true);
    const t2 = await m.post('/api/sanctum/mfaToken', { mfa_token: t1.body.mfa_token, code: await codeAt(secret, 1) });
    expect(t2.status).toBe(200);
    expect(t2.body.token_type).toBe('Bearer');
    const tampered = await m.post('/api/sanctum/mfaToken', { mfa_token: `${t1.body.mfa_token}x`, code: await generate({ secret }) });
    expect(tampered.status).toBe(422);

    // Disable with the password.
    const badDisable = await c.request('DELETE', '/api/user/mfa', { password: 'nope' });
    expect(badDisable.status).toBe(422);
    const disable = await c.request('DELETE', '/api/user/mfa', { password: acc.password });
    expect(disable.status).toBe(200);
    expect(disable.body).toEqual({ enabled: false });
    const again = new IpClient(s.url);
    await again.get('/api/csrf-cookie');
    expect((await again.post('/api/sanctum/login', { email: acc.email, password: acc.password })).body.user.id).toBe(acc.userId);
  });
});

describe('logout', () => {
  it('ends the session and clears the cookie; works signed out', async () => {
    const acc = await createAccount(s);
    expect((await acc.client.get('/api/user')).status).toBe(200);
    const sessionCookie = acc.client.cookie('switchboard_session')!;
    const r = await acc.client.post('/api/sanctum/logout');
    expect(r.status).toBe(204);
    expect(acc.client.cookie('switchboard_session')).toBeUndefined();
    expect((await acc.client.get('/api/user')).status).toBe(401);
    // The old cookie value no longer works either (the session row is gone).
    const replay = await new ApiClient(s.url).request('GET', '/api/user', undefined, { cookie: `switchboard_session=${sessionCookie}` });
    expect(replay.status).toBe(401);
    expect((await new ApiClient(s.url).post('/api/sanctum/logout')).status).toBe(204);
  });

  it('is a POST: GET answers 405 and leaves the session; a cross-site POST without the XSRF header answers 419', async () => {
    const acc = await createAccount(s);
    const get = await acc.client.get('/api/sanctum/logout');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await acc.client.get('/api/user')).status).toBe(200);
    const forged = await acc.client.request('POST', '/api/sanctum/logout', {}, { 'x-xsrf-token': '' });
    expect(forged.status).toBe(419);
    expect((await acc.client.get('/api/user')).status).toBe(200);
  });
});

describe('password reset', () => {
  it('forgot → outbox link → reset works once; second use and expired links answer 422', async () => {
    const acc = await createAccount(s);
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    const unknown = await c.post('/api/password/forgot', { email: uniqueEmail('ghost') });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ message: 'We have e-mailed your password reset link.' });
    const f = await c.post('/api/password/forgot', { email: acc.email });
    expect(f.body).toEqual(unknown.body);
    const mails = await outboxFor(acc.client, acc.email);
    expect(mails).toHaveLength(1);
    const { token, email } = resetLinkParams(mails[0]!.text);
    expect(email).toBe(acc.email);
    expect(mails[0]!.text).toContain(`${s.ctx.config.publicUrl}/reset-password?token=`);

    const short = await c.post('/api/password/reset', { token, email, password: 'short', password_confirmation: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors.password).toBeDefined();
    const mismatch = await c.post('/api/password/reset', { token, email, password: 'new-password-1', password_confirmation: 'other-password' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.password).toEqual(['The password confirmation does not match.']);

    const ok = await c.post('/api/password/reset', { token, email, password: 'new-password-1', password_confirmation: 'new-password-1' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Password changed successfully. You can now login with new password.' });
    // The old session of the account ended.
    expect((await acc.client.get('/api/user')).status).toBe(401);

    const second = await c.post('/api/password/reset', { token, email, password: 'new-password-2', password_confirmation: 'new-password-2' });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({
      message: 'Your reset link has expired. Please try to resend it again.',
      errors: { token: ['Your reset link has expired. Please try to resend it again.'] },
    });

    const login = new IpClient(s.url);
    await login.get('/api/csrf-cookie');
    expect((await login.post('/api/sanctum/login', { email: acc.email, password: acc.password })).status).toBe(422);
    expect((await login.post('/api/sanctum/login', { email: acc.email, password: 'new-password-1' })).status).toBe(200);

    // Expired link.
    await c.post('/api/password/forgot', { email: acc.email });
    const latest = (await outboxFor(login, acc.email))[0]!;
    const p = resetLinkParams(latest.text);
    await s.ctx.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', acc.userId)
      .where('used_at', 'is', null)
      .execute();
    const expired = await c.post('/api/password/reset', { ...p, password: 'new-password-3', password_confirmation: 'new-password-3' });
    expect(expired.status).toBe(422);
    expect(expired.body.errors.token).toEqual(['Your reset link has expired. Please try to resend it again.']);
  });

  it('throttles reset e-mails per address (4th within 15 minutes → 429)', async () => {
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    const email = uniqueEmail('flood');
    for (let i = 0; i < 3; i++) expect((await c.post('/api/password/forgot', { email })).status).toBe(200);
    const r = await c.post('/api/password/forgot', { email });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('signup', () => {
  it('check validates fields; create makes the user the owner of a new company and signs in', async () => {
    const c = new IpClient(s.url);
    await c.get('/api/csrf-cookie');
    const bad = await c.post('/api/client/signup/check', {
      first_name: '',
      last_name: 'X',
      email: 'nope',
      password: 'short',
      company_name: '',
      timezone: 'Mars/Base',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['company_name', 'email', 'first_name', 'password', 'timezone']);
    const email = uniqueEmail('owner');
    const body = { first_name: 'Olga', last_name: 'Owner', email, password: 'long-enough-1', company_name: 'Olga Plumbing', timezone: 'America/Chicago' };
    expect((await c.post('/api/client/signup/check', body)).body).toEqual({ ok: true });
    const created = await c.post('/api/client/signup/create', body);
    expect(created.status).toBe(201);
    expect(created.body.company).toEqual({ id: expect.any(Number), name: 'Olga Plumbing' });
    expect(created.body.user).toMatchObject({
      email,
      name: 'Olga Owner',
      timezone: 'America/Chicago',
      companies: [{ id: created.body.company.id, name: 'Olga Plumbing', role: 'owner' }],
    });
    expect((await c.get('/api/user')).body.id).toBe(created.body.user.id);
    const companies = await c.get('/api/companies');
    expect(companies.body).toEqual({
      data: [{ id: created.body.company.id, name: 'Olga Plumbing', role: 'owner', timezone: 'America/Chicago', organization_id: null }],
    });

    const taken = await new IpClient(s.url).request('POST', '/api/client/signup/check', { ...body, email: email.toUpperCase() }, {});
    expect(taken.status).toBe(419); // no XSRF cookie yet
    const d = new IpClient(s.url);
    await d.get('/api/csrf-cookie');
    const dup = await d.post('/api/client/signup/create', { ...body, email: email.toUpperCase() });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.email).toEqual(['The email has already been taken.']);
  });
});

describe('current user', () => {
  it('SIP fields only when set; unknown stored zone answers America/New_York; whats_new_read stamps now', async () => {
    const acc = await createAccount(s);
    await s.ctx.db
      .updateTable('users')
      .set({ timezone: 'Nowhere/Land', sip_address: 'sip:1@x', sip_user: 'u1', sip_password: 'p1' })
      .where('id', '=', acc.userId)
      .execute();
    const u = await acc.client.get('/api/user');
    expect(u.body.timezone).toBe('America/New_York');
    expect(u.body).toMatchObject({ sip_address: 'sip:1@x', sip_user: 'u1', sip_password: 'p1', read_whats_new_at: null });
    const before = Date.now();
    const r = await acc.client.post('/api/user/whats_new_read');
    expect(r.status).toBe(200);
    expect(new Date(r.body.read_whats_new_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe('bearer tokens', () => {
  it('createTokenSession answers a bearer token usable on /api/user; clearTokenSessions revokes it', async () => {
    const acc = await createAccount(s);
    const m = new IpClient(s.url);
    const r = await m.post('/api/sanctum/createTokenSession', { email: acc.email, password: acc.password, device_name: 'iPhone' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 30 * 24 * 3600, refresh_token: null });
    const stored = await s.ctx.db.selectFrom('api_tokens').select(['token_hash', 'name']).where('user_id', '=', acc.userId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toBe(r.body.access_token);
    expect(m.cookie('switchboard_session')).toBeUndefined();
    m.bearer = r.body.access_token;
    expect((await m.get('/api/user')).body.id).toBe(acc.userId);
    expect((await m.post('/api/sanctum/clearTokenSessions')).status).toBe(204);
    expect((await m.get('/api/user')).status).toBe(401);
    const wrong = await new IpClient(s.url).post('/api/sanctum/createTokenSession', { email: acc.email, password: 'bad' });
    expect(wrong.status).toBe(422);
  });
});

describe('tenant isolation', () => {
  it('a user sees only own companies and gets 403 on another company', async () => {
    const a = await createAccount(s, { companyName: 'Alpha' });
    const b = await createAccount(s, { companyName: 'Beta' });
    const list = await a.client.get('/api/companies');
    expect(list.body.data.map((c: { id: number }) => c.id)).toEqual([a.companyId]);
    expect((await a.client.get(`/api/companies/${a.companyId}`)).body).toMatchObject({ id: a.companyId, name: 'Alpha', role: 'owner' });
    const other = await a.client.get(`/api/companies/${b.companyId}`);
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.body)).not.toContain('Beta');
  });

  it('the OpenAPI document describes the auth routes', async () => {
    const { client } = await createAccount(s); // /api/docs sits behind the sign-in check (platform)
    const r = await client.get('/api/docs/json');
    expect(r.status).toBe(200);
    for (const p of ['/api/sanctum/login', '/api/user', '/api/user/mfa/qr', '/api/password/reset', '/api/client/signup/create', '/api/companies'])
      expect(r.body.paths).toHaveProperty([p]);
  });

  it('dev outbox answers 404 when SMTP is configured', async () => {
    const acc = await createAccount(s);
    const saved = s.ctx.config.smtpUrl;
    s.ctx.config.smtpUrl = 'smtp://localhost:2525';
    try {
      expect((await acc.client.get('/api/dev/outbox')).status).toBe(404);
    } finally {
      s.ctx.config.smtpUrl = saved;
    }
  });
});
