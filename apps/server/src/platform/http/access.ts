/**
 * Route access: every route says ONCE, in its options, who may call it; one set of hooks enforces
 * it (docs/permissions.md). The roles and what they may do are the ONE matrix of
 * `@switchboard/domain` (`ABILITY_MATRIX`, spec 000 §6 roles).
 *
 * ## Declaring
 * ```ts
 * import { access } from '../../platform/http/access.js';
 * app.get('/api/companies/:companyId/numbers', { config: { access: access.company('numbers.read') }, schema }, handler);
 * ```
 * - `access.public()`: anyone, signed in or not (sign-in, health, the DNI script). Sets `config.public`.
 * - `access.signedIn()`: any signed-in user, whatever their companies (their own profile, MFA, presets).
 * - `access.company(ability, opts?)`: a member of the request's company whose role has `ability`
 *   (e.g. `'reports.read'`, `'numbers.manage'`; the names are `Ability` of the domain matrix).
 * - `access.operator()`: a platform operator (the users' operator flag, set by a command-line task).
 * - `access.webhook()`: carrier or provider callbacks, authenticated by their own signature check
 *   (a `preHandler` of the route); sets `config.public`.
 *
 * ## How the company of a request is found (`access.company`)
 * Before validation (so a refused caller learns nothing from 422s), from the first of:
 * path `companyId` / `company_id`; query `company_id` / `company` / `companyId`; body `company_id` /
 * `companyId`; lists `companyIds` / `company_ids` (query or body: every company must allow).
 * `opts.from` names other places, e.g. `access.company('contacts.bulk', { from: ['params.id'] })`
 * for `/api/companies/:id/contactLabels`. A value there that is not a positive integer is a 422
 * with that field's error. Org-administrators reach every company of their business unit and a
 * `deactivated` member reaches nothing: both come from the resolvers (`roleIn`, `rolesOf`).
 *
 * When the request names no company (an entity route such as `DELETE /api/blocks/{id}`), the hook
 * lets through only a user whose role has the ability in at least one company, and the handler
 * (or its service) checks the entity's company once it has loaded it: `await
 * request.assertAccess(companyId)` (same ability, 403), or the services' own
 * `assertCompanyAccess`, which also holds the member to the running request's declared ability
 * (`declaredAbility()`, kept per request in an AsyncLocalStorage), so a service's wider role list
 * never widens the declaration. The permission sweep (`permissions.sweep.test.ts`) proves a
 * service never refuses what the declaration allows.
 *
 * ## Refusals
 * 401 without a user (`UnauthenticatedError`), 403 `ForbiddenError` in the spec's error shape
 * `{ message }` otherwise. An API key (`request.auth.via === 'token'`) is also held to its scopes by
 * the `tokenAllows` resolver when one is registered (the api-keys module), and a key limited to a
 * business unit to that unit's companies (`companyOrganizationOf`, registered by the api-keys module):
 * every company the check resolves, `request.assertAccess` and services' `assertRequestReaches`.
 *
 * ## A route without a declaration
 * The `onRoute` hook collects every declaration (`declaredRoutes(app)`, read by the sweep). An
 * `/api` route without one is a registration error (`REQUIRE_DECLARATION`; `registerAccess`'s
 * `requireDeclaration: false` makes it a logged warning, for tests of the hooks themselves). Routes
 * outside `/api` (carrier webhooks, `/files`, `/metrics`, the SPA) guard themselves; they may declare.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Ability, type Role, isAbility, roleCan, rolesWith } from '@switchboard/domain';
import { ForbiddenError, UnauthenticatedError, fieldError } from './errors.js';
import { withOpenApiExamples } from './openapi-examples.js';

/** An `/api` route without `config.access` fails at registration (the default of `registerAccess`). */
export const REQUIRE_DECLARATION = true;

/** Where a company id may be read: `params.x`, `query.x` or `body.x`. */
export type CompanySource = `${'params' | 'query' | 'body'}.${string}`;

