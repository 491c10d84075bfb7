/**
 * The access hooks on a bare Fastify app (no database): roles come from a table, the caller from an
 * `x-user` header standing in for the auth plugin. Covers where the company is read, refusals before
 * validation, 422 for a malformed company, entity routes (deferred check, `assertAccess`), lists of
 * companies, the declared ability inside the handler, operators, API-key scopes and the registry.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@switchboard/domain';
import { registerErrorHandler } from './error-handler.js';
import { access, declaredAbility, declaredRoutes, registerAccess, setAccessResolvers } from './access.js';

/** user → company → role. User 1: owner of 10, user of 20. User 2: reporting in 10. User 3: deactivated in 10. User 4: none. */
const ROLES: Record<number, Record<number, Role>> = {
  1: { 10: 'owner', 20: 'user' },
  2: { 10: 'reporting' },
  3: { 10: 'deactivated' },
  4: {},
};

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  registerErrorHandler(app);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const user = Number(request.headers['x-user']);
    request.auth = user ? { userId: user, via: request.headers['x-token'] ? 'token' : 'session', mfaPending: false } : null;
  });
  registerAccess(
    app,
    { roleIn: async (userId, companyId) => ROLES[userId]?.[companyId] ?? null, rolesOf: async (userId) => Object.values(ROLES[userId] ?? {}) },
    { requireDeclaration: false },
  );
  const numbers = { config: { access: access.company('numbers.manage') } };
  app.put('/api/companies/:companyId/numbers', numbers, async () => ({ ok: true, ability: declaredAbility() }));
  app.post(
    '/api/strict',
    {
      config: { access: access.company('numbers.manage') },
      schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, company_id: { type: 'integer' } } } },
    },
    async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { ability: declaredAbility() };
    },
  );
  app.get('/api/reports', { config: { access: access.company('reports.read') } }, async () => ({ ok: true }));
  // An entity route: the company is found by loading the entity (here: id / 100).
  app.delete<{ Params: { id: string } }>('/api/things/:id', { config: { access: access.company('contacts.write') } }, async (request) => {
    const role = await request.assertAccess(Math.floor(Number(request.params.id) / 100));
    return { role, deferred: request.access?.deferred };
  });
  app.get('/api/labels/:id', { config: { access: access.company('contacts.read', { from: ['params.id'] }) } }, async () => ({ ok: true }));
  app.get('/api/me', { config: { access: access.signedIn() } }, async () => ({ ok: true, ability: declaredAbility() }));
  app.get('/api/open', { config: { access: access.public() } }, async (request) => ({ public: request.routeOptions.config.public === true }));
  app.get('/api/ops', { config: { access: access.operator() } }, async () => ({ ok: true }));
  app.get('/api/undeclared', async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, user?: number, payload?: object, token = false) =>
  app.inject({ method, url, headers: { ...(user ? { 'x-user': String(user) } : {}), ...(token ? { 'x-token': '1' } : {}) }, ...(payload ? { payload } : {}) });

describe('access.company: the company of the request', () => {
  it('lets a role with the ability through and tells the handler the declared ability', async () => {
    const r = await call('PUT', '/api/companies/10/numbers', 1);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ ok: true, ability: 'numbers.manage' });
  });

  it('refuses a role without the ability, a deactivated member, a stranger (403 in the error shape) and nobody (401)', async () => {
    for (const user of [2, 3, 4]) {
      const r = await call('PUT', '/api/companies/10/numbers', user);
      expect(r.statusCode).toBe(403);
      expect(r.json()).toEqual({ message: "You're not authorized to perform this action" });
    }
    // User 1 is only a `user` in company 20: no numbers.manage there.
    expect((await call('PUT', '/api/companies/20/numbers', 1)).statusCode).toBe(403);
    expect((await call('PUT', '/api/companies/10/numbers')).statusCode).toBe(401);
  });

  it('refuses before validation: a denied caller gets 403, not the 422 of a body missing its fields', async () => {
    expect((await call('POST', '/api/strict', 2, { company_id: 10 })).statusCode).toBe(403);
    const allowed = await call('POST', '/api/strict', 1, { company_id: 10 });
    expect(allowed.statusCode).toBe(422);
    // With a valid body the handler runs and still sees the ability after its own await.
    const ok = await call('POST', '/api/strict', 1, { company_id: 10, name: 'x' });
    expect(ok.json()).toEqual({ ability: 'numbers.manage' });
  });

  it('reads the company from query company_id / company / companyId and from a list', async () => {
    expect((await call('GET', '/api/reports?company_id=10', 2)).statusCode).toBe(200);
    expect((await call('GET', '/api/reports?company=10', 2)).statusCode).toBe(200);
    expect((await call('GET', '/api/reports?companyId=20', 1)).statusCode).toBe(403);
    // Every company of a list must allow: user 1 reports on 10 but not on 20.
    expect((await call('GET', '/api/reports?companyIds=10', 1)).statusCode).toBe(200);
    expect((await call('GET', '/api/reports?companyIds=10,20', 1)).statusCode).toBe(403);
  });

  it('answers 422 with the field error for a company that is not a positive integer', async () => {
    const r = await call('GET', '/api/reports?company_id=abc', 1);
    expect(r.statusCode).toBe(422);
    expect(r.json()).toEqual({ message: 'The company must be a positive integer.', errors: { company_id: ['The company must be a positive integer.'] } });
    expect((await call('GET', '/api/reports?company_id=0', 1)).statusCode).toBe(422);
  });

  it('reads the company where the declaration says (`from`)', async () => {
    expect((await call('GET', '/api/labels/20', 1)).statusCode).toBe(200);
    expect((await call('GET', '/api/labels/10', 2)).statusCode).toBe(403);
  });
});

