/**
 * Admin mode through the real HTTP API (spec 000 §3 `isAdmin`, §4 "Admin login", §7 `remoteLogin`;
 * docs/auth.md "Admin mode"): only operators, anti-forgery on the GET, 422/404 on bad accounts, the session acts
 * as the account's owner in that one company, is recorded in the audit log under the operator, ends after its hour,
 * and leaving signs the operator back in.
 */
import { ADMIN_MODE_MISMATCH } from '@switchboard/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, type TestServer, startTestServer } from '../../../test/harness.js';
import { recordAdminSessionExpiry } from './admin-login.service.js';

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

/** The web's client in admin mode: it adds the admin header (spec 000 §7) to every request. */
const ADMIN = { 'x-admin-mode': '1' };

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

    expect(r.body.user.isAdmin).toBe(true);
    expect((await c.get('/api/user')).body).toMatchObject({ id: target.userId, isAdmin: true });
    expect((await target.client.get('/api/user')).body.isAdmin).toBe(false);
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
    const block = await c.request('POST', '/api/blocks', { company_id: target.companyId, target: '+13125550188', global: true }, ADMIN);
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
    const left = await c.request('POST', '/api/sanctum/admin-session/leave', {}, ADMIN);
    expect(left.status).toBe(200);
    expect(left.body.user).toMatchObject({ id: operator.userId, isAdmin: false });
    expect((await c.get('/api/sanctum/admin-session')).body.isAdmin).toBe(false);
    expect((await c.post('/api/sanctum/admin-session/leave')).status).toBe(409);
  });

  it('an admin session reaches no other company of the person it acts as', async () => {
    // The target's owner also owns a second company (signup as the same person is not possible; add membership).
    await s.ctx.db.insertInto('company_users').values({ company_id: other.companyId, user_id: target.userId, role: 'owner' }).execute();
    const c = await signIn(operator);
    expect((await c.get(`/api/sanctum/remoteLogin/${target.companyId}`)).status).toBe(200);
    const blocked = await c.request('POST', '/api/blocks', { company_id: other.companyId, target: '+13125550189', global: true }, ADMIN);
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

  it('records the remote login (operator, account, address, user agent) and the end of the admin session', async () => {
    const c = await signIn(operator);
    const opened = await c.request('GET', `/api/sanctum/remoteLogin/${target.companyId}`, undefined, { 'user-agent': 'AuditProbe/1.0' });
    expect(opened.status).toBe(200);
    const log = async (action: string) =>
      (await target.client.get(`/api/audit-log?company_id=${target.companyId}&entity_type=admin-session&action=${action}`)).body.data as Array<
        Record<string, unknown>
      >;
    const [start] = await log('remote-login');
    expect(start).toMatchObject({
      company_id: target.companyId,
      actor_kind: 'operator',
      operator_user_id: operator.userId,
      actor_user_id: target.userId,
      actor_name: 'Olga Operator',
      entity_type: 'admin-session',
      action: 'remote-login',
      method: 'GET',
      path: `/api/sanctum/remoteLogin/${target.companyId}`,
      outcome: 'success',
      user_agent: 'AuditProbe/1.0',
      changes: { acting_as_user_id: target.userId, expires_at: opened.body.admin.expires_at },
    });
    expect(typeof start!.ip).toBe('string');
    expect(start!.entity_id).toMatch(/^[0-9a-f]{16}$/);

    // Leaving ends it: one `end` entry (reason left) with the same session reference, and no generic entry of the POST.
    expect((await c.request('POST', '/api/sanctum/admin-session/leave', {}, { ...ADMIN, 'user-agent': 'AuditProbe/1.0' })).status).toBe(200);
    const ends = (await log('end')).filter((e) => e.entity_id === start!.entity_id);
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ actor_kind: 'operator', operator_user_id: operator.userId, changes: { reason: 'left' }, user_agent: 'AuditProbe/1.0' });

    // Signing out of an admin session ends it too.
    expect((await c.get(`/api/sanctum/remoteLogin/${target.companyId}`)).status).toBe(200);
    const [second] = await log('remote-login');
    expect(second!.entity_id).not.toBe(start!.entity_id);
    expect((await c.request('POST', '/api/sanctum/logout', {}, ADMIN)).status).toBe(204);
    expect((await log('end')).find((e) => e.entity_id === second!.entity_id)).toMatchObject({ changes: { reason: 'signed-out' } });
  });

  it('an admin session that runs out is recorded as ended (expired) by its job, once', async () => {
    const c = await signIn(operator);
    expect((await c.get(`/api/sanctum/remoteLogin/${target.companyId}`)).status).toBe(200);
    const row = await s.ctx.db
      .selectFrom('admin_sessions')
      .select(['session_id', 'expires_at'])
      .where('operator_user_id', '=', operator.userId)
      .orderBy('started_at', 'desc')
      .executeTakeFirstOrThrow();
    const past = new Date(Date.now() - 1000);
    await s.ctx.db.updateTable('admin_sessions').set({ expires_at: past }).where('session_id', '=', row.session_id).execute();
    await s.ctx.db.updateTable('sessions').set({ expires_at: past }).where('id', '=', row.session_id).execute();
    // The job queued at the start runs at the session's end; here it is run at once (twice: a retry).
    const job = {
      sessionId: row.session_id,
      companyId: target.companyId,
      operatorUserId: operator.userId,
      actingAsUserId: target.userId,
      expiresAt: past.toISOString(),
    };
    await recordAdminSessionExpiry(s.ctx, job);
    await recordAdminSessionExpiry(s.ctx, job);
    const ends = (await target.client.get(`/api/audit-log?company_id=${target.companyId}&entity_type=admin-session&action=end`)).body.data.filter(
      (e: { entity_id: string }) => e.entity_id === row.session_id.slice(0, 16),
    );
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ actor_kind: 'system', operator_user_id: operator.userId, changes: { reason: 'expired' } });
    expect(await s.ctx.db.selectFrom('sessions').select('id').where('id', '=', row.session_id).executeTakeFirst()).toBeUndefined();
    // A queued job exists for every admin session (pg-boss), due at its end.
    const queued = await sql<{ sid: string }>`select data->>'sessionId' as sid from pgboss.job where name = 'auth.admin-session-end'`.execute(s.ctx.db);
    expect(queued.rows.map((q) => q.sid)).toContain(row.session_id);
  });
});