/** One route's declaration (`config.access`). */
export type AccessRule =
  { kind: 'public' } | { kind: 'signedIn' } | { kind: 'operator' } | { kind: 'webhook' } | { kind: 'company'; ability: Ability; from?: CompanySource[] };

/** The declaration builders (see the module's docstring). */
export const access = {
  /** Anyone, signed in or not. */
  public: (): AccessRule => ({ kind: 'public' }),
  /** Any signed-in user (personal routes: profile, MFA, presets, favourites). */
  signedIn: (): AccessRule => ({ kind: 'signedIn' }),
  /** A member of the request's company whose role has `ability`; `from` overrides where the company id is read. */
  company: (ability: Ability, opts: { from?: CompanySource[] } = {}): AccessRule => {
    if (!isAbility(ability)) throw new Error(`Unknown ability ${String(ability)}`);
    return { kind: 'company', ability, ...(opts.from ? { from: opts.from } : {}) };
  },
  /** A platform operator (users' operator flag). */
  operator: (): AccessRule => ({ kind: 'operator' }),
  /** A signed callback from a carrier or provider (the route checks the signature itself). */
  webhook: (): AccessRule => ({ kind: 'webhook' }),
};

/**
 * How access asks the modules (platform imports no module: app.ts and the modules' routes
 * register these). `roleIn` and `rolesOf` are required; the rest are optional.
 */
export type AccessResolvers = {
  /** The caller's effective role in the company (org-administrators included), or null for none. */
  roleIn: (userId: number, companyId: number) => Promise<Role | null>;
  /** The caller's effective roles across companies (for entity routes that name no company). */
  rolesOf: (userId: number) => Promise<Role[]>;
  /** True for a platform operator (admin mode); without it `access.operator()` refuses everyone. */
  isOperator?: (userId: number) => Promise<boolean>;
  /** A role the request carries by itself in the company (admin mode's session), before `roleIn`. */
  roleOverride?: (request: FastifyRequest, companyId: number | null) => Promise<Role | null | undefined>;
  /** Whether an API key's scopes allow the rule (`request.auth.via === 'token'`); absent: allowed. */
  tokenAllows?: (request: FastifyRequest, rule: AccessRule) => Promise<boolean>;
  /**
   * The business unit (organization) of a company, or null: an API key limited to a business unit reaches only its
   * companies (spec 001 "API keys": optional business unit). Absent: such a key reaches no company (secure by default).
   */
  companyOrganizationOf?: (companyId: number) => Promise<number | null>;
};

/** 403 message for an API key limited to a business unit, on a company of another (or of none). */
export const API_KEY_OTHER_UNIT = 'This API key is limited to another business unit.';

/** What one request's check found: the rule, and for company rules the company and role (null when deferred). */
export type RequestAccess = {
  rule: AccessRule | null;
  companyIds: number[];
  role: Role | null;
  /** True when the company could not be read from the request and the handler checks the entity's company. */
  deferred: boolean;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (platform/http/access.ts). */
    access?: AccessRule;
  }
  interface FastifyRequest {
    /** Filled by the access hook before validation. */
    access: RequestAccess | null;
    /**
     * Checks the caller's role in `companyId` has `ability` (default: the route's declared ability).
     * @returns the caller's role. @throws ForbiddenError (403), UnauthenticatedError (401).
     */
    assertAccess: (companyId: number, ability?: Ability) => Promise<Role>;
  }
}

/** One declared route, as collected at registration. */
export type DeclaredRoute = { method: string; url: string; rule: AccessRule | null };

const declared = new WeakMap<FastifyInstance, DeclaredRoute[]>();
/** The running request's declared ability (null: none, or outside a request: jobs, sockets). */
const current = new AsyncLocalStorage<RequestStore>();
/** What the running request keeps: its declaration, its caller, the roles its check resolved, a memo for services. */
type RequestStore = {
  readonly ability: Ability | null;
  readonly userId: number | null;
  /** The caller's effective role per company, as the access check resolved it (admin mode's role included). */
  readonly roles: Map<number, Role | null>;
  /** Per-request memo of services' derived answers (e.g. the numbers a caller may see), see `requestMemo`. */
  readonly memo: Map<string, unknown>;
  /** An API key limited to a business unit: whether a company is in it (null: no such limit). */
  readonly reaches: ((companyId: number) => Promise<boolean>) | null;
};

