/**
 * Records every state-changing `/api` request (POST, PUT, PATCH, DELETE) of a known caller in the audit log, after
 * its answer (docs/audit.md "What is recorded"): success (2xx, 3xx) and refusal (401, 403, 419, 429) both; invalid
 * input (422), unknown ids (404), conflicts and server errors are not changes and are not recorded, nor requests
 * without a signed-in caller (public tracking beacons, failed sign-ins). A failure to write an entry is logged and
 * never changes the answer. A route whose handler records its own entry says so (`config.auditedByHandler`); the
 * admin-mode GET `remoteLogin`, which is not state-changing, is recorded by its handler (modules/auth).
 *
 * - who: `request.auth`: the user; the API key (`actor_kind` 'api_key'); an operator in admin mode (`operatorUserId`
 *   on the auth context: `actor_kind` 'operator', the account's user as `actor_user_id`).
 * - what: the entity and action from the route pattern (`/api/blocks/:id` DELETE → `blocks` `delete`;
 *   `/api/inbox/conversations/:id/archive` → `conversations` `archive`), the entity id from the path or the answer's
 *   `data.id`, the submitted body redacted (`redact`).
 * - company: the one the access check resolved (`request.access`), else path `companyId`, query or body
 *   `company_id` / `company`, `/api/companies/:id`, the answer's `data.company_id`, else the entity's company from a
 *   resolver its module provided (the `auditCompanyOf` hook).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import { recordAudit, recordRoutineAudit } from './audit.service.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };
/** Routes whose requests are not worth an entry (the simulator's and development tools' own traffic). */
const SKIPPED = /^\/api\/(simulator|dev|broadcasting)(\/|$)/;
const KEEP_ANSWER_BYTES = 64 * 1024;
/**
 * Routine requests that change nothing a person decided: the softphone's access token (in-app calling), renewed on every page load
 * and before it expires (issue 23: the log was flooded with "create token"). Recorded at most once an hour per person,
 * company and route, so the log still shows who used them and when.
 */
const ROUTINE = /^\/api\/companies\/:companyId\/in-app-calling\/token$/;
/** How long a routine request's entry stands for the same person's repeats. */
export const ROUTINE_AUDIT_WINDOW_MS = 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's handler records its own audit entry (e.g. leaving admin mode): the hook skips it. */
    auditedByHandler?: boolean;
  }
  interface FastifyRequest {
    /** The answer's parsed JSON (for `data.id`, `data.company_id`), kept by the audit hook on state-changing requests. */
    auditAnswer?: unknown;
  }
}

function positiveInt(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Entity type, id and action from a route pattern and its params (see the module doc). */
export function describeRoute(
  method: string,
  pattern: string,
  params: Record<string, unknown>,
): { entityType: string; entityId: string | null; action: string } {
  const segments = pattern
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean);
  const verb = VERBS[method] ?? method.toLowerCase();
  const last = segments.length - 1;
  const isParam = (s: string | undefined) => s !== undefined && s.startsWith(':');
  const value = (s: string) => {
    const v = params[s.slice(1)];
    return v === undefined || v === null ? null : String(v);
  };
  if (last >= 0 && isParam(segments[last])) {
    const entity = [...segments].reverse().find((s) => !isParam(s)) ?? 'request';
    return { entityType: entity, entityId: value(segments[last]!), action: verb };
  }
  if (last >= 2 && isParam(segments[last - 1])) {
    // `/…/conversations/:id/archive`: an action on the entity before the id.
    const entity =
      segments
        .slice(0, last - 1)
        .reverse()
        .find((s) => !isParam(s)) ?? 'request';
    return { entityType: entity, entityId: value(segments[last - 1]!), action: segments[last]! };
  }
  return { entityType: segments[last] ?? 'request', entityId: null, action: verb };
}