describe('entity routes (no company in the request)', () => {
  it('lets through only callers with the ability somewhere; the handler checks the entity’s company', async () => {
    // Thing 1005 belongs to company 10 (owner), 2005 to company 20 (user): both may write contacts.
    expect((await call('DELETE', '/api/things/1005', 1)).json()).toEqual({ role: 'owner', deferred: false });
    expect((await call('DELETE', '/api/things/2005', 1)).json()).toEqual({ role: 'user', deferred: false });
    // Reporting has contacts.write nowhere: refused before the handler.
    expect((await call('DELETE', '/api/things/1005', 2)).statusCode).toBe(403);
    // User 1 has no role in company 30.
    expect((await call('DELETE', '/api/things/3005', 1)).statusCode).toBe(403);
  });
});

describe('other declarations', () => {
  it('signedIn needs a user and carries no ability; public marks the route public', async () => {
    expect((await call('GET', '/api/me', 4)).json()).toEqual({ ok: true, ability: null });
    expect((await call('GET', '/api/me')).statusCode).toBe(401);
    expect((await call('GET', '/api/open')).json()).toEqual({ public: true });
  });

  it('operator: refused without the resolver and for non-operators, allowed for an operator', async () => {
    expect((await call('GET', '/api/ops', 1)).statusCode).toBe(403);
    setAccessResolvers(app, { isOperator: async (userId) => userId === 4 });
    expect((await call('GET', '/api/ops', 1)).statusCode).toBe(403);
    expect((await call('GET', '/api/ops', 4)).statusCode).toBe(200);
  });

  it("an API key is also held to the key's scopes", async () => {
    setAccessResolvers(app, { tokenAllows: async (_request, rule) => rule.kind !== 'company' || rule.ability !== 'numbers.manage' });
    const r = await call('PUT', '/api/companies/10/numbers', 1, undefined, true);
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe("This API key's scopes do not allow this request.");
    expect((await call('PUT', '/api/companies/10/numbers', 1)).statusCode).toBe(200);
    expect((await call('GET', '/api/reports?company_id=10', 1, undefined, true)).statusCode).toBe(200);
  });

  it('collects every route with its declaration; an undeclared /api route is listed with none', () => {
    const routes = declaredRoutes(app);
    expect(routes.find((r) => r.url === '/api/labels/:id')?.rule).toEqual({ kind: 'company', ability: 'contacts.read', from: ['params.id'] });
    expect(routes.find((r) => r.url === '/api/undeclared')).toEqual({ method: 'GET', url: '/api/undeclared', rule: null });
    expect(() => access.company('nope' as never)).toThrow('Unknown ability nope');
  });

  it('refuses to register an /api route without a declaration (the default)', async () => {
    const strict = Fastify();
    strict.decorateRequest('auth', null);
    registerAccess(strict, { roleIn: async () => null, rolesOf: async () => [] });
    strict.get('/health-outside-api', async () => 'ok');
    expect(() => strict.get('/api/forgotten', async () => 'ok')).toThrow('GET /api/forgotten declares no access');
    await strict.close();
  });
});