/**
 * The ability the running HTTP request was declared with (`access.company(ability)`), or null for
 * other declarations and outside a request (jobs, Socket.IO). Services' tenant checks intersect
 * their role lists with it (modules/companies `assertCompanyAccess`).
 */
export function declaredAbility(): Ability | null {
  return current.getStore()?.ability ?? null;
}

/**
 * The running request's declared ability with the calling user's id, or null (no company
 * declaration, no user, or outside a request). A service's check of ANOTHER user's membership
 * must not be held to it: compare `userId`.
 */
export function declaredAccess(): { ability: Ability; userId: number } | null {
  const store = current.getStore();
  return store?.ability && store.userId !== null ? { ability: store.ability, userId: store.userId } : null;
}
const resolversOf = new WeakMap<FastifyInstance, AccessResolvers>();

/**
 * The calling user's effective role in `companyId` as this request's access check resolved it (the
 * membership's role, or admin mode's role), or undefined when the check did not resolve that company
 * (entity routes before the service's own check, another user, outside a request). Services fall back
 * to the membership (modules/users `numberScope`).
 */
export function requestRoleIn(userId: number, companyId: number): Role | null | undefined {
  const store = current.getStore();
  if (!store || store.userId !== userId) return undefined;
  return store.roles.get(companyId);
}

/**
 * The running request's memo (one Map per request), or null outside a request: a service computes a
 * derived answer once per request (docs/permissions.md "Numbers a user sees"). Keys are namespaced by
 * the caller (`module:what:ids`).
 */
export function requestMemo(): Map<string, unknown> | null {
  return current.getStore()?.memo ?? null;
}

/**
 * Holds the running request to its API key's business unit (spec 001 "API keys": a key limited to one business unit
 * reaches only that unit's companies): a service that resolves an entity's company itself calls this (modules/companies
 * `assertCompanyAccess` does), as the access check does for the companies it resolves. Nothing outside a request, or
 * for a caller that is not such a key, or when `userId` is not the request's caller.
 * @throws ForbiddenError (403, API_KEY_OTHER_UNIT) for a company outside the key's business unit.
 */
export async function assertRequestReaches(userId: number, companyId: number): Promise<void> {
  const store = current.getStore();
  if (!store?.reaches || store.userId !== userId) return;
  if (!(await store.reaches(companyId))) throw new ForbiddenError(API_KEY_OTHER_UNIT);
}

/** Every route registered so far with its declaration (null: none), in registration order. */
export function declaredRoutes(app: FastifyInstance): DeclaredRoute[] {
  return [...(declared.get(app) ?? [])];
}

/**
 * Adds or replaces optional resolvers after `registerAccess` (a module's `routes(app, ctx)`:
 * e.g. the users module's `isOperator`, the api-keys module's `tokenAllows`).
 */
export function setAccessResolvers(app: FastifyInstance, more: Partial<AccessResolvers>): void {
  const current = resolversOf.get(app);
  if (!current) throw new Error('registerAccess must run first');
  resolversOf.set(app, { ...current, ...more });
}

const DEFAULT_SOURCES: CompanySource[] = [
  'params.companyId',
  'params.company_id',
  'query.company_id',
  'query.company',
  'query.companyId',
  'body.company_id',
  'body.companyId',
];
const LIST_SOURCES: CompanySource[] = ['query.companyIds', 'query.company_ids', 'body.companyIds', 'body.company_ids'];

/**
 * The company ids a request names for `rule` (empty: none, the check is deferred to the handler).
 * @throws ValidationError (422) when a named place holds something that is not a positive integer.
 */