/** Finds the company of an entity (by its id) for entries whose request names no company; per app database. */
/**
 * The `auditCompanyOf` hook, keyed by `entityType` (the route segment, e.g. `webhook-endpoints`): how the audit hook
 * finds the entity's company when a request names only its id (a module's setup provides it; the audit module is
 * below every other).
 */
export type AuditCompanyOf = HookFn<'auditCompanyOf'>;

function companyOf(request: FastifyRequest, answer: unknown): number | null {
  const checked = request.access?.companyIds?.[0];
  if (checked) return checked;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
  const fromCompaniesPath = /^\/api\/companies\/:id(\/|$)/.test(request.routeOptions.url ?? '') ? params.id : undefined;
  const data = answer && typeof answer === 'object' ? (answer as { data?: { company_id?: unknown } }).data : undefined;
  for (const v of [
    params.companyId,
    fromCompaniesPath,
    query.company_id,
    query.company,
    body.company_id,
    data && typeof data === 'object' ? data.company_id : undefined,
  ]) {
    const n = positiveInt(v);
    if (n) return n;
  }
  return null;
}

function outcomeOf(status: number): 'success' | 'refused' | null {
  if (status < 400) return 'success';
  if (status === 401 || status === 403 || status === 419 || status === 429) return 'refused';
  return null;
}

/** Registers the hooks that record state-changing requests (docs/audit.md). */
export function registerAuditHooks(app: App, ctx: AppContext): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!STATE_CHANGING.has(request.method) || !request.auth || reply.statusCode >= 400) return payload;
    if (typeof payload === 'string' && payload.length <= KEEP_ANSWER_BYTES && String(reply.getHeader('content-type') ?? '').includes('json')) {
      try {
        request.auditAnswer = JSON.parse(payload);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    return payload;
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const pattern = request.routeOptions.url;
    if (!STATE_CHANGING.has(request.method) || !request.auth || !pattern || !pattern.startsWith('/api/') || SKIPPED.test(pattern)) return;
    if (request.routeOptions.config?.auditedByHandler) return;
    const outcome = outcomeOf(reply.statusCode);
    if (!outcome) return;
    const auth = request.auth;
    const params = (request.params ?? {}) as Record<string, unknown>;
    const { entityType, entityId, action } = describeRoute(request.method, pattern, params);
    const answer = request.auditAnswer;
    const answerId = answer && typeof answer === 'object' ? (answer as { data?: { id?: unknown } }).data?.id : undefined;
    const operatorUserId = auth.operatorUserId ?? null;
    try {
      let companyId = companyOf(request, answer);
      if (companyId === null && entityId !== null) companyId = (await ctx.hooks.of('auditCompanyOf', entityType)?.(entityId)) ?? null;
      const path = request.url.split('?')[0] ?? request.url;
      const routine = ROUTINE.test(pattern) ? { companyId, actorUserId: auth.userId, path, outcome, withinMs: ROUTINE_AUDIT_WINDOW_MS } : null;
      const record: Parameters<typeof recordAudit>[1] = {
        company_id: companyId,
        actor_kind: operatorUserId !== null ? 'operator' : auth.apiKey ? 'api_key' : 'user',
        actor_user_id: auth.userId,
        actor_name: null,
        api_key_id: auth.apiKey?.id ?? null,
        operator_user_id: operatorUserId,
        action,
        entity_type: entityType,
        entity_id: entityId ?? (typeof answerId === 'number' || typeof answerId === 'string' ? String(answerId) : null),
        method: request.method,
        path,
        status_code: reply.statusCode,
        outcome,
        changes: request.body ?? null,
        ip: request.ip,
        user_agent: request.headers['user-agent'] ?? null,
      };
      // A routine request (the softphone token) is recorded once per window; anything else every time.
      if (routine) await recordRoutineAudit(ctx, record, routine);
      else await recordAudit(ctx, record);
    } catch (error) {
      request.log.error({ err: error, url: request.url }, 'audit entry not written');
    }
  });
}
