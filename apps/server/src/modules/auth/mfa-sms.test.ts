/**
 * MFA by SMS through the real HTTP API (spec 000 §7 MFA `sendCode`, `reactivate`; docs/auth.md "MFA by SMS"):
 * enrolment texts a code through the sandbox carrier, sign-in asks for the second step, `sendCode` texts a code
 * that signs in once, spacing (429), wrong codes (422), reactivate after disabling, bad input (422).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/fixtures.js';
import { ApiClient, type TestServer, startTestServer } from '../../../test/harness.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** The newest code texted to `phone` by the sandbox carrier (its simulated handset). */
async function lastCodeTo(phone: string): Promise<string> {
  const row = await s.ctx.db
    .selectFrom('sandbox_messages')
    .select(['body', 'from_number'])
    .where('to_number', '=', phone)
    .where('direction', '=', 'outbound')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const m = /code is (\d{6})\./.exec(row.body);
  expect(m).not.toBeNull();
  return m![1]!;
}

/** Lets the 30-second spacing pass for `userId` (as time passing would). */
async function allowNextText(userId: number): Promise<void> {
  await s.ctx.db
    .updateTable('mfa_sms')
    .set({ last_sent_at: new Date(Date.now() - 60_000) })
    .where('user_id', '=', userId)
    .execute();
}

describe('MFA by SMS', () => {
  it('refuses a phone that does not parse (422) and a missing one (422)', async () => {
    const acc = await createAccount(s);
    const bad = await acc.client.post('/api/user/mfa/sms', { phone: 'not a phone' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.phone).toEqual(['The phone must be a valid phone number.']);
    const missing = await acc.client.post('/api/user/mfa/sms', {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.phone).toBeTruthy();
  });

  it('enrols a phone, then signs in with a texted code (once), spaced 30 s apart', async () => {
    const acc = await createAccount(s);
    const phone = '+13125550123';
    const enrol = await acc.client.post('/api/user/mfa/sms', { phone: '(312) 555-0123' });
    expect(enrol.status).toBe(200);
    expect(enrol.body).toEqual({ enabled: false, phone_last4: '0123' });
    const wrong = await acc.client.post('/api/user/mfa/sms/verify', { code: '000000' === (await lastCodeTo(phone)) ? '111111' : '000000' });
    expect(wrong.status).toBe(422);
    const ok = await acc.client.post('/api/user/mfa/sms/verify', { code: await lastCodeTo(phone) });
    expect(ok.status).toBe(200);
    expect(ok.body.enabled).toBe(true);

    // Sign-in now needs the second step.
    const c = new ApiClient(s.url);
    await c.get('/api/csrf-cookie');
    const first = await c.post('/api/sanctum/login', { email: acc.email, password: acc.password });
    expect(first.body).toEqual({ mfa_required: true });
    expect((await c.get('/api/user')).status).toBe(401);
    await allowNextText(acc.userId);
    const sent = await c.post('/api/sanctum/mfa/sendCode');
    expect(sent.status).toBe(204);
    // A second text within 30 s is refused with Retry-After.
    const again = await c.post('/api/sanctum/mfa/sendCode');
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const code = await lastCodeTo(phone);
    const done = await c.post('/api/sanctum/mfa', { code });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(acc.userId);

    // The code was used: another sign-in cannot reuse it.
    const d = new ApiClient(s.url);
    await d.get('/api/csrf-cookie');
    await d.post('/api/sanctum/login', { email: acc.email, password: acc.password });
    const reuse = await d.post('/api/sanctum/mfa', { code });
    expect(reuse.status).toBe(422);
  });

  it('sendCode for a user without SMS codes answers 409; reactivate turns a disabled factor back on', async () => {
    const acc = await createAccount(s);
    const none = await acc.client.post('/api/sanctum/mfa/sendCode');
    expect(none.status).toBe(409);
    expect((await acc.client.post('/api/user/mfa/reactivate')).status).toBe(409);

    const phone = '+13125550124';
    await acc.client.post('/api/user/mfa/sms', { phone });
    expect((await acc.client.post('/api/user/mfa/sms/verify', { code: await lastCodeTo(phone) })).body.enabled).toBe(true);
    const wrongPassword = await acc.client.request('DELETE', '/api/user/mfa/sms', { password: 'nope-nope' });
    expect(wrongPassword.status).toBe(422);
    const off = await acc.client.request('DELETE', '/api/user/mfa/sms', { password: acc.password });
    expect(off.body).toEqual({ enabled: false, phone_last4: '0124' });
    await allowNextText(acc.userId);
    const re = await acc.client.post('/api/user/mfa/reactivate');
    expect(re.status).toBe(200);
    expect(re.body.enabled).toBe(false);
    const on = await acc.client.post('/api/user/mfa/sms/verify', { code: await lastCodeTo(phone) });
    expect(on.body).toEqual({ enabled: true, phone_last4: '0124' });
  });
});