export function companyIdsOf(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>, rule: Extract<AccessRule, { kind: 'company' }>): number[] {
  const read = (src: CompanySource): unknown => {
    const [where, key] = src.split('.') as ['params' | 'query' | 'body', string];
    const bag = request[where];
    return bag && typeof bag === 'object' && !Array.isArray(bag) ? (bag as Record<string, unknown>)[key] : undefined;
  };
  const toId = (src: CompanySource, v: unknown): number => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw fieldError(src.split('.')[1]!, 'The company must be a positive integer.');
    return n;
  };
  for (const src of rule.from ?? DEFAULT_SOURCES) {
    const v = read(src);
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) return [...new Set(v.map((x) => toId(src, x)))];
    return [toId(src, v)];
  }
  if (rule.from) return [];
  for (const src of LIST_SOURCES) {
    const v = read(src);
    if (v === undefined || v === null || v === '') continue;
    const list = Array.isArray(v) ? v : String(v).split(',');
    return [...new Set(list.filter((x) => x !== '').map((x) => toId(src, x)))];
  }
  return [];
}

/**
 * Installs the hooks: `onRoute` (collect, mark public/webhook routes `config.public`, refuse or warn
 * about undeclared `/api` routes) and `preValidation` (check the declaration). Call after
 * `registerAuth` and before any module's routes.
 */
export function registerAccess(app: FastifyInstance, resolvers: AccessResolvers, opts: { requireDeclaration?: boolean } = {}): void {
  const requireDeclaration = opts.requireDeclaration ?? REQUIRE_DECLARATION;
  const routes: DeclaredRoute[] = [];
  declared.set(app, routes);
  resolversOf.set(app, resolvers);
  app.decorateRequest('access', null);
  app.decorateRequest('assertAccess', async function (this: FastifyRequest, companyId: number, ability?: Ability): Promise<Role> {
    const rule = this.access?.rule;
    const wanted = ability ?? (rule?.kind === 'company' ? rule.ability : undefined);
    if (!wanted) throw new Error('assertAccess needs an ability on a route not declared with access.company');
    const role = await roleFor(app, this, companyId);
    current.getStore()?.roles.set(companyId, role);
    if (!roleCan(role, wanted)) throw new ForbiddenError();
    if (this.access) this.access = { ...this.access, companyIds: [...this.access.companyIds, companyId], role, deferred: false };
    return role!;
  });

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = (route.config ?? {}) as { access?: AccessRule; public?: boolean };
    let rule = config.access ?? null;
    if (!rule && route.url.startsWith('/api/docs')) rule = { kind: 'public' };
    if (rule && (rule.kind === 'public' || rule.kind === 'webhook')) route.config = { ...(route.config ?? {}), public: true };
    // Request and response examples of the main public operations (openapi-examples.ts), checked against the schemas.
    if (route.schema && methods.length === 1) route.schema = withOpenApiExamples(String(methods[0]), route.url, route.schema as Record<string, unknown>);
    // The OpenAPI document says who may call each operation (`x-access` and a sentence of its description).
    if (rule && route.schema && !(route.schema as { hide?: boolean }).hide) {
      const schema = route.schema as { description?: string };
      const who = describeRule(rule);
      route.schema = {
        ...route.schema,
        'x-access': rule.kind === 'company' ? { ability: rule.ability, roles: rolesWith(rule.ability) } : { kind: rule.kind },
        description: schema.description ? `${schema.description}\n\n${who}` : who,
      } as typeof route.schema;
    }
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: route.url, rule });
    }
    if (!rule && route.url.startsWith('/api/')) {
      const what = `${methods.join(',')} ${route.url} declares no access (config.access; platform/http/access.ts)`;
      if (requireDeclaration) throw new Error(what);
      app.log.warn(what);
    }
  });

  // The request's declared ability for the services' checks: entered after the body is read (a body's
  // stream events would lose an earlier context); every later hook and the handler run inside `done`.
  app.addHook('preValidation', (request, _reply, done) => {
    const rule = (request.routeOptions.config as { access?: AccessRule } | undefined)?.access;
    const unit = request.auth?.apiKey?.organizationId ?? null;
    const reaches = unit === null ? null : (companyId: number) => keyReaches(app, unit, companyId);
    current.run(
      { ability: rule?.kind === 'company' ? rule.ability : null, userId: request.auth?.userId ?? null, roles: new Map(), memo: new Map(), reaches },
      done,
    );
  });

  app.addHook('preValidation', async (request) => {
    const rule = (request.routeOptions.config as { access?: AccessRule } | undefined)?.access ?? null;
    if (!rule || rule.kind === 'public' || rule.kind === 'webhook') {
      request.access = { rule, companyIds: [], role: null, deferred: false };
      return;
    }
    const auth = request.auth;
    if (!auth || (auth.mfaPending && !request.routeOptions.config.allowMfaPending)) throw new UnauthenticatedError();
    const r = resolversOf.get(app)!;
    if (auth.via === 'token' && r.tokenAllows && !(await r.tokenAllows(request, rule))) {
      throw new ForbiddenError("This API key's scopes do not allow this request.");
    }
    if (rule.kind === 'signedIn') {
      request.access = { rule, companyIds: [], role: null, deferred: false };
      return;
    }
    if (rule.kind === 'operator') {
      if (!(r.isOperator && (await r.isOperator(auth.userId)))) throw new ForbiddenError();
      request.access = { rule, companyIds: [], role: null, deferred: false };
      return;
    }
    const companyIds = companyIdsOf(request, rule);
    if (companyIds.length === 0) {
      // Entity route: the handler checks the entity's company; here, only callers who could pass anywhere.
      const override = r.roleOverride ? await r.roleOverride(request, null) : null;
      const roles = override ? [override] : await r.rolesOf(auth.userId);
      if (!roles.some((role) => roleCan(role, rule.ability))) throw new ForbiddenError();
      request.access = { rule, companyIds: [], role: null, deferred: true };
      return;
    }
    let role: Role | null = null;
    const resolved = current.getStore()?.roles;
    for (const companyId of companyIds) {
      role = await roleFor(app, request, companyId);
      resolved?.set(companyId, role);
      if (!roleCan(role, rule.ability)) throw new ForbiddenError();
    }
    request.access = { rule, companyIds, role, deferred: false };
  });
}

