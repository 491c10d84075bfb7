/**
 * The permission sweep (docs/permissions.md "The sweep"): for every route of the OpenAPI document
 * and every role of spec 000 §6, the expected answer is generated from the route's one access
 * declaration (`config.access`, platform/http/access.ts) and the one role → ability matrix
 * (`@switchboard/domain` ABILITY_MATRIX), then checked against the running server with a member of
 * each role: a denied role must get 403, an allowed one anything but 401/403 (a 404 for the
 * made-up ids, a 422 for the empty body, a 200...). Every `/api` route must declare its access.
 *
 * Each member belongs to the one company under test with their role (their own sign-up company is
 * set to `deactivated`, so no other membership lends them an ability). One server, six signed-in
 * clients, requests in parallel batches.
 */
import { ROLES, roleCan, type Role } from '@switchboard/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../test/fixtures.js';
import { startTestServer, type ApiClient, type TestServer } from '../test/harness.js';
import { addCompanyMember } from './modules/companies/companies.service.js';
import { declaredRoutes, type AccessRule } from './platform/http/access.js';

let s: TestServer;
let owner: Account;
const members = new Map<Role, ApiClient>();

/** Placeholder values for path parameters: ids that exist nowhere, a phone number, an area code. */
const PARAM_VALUES: Record<string, string> = { number: '+15555550123', idOrNumber: '999999', areaCode: '212', type: '1', key: 'nokey', suffix: 'read' };
/** Routes an allowed member must not call (they would end the fixture itself). */
const NEVER_CALL = [/^DELETE \/api\/companies\/\{(companyId|id)\}$/, /^DELETE \/api\/organizations\/\{[^}]+\}$/, /\/logout$/, /\/remoteLogin\//];

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s, { firstName: 'Olive', lastName: 'Owner' });
  members.set('owner', owner.client);
  for (const role of ROLES.filter((r) => r !== 'owner')) {
    const m = await createAccount(s, { firstName: role, lastName: 'Member' });
    await addCompanyMember(s.ctx, owner.companyId, m.userId, role);
    await addCompanyMember(s.ctx, m.companyId, m.userId, 'deactivated');
    members.set(role, m.client);
  }
}, 60_000);
afterAll(async () => {
  await s?.close();
});

type Operation = { method: string; path: string };

/** Every operation of the OpenAPI document (the app's own, `app.swagger()`). */
function operations(): Operation[] {
  const doc = s.app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of Object.keys(item)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) out.push({ method: method.toUpperCase(), path });
    }
  }
  return out;
}

/** The declaration of an OpenAPI operation (its path in Fastify's `:param` form). */
function ruleOf(op: Operation): AccessRule | null | undefined {
  const url = op.path.replace(/\{([^}]+)\}/g, ':$1');
  return declaredRoutes(s.app).find((r) => r.method === op.method && r.url === url)?.rule;
}

/** The expected answer for a role: 'allow' or 'deny'; null when the sweep does not call it (public, webhook). */
function expected(rule: AccessRule, role: Role): 'allow' | 'deny' | null {
  switch (rule.kind) {
    case 'public':
    case 'webhook':
      return null;
    case 'signedIn':
      return 'allow';
    case 'operator':
      return 'deny';
    case 'company':
      return roleCan(role, rule.ability) ? 'allow' : 'deny';
  }
}

/** The concrete URL of an operation for the company under test. */
function urlOf(op: Operation): string {
  const companyId = String(owner.companyId);
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string, offset: number) => {
    if (name === 'companyId' || name === 'company_id') return companyId;
    // `/api/companies/{id}/…` and `/api/company/{id}/…` name the company by `id`.
    if (name === 'id' && /\/api\/compan(y|ies)\/$/.test(op.path.slice(0, offset))) return companyId;
    return PARAM_VALUES[name] ?? '999999';
  });
  return `${path}?company_id=${companyId}`;
}

describe('permission sweep', () => {
  it('every /api route of the OpenAPI document declares its access', () => {
    const ops = operations().filter((op) => op.path.startsWith('/api/') && !op.path.startsWith('/api/docs'));
    expect(ops.length).toBeGreaterThan(200);
    const undeclared = ops.filter((op) => !ruleOf(op)).map((op) => `${op.method} ${op.path}`);
    expect(undeclared).toEqual([]);
    // Also the /api routes the document hides.
    const hidden = declaredRoutes(s.app).filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && !r.rule);
    expect(hidden.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('the OpenAPI document says who may call each operation', () => {
    const doc = s.app.swagger() as { paths: Record<string, Record<string, { description?: string; 'x-access'?: unknown }>> };
    const op = doc.paths['/api/companies/{companyId}/numbers']!.get!;
    expect(op['x-access']).toEqual({ ability: 'numbers.read', roles: ['owner', 'administrator', 'reporting', 'user'] });
    expect(op.description).toContain('Access: `numbers.read` in the company (owner, administrator, reporting, user).');
    expect(doc.paths['/api/user']!.get!['x-access']).toEqual({ kind: 'signedIn' });
  });

  it('every role gets what the declaration and the matrix say, on every route', async () => {
    const ops = operations().filter((op) => op.path.startsWith('/api/') && ruleOf(op));
    const cases: Array<{ op: Operation; role: Role; want: 'allow' | 'deny' }> = [];
    for (const op of ops) {
      for (const role of ROLES) {
        const want = expected(ruleOf(op)!, role);
        if (!want) continue;
        if (want === 'allow' && NEVER_CALL.some((re) => re.test(`${op.method} ${op.path}`))) continue;
        cases.push({ op, role, want });
      }
    }
    const wrong: string[] = [];
    const body = { company_id: owner.companyId, companyId: owner.companyId };
    for (let i = 0; i < cases.length; i += 12) {
      await Promise.all(
        cases.slice(i, i + 12).map(async ({ op, role, want }) => {
          const client = members.get(role)!;
          const r = await client.request(op.method, urlOf(op), op.method === 'GET' || op.method === 'DELETE' ? undefined : body);
          const ok = want === 'deny' ? r.status === 403 : r.status !== 401 && r.status !== 403;
          if (!ok) wrong.push(`${role} ${op.method} ${op.path}: expected ${want}, got ${r.status} ${JSON.stringify(r.body)?.slice(0, 120)}`);
        }),
      );
    }
    // Enough cases that every kind of answer was exercised (six roles over 200+ routes).
    expect(cases.length).toBeGreaterThan(1000);
    expect(wrong).toEqual([]);
  }, 300_000);
});
