/**
 * Admin mode through the real HTTP API (spec 000 §3 `isAdmin`, §4 "Admin login", §7 `remoteLogin`;
 * docs/auth.md "Admin mode"): only operators, anti-forgery on the GET, 422/404 on bad accounts, the session acts
 * as the account's owner in that one company, is recorded in the audit log under the operator, ends after its hour,
 * and leaving signs the operator back in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, type TestServer, startTestServer } from '../../../test/harness.js';

let s: TestServer;
let operator: Account;
let target: Account;
let other: Account;

beforeAll(async () => {
  s = await startTestServer();
  operator = await createAccount(s, { firstName: 'Olga', lastName: 'Operator' });
  target = await createAccount(s, { firstName: 'Tina', lastName: 'Owner', companyName: 'Target Plumbing' });
  other = await createAccount(s, { companyName: 'Bystander Co' });
  await s.ctx.db.updateTable('users').set({ is_operator: true }).where('id', '=', operator.userId).execute();
});
afterAll(async () => {
  await s?.close();
});

/** A fresh signed-in client of `acc` (its own session). */
async function signIn(acc: Account): Promise<ApiClient> {
  const c = new ApiClient(s.url);
  await c.get('/api/csrf-cookie');
  const r = await c.post('/api/sanctum/login', { email: acc.email, password: acc.password });
  expect(r.status).toBe(200);
  return c;
}

describe('remote login', () => {
  it('refuses a person who is not an operator (403) and a signed-out caller (401)', async () => {
    const r = await target.client.get(`/api/sanctum/remoteLogin/${other.companyId}`);
    expect(r.status).toBe(403);
    const anon = new ApiClient(s.url);
    await anon.get('/api/csrf-cookie');
    expect((await anon.get(`/api/sanctum/remoteLogin/${other.companyId}`)).status).toBe(401);
  });

  it('needs the anti-forgery header (419), a numeric id (422) and an existing account (404)', async () => {
    const c = await signIn(operator);
    expect((await c.request('GET', `/api/sanctum/remoteLogin/${target.companyId}`, undefined, { 'x-xsrf-token': '' })).status).toBe(419);
    const bad = await c.get('/api/sanctum/remoteLogin/abc');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.x).toBeTruthy();
    expect((await c.get('/api/sanctum/remoteLogin/987654321')).status).toBe(404);
    // Still the operator's own session after the refusals.
    expect((await c.get('/api/user')).body.id).toBe(operator.userId);
  });

  it('opens the account as its owner, isAdmin, limited to that company, audited under the operator; leave restores', async () => {
    const c = await signIn(operator);
    expect((await c.get('/api/sanctum/admin-session')).body).toMatchObject({ isAdmin: false, can_open_accounts: true });
    const before = Date.now();
    const r = await c.get(`/api/sanctum/remoteLogin/${target.companyId}`);
    expect(r.status).toBe(200);
    expect(r.body.user.id).toBe(target.userId);
    expect(r.body.admin).toMatchObject({
      isAdmin: true,
      operator: { id: operator.userId, name: 'Olga Operator', email: operator.email },
      company: { id: target.companyId, name: 'Target Plumbing' },
    });
    const ends = Date.parse(r.body.admin.expires_at);
    expect(ends - before).toBeGreaterThan(59 * 60_000);
    expect(ends - before).toBeLessThanOrEqual(60 * 60_000 + 5_000);

    expect((await c.get('/api/user')).body.id).toBe(target.userId);
    expect((await c.get('/api/sanctum/admin-session')).body.isAdmin).toBe(true);
    // An ordinary session is not in admin mode.
    expect((await target.client.get('/api/sanctum/admin-session')).body).toEqual({
      isAdmin: false,
      operator: null,
      company: null,
      started_at: null,
      expires_at: null,
      can_open_accounts: false,
    });

    // An action in the account is recorded under the operator.
    const block = await c.post('/api/blocks', { company_id: target.companyId, target: '+13125550188', global: true });
    expect(block.status).toBe(201);
    let entry: { actor_kind: string; operator_user_id: number; actor_user_id: number; actor_name: string } | undefined;
    for (let i = 0; i < 50 && !entry; i++) {
      const log = await target.client.get(`/api/audit-log?company_id=${target.companyId}&actor_kind=operator`);
      expect(log.status).toBe(200);
      entry = log.body.data.find((e: { path: string }) => e.path === '/api/blocks');
      if (!entry) await new Promise((res) => setTimeout(res, 100));
    }
    expect(entry).toMatchObject({ actor_kind: 'operator', operator_user_id: operator.userId, actor_user_id: target.userId, actor_name: 'Olga Operator' });

    // Leaving signs the operator back in as themselves.
    const left = await c.post('/api/sanctum/admin-session/leave');
    expect(left.status).toBe(200);
    expect(left.body.user.id).toBe(operator.userId);
    expect((await c.get('/api/sanctum/admin-session')).body.isAdmin).toBe(false);
    expect((await c.post('/api/sanctum/admin-session/leave')).status).toBe(409);
  });

  it('an admin session reaches no other company of the person it acts as', async () => {
    // The target's owner also owns a second company (signup as the same person is not possible; add membership).
    await s.ctx.db.insertInto('company_users').values({ company_id: other.companyId, user_id: target.userId, role: 'owner' }).execute();
    const c = await signIn(operator);
    expect((await c.get(`/api/sanctum/remoteLogin/${target.companyId}`)).status).toBe(200);
    const blocked = await c.post('/api/blocks', { company_id: other.companyId, target: '+13125550189', global: true });
    expect(blocked.status).toBe(403);
    const own = await target.client.post('/api/blocks', { company_id: other.companyId, target: '+13125550190', global: true });
    expect(own.status).toBe(201);
  });

  it('ends when its hour is over (401 afterwards)', async () => {
    const c = await signIn(operator);
    expect((await c.get(`/api/sanctum/remoteLogin/${target.companyId}`)).status).toBe(200);
    expect((await c.get('/api/user')).status).toBe(200);
    // Move the session's end into the past, as an hour passing would.
    const past = new Date(Date.now() - 1000);
    await s.ctx.db.updateTable('admin_sessions').set({ expires_at: past }).where('operator_user_id', '=', operator.userId).execute();
    const ids = (await s.ctx.db.selectFrom('admin_sessions').select('session_id').where('operator_user_id', '=', operator.userId).execute()).map(
      (r) => r.session_id,
    );
    await s.ctx.db.updateTable('sessions').set({ expires_at: past }).where('id', 'in', ids).execute();
    expect((await c.get('/api/user')).status).toBe(401);
  });
});