/** One sentence for the API description: who may call a route with `rule`. */
export function describeRule(rule: AccessRule): string {
  switch (rule.kind) {
    case 'public':
      return 'Access: anyone, signed in or not.';
    case 'signedIn':
      return 'Access: any signed-in user.';
    case 'operator':
      return 'Access: platform operators only.';
    case 'webhook':
      return 'Access: signed carrier callbacks.';
    case 'company':
      return `Access: \`${rule.ability}\` in the company (${rolesWith(rule.ability).join(', ')}).`;
  }
}

/** Whether `companyId` belongs to the business unit `unit` (an API key's limit); false without the resolver. */
async function keyReaches(app: FastifyInstance, unit: number, companyId: number): Promise<boolean> {
  const of = resolversOf.get(app)?.companyOrganizationOf;
  return of !== undefined && (await of(companyId)) === unit;
}

/**
 * The caller's effective role in the company: the request's own (admin mode) first, then membership. An API key
 * limited to a business unit is refused (403) on a company outside it before any role is looked up.
 */
async function roleFor(app: FastifyInstance, request: FastifyRequest, companyId: number): Promise<Role | null> {
  const auth = request.auth;
  if (!auth || auth.mfaPending) throw new UnauthenticatedError();
  const unit = auth.apiKey?.organizationId ?? null;
  if (unit !== null && !(await keyReaches(app, unit, companyId))) throw new ForbiddenError(API_KEY_OTHER_UNIT);
  const r = resolversOf.get(app)!;
  const override = r.roleOverride ? await r.roleOverride(request, companyId) : null;
  if (override) return override;
  return r.roleIn(auth.userId, companyId);
}