describe('the admin header (spec 000 §7; docs/auth.md "Admin mode")', () => {
  it('a state-changing request must carry it exactly when the session is an admin session (409 otherwise); reads pass', async () => {
    const c = await signIn(operator);
    expect((await c.get(`/api/sanctum/remoteLogin/${target.companyId}`)).status).toBe(200);
    // Admin session without the header: refused, nothing changed.
    const without = await c.post('/api/blocks', { company_id: target.companyId, target: '+13125550191', global: true });
    expect(without.status).toBe(409);
    expect(without.body.message).toBe(ADMIN_MODE_MISMATCH);
    expect((await c.get('/api/user')).status).toBe(200);
    expect((await c.request('POST', '/api/blocks', { company_id: target.companyId, target: '+13125550191', global: true }, ADMIN)).status).toBe(201);
    // A non-admin session (or a stale tab after leaving admin mode) with the header: refused.
    const stale = await target.client.request('POST', '/api/blocks', { company_id: target.companyId, target: '+13125550192', global: true }, ADMIN);
    expect(stale.status).toBe(409);
    expect((await target.client.request('GET', '/api/user', undefined, ADMIN)).status).toBe(200);
    expect((await c.request('POST', '/api/sanctum/admin-session/leave', {}, ADMIN)).status).toBe(200);
    expect((await c.request('POST', '/api/blocks', { company_id: operator.companyId, target: '+13125550193', global: true }, ADMIN)).status).toBe(409);
    // `0` is no claim.
    expect(
      (await c.request('POST', '/api/blocks', { company_id: operator.companyId, target: '+13125550193', global: true }, { 'x-admin-mode': '0' })).status,
    ).toBe(201);
  });
});
