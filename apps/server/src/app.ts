/**
 * Builds the Fastify instance: platform plugins (cookies, forms, multipart, OpenAPI at
 * /api/docs, the error handler, auth), every module's routes, the blob files at /files (streamed
 * from the configured blob store) and the built SPA at / (with client-side routing fallback).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import helmet from 'helmet';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import qs from 'qs';
import type { AppContext } from './context.js';
import { registerAuth } from './platform/auth/auth.plugin.js';
import { registerAccess } from './platform/http/access.js';
import { registerBlobFiles } from './platform/blob/serve.js';
import { registerErrorHandler } from './platform/http/error-handler.js';
import { RateLimitedError } from './platform/http/errors.js';
import { registerInputHygiene } from './platform/http/input-hygiene.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { parseFormBody } from './platform/http/form-body.js';
import { registerMetrics } from './platform/metrics.js';
import { registerOutboxMetrics, registerOutboxRoutes } from './platform/events/outbox.routes.js';
import { canJoinChannel, companyRoleOf, companyRolesOf, resolveSocketUser } from './modules/companies/companies.service.js';
import { isOperator } from './modules/auth/operators.js';
import { modules } from './modules/registry.js';

export type { App } from './platform/http/app-type.js';
import type { App } from './platform/http/app-type.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where `vite build` puts the SPA (`WEB_DIST` overrides, for the build and the server alike). */
export const WEB_DIST = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.resolve(here, '../../web/dist');

/** The OpenAPI document's introduction: authentication, scopes, rate limits, errors (docs/api-and-webhooks.md). */
const API_DESCRIPTION = [
  'Business phone and messaging platform. Paths follow the product specification below /api.',
  '',
  '## Authentication',
  'Create an API key under **Administration → API keys** (`POST /api/personalAccessTokens`): its secret is shown once.',
  'Send it on every request: `Authorization: Bearer sbk_…`. A key acts as the user who created it: it reaches the',
  "companies the user belongs to (or only those of the key's business unit), within the user's role in each company",
  "AND the key's scopes. Requests with a key need no cookie and no `X-XSRF-TOKEN`.",
  '',
  '## Scopes',
  '`<area>:read` allows GET, `<area>:write` allows POST, PUT, PATCH and DELETE, for the areas calls, messages, contacts,',
  "numbers, campaigns, reports, account and webhooks. A request outside the key's scopes answers 403",
  '`{"message": "This API key does not have the contacts:write scope."}`. Sign-in, password and API-key routes cannot be',
  'called with a key.',
  '',
  '## Rate limits',
  'Every answer carries `RateLimit-Limit` (requests per minute), `RateLimit-Remaining` and `RateLimit-Reset` (seconds).',
  'Past the limit the answer is 429 `{"message": "Too many requests. Please retry in 42 seconds."}` with `Retry-After` (seconds).',
  '',
  '## Errors',
  'Every error is `{"message": string, "errors"?: {field: [messages]}}`: 401 without a valid key, 403 outside the role or',
  'scopes, 404 for an unknown or foreign id, 422 for invalid input, 429 past the rate limit.',
  '',
  '## Example',
  '```',
  'curl -H "Authorization: Bearer sbk_…" https://switchboard.example/api/personalAccessTokens',
  '```',
  '',
  '## Webhooks',
  'Outbound webhooks (Administration → Webhooks) are signed with the Standard Webhooks scheme: headers `webhook-id`,',
  "`webhook-timestamp`, `webhook-signature` (`v1,<base64 HMAC-SHA256>` with the endpoint's `whsec_…` secret); verify",
  'them with any Standard Webhooks library. The body is `{"type": "call.completed", "timestamp": "…", "data": {…}}`.',
].join('\n');

/** Builds the app (routes registered, not listening). */
export async function buildApp(ctx: AppContext): Promise<App> {
  const app = Fastify({
    loggerInstance: ctx.log,
    // Forwarding headers count only from configured proxies (TRUST_PROXY; default none).
    trustProxy: trustProxySetting(ctx.config.trustProxy),
    bodyLimit: 25 * 1024 * 1024,
    // Bracket arrays and nested objects in query strings (foundation §7 shared conventions).
    routerOptions: { querystringParser: (str: string) => qs.parse(str, { arrayLimit: 1000, depth: 5 }) as Record<string, unknown> },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The API description is public; every other /api route needs a user (platform/auth).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...(route.config ?? {}), public: true };
  });
  registerSecurityHeaders(app, ctx);
  // brotli or gzip for compressible answers (JSON, HTML, JS, CSS); audio and images are sent as they are.
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });
  await app.register(cookie);
  await app.register(formbody, { parser: parseFormBody });
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 10 }, attachFieldsToBody: false });
  // The document at /api/docs/json: operation ids, declared answers, the answer check in tests (platform/http/openapi.ts).
  await registerOpenApi(app, API_DESCRIPTION);
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });

  registerErrorHandler(app);
  // Ready means ready (docs/operations.md "Health and readiness"): until the first-start work is done, the API answers
  // 503 with Retry-After, so nobody's first action races the demo seed. Carrier webhooks pass (the seed drives today's
  // calls through them; a carrier's traffic acts on numbers that exist).
  app.addHook('onRequest', async (request, reply) => {
    if (ctx.readiness.ready) return;
    const url = request.url;
    if (!url.startsWith('/api/') || url.startsWith('/api/health') || url.startsWith('/api/ready') || url.startsWith('/api/docs')) return;
    return reply.status(503).header('Retry-After', '2').send({ message: 'Switchboard is starting. Please try again in a moment.' });
  });
  registerInputHygiene(app);
  const metrics = registerMetrics(app, ctx.config);
  // The domain-event outbox: its metrics and the operators' routes (platform/events/outbox.routes.ts).
  const stopOutboxMetrics = registerOutboxMetrics(ctx, metrics.registry);
  app.addHook('onClose', async () => stopOutboxMetrics());
  registerAuth(app, ctx.db, ctx.hooks);
  await registerApiRateLimit(app);
  // One access declaration per route, enforced before validation (platform/http/access.ts, docs/permissions.md).
  registerAccess(app, {
    roleIn: (userId, companyId) => companyRoleOf(ctx, userId, companyId),
    rolesOf: (userId) => companyRolesOf(ctx, userId),
    isOperator: (userId) => isOperator(ctx, userId),
  });

  // Subscriptions first, so no route or job can emit an event before its reactions exist.
  for (const m of modules) m.setup?.(ctx);
  for (const m of modules) {
    if (m.routes) await m.routes(app, ctx);
  }
  // The operators' view of the domain-event outbox (platform/events/outbox.routes.ts), access declared like the modules' routes.
  registerOutboxRoutes(app, ctx);

  // Files go to the owning company's signed-in users, or through a signed URL (platform/blob/access.ts).
  registerBlobFiles(app, ctx, {
    userOf: (session, bearer) => resolveSocketUser(ctx, session, bearer),
    canRead: (userId, companyId) => canJoinChannel(ctx, userId, `company.${companyId}`),
  });
  const spa = fs.existsSync(path.join(WEB_DIST, 'index.html'));
  if (spa) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      prefix: '/',
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      // Vite's hashed assets never change under their name: a year, immutable. Anything else (index.html) is revalidated.
      setHeaders: (res, file) => res.header('Cache-Control', /[\\/]assets[\\/]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    // Client-side routes of the SPA get index.html; everything else a JSON 404 in the error shape. `/webhooks` itself is
    // the SPA's outbound-webhooks screen; carrier callbacks live below `/webhooks/`.
    if (spa && request.method === 'GET' && !/^\/(api|files|socket\.io)(\/|$)|^\/webhooks\//.test(url) && !path.extname(url)) {
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html', WEB_DIST);
    }
    return reply.status(404).send({ message: `Route ${request.method} ${url} not found.` });
  });
  return app;
}

/**
 * Fastify's `trustProxy` from TRUST_PROXY: '' → false (no forwarding header is believed), a number
 * → that many hops, 'true' → every peer (only behind a proxy that overwrites the headers), else a
 * comma-separated list of addresses or CIDRs.
 */
export function trustProxySetting(value: string): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * Security headers on every answer (helmet, its middleware built once at start and run on the raw answer of every
 * request: @fastify/helmet rebuilt it, parsing the whole policy, on every request): a Content-Security-Policy that allows only
 * the app's own scripts (and the carrier's softphone SDK endpoints, `carrier.browserOrigins`; Stripe's script, frames
 * and API with `PAYMENTS=stripe`), `frame-ancestors
 * 'none'` and `X-Frame-Options: DENY`, `nosniff`, `strict-origin-when-cross-origin`; HSTS only on
 * requests that arrived over TLS (directly or through a trusted proxy).
 */
function registerSecurityHeaders(app: App, ctx: AppContext): void {
  const carrierOrigins = ctx.carrier.browserOrigins;
  // Stripe's Payment Element and 3-D Secure run in Stripe's own script and frames (docs/billing.md); the sandbox gateway needs none.
  const stripe = ctx.config.payments === 'stripe';
  const securityHeaders = helmet({
    hsts: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? ['https://js.stripe.com'] : [])],
        frameSrc: stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...carrierOrigins, ...(stripe ? ['https://api.stripe.com'] : [])],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined)));
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
}

/**
 * Requests per minute on `/api` (docs/api-and-webhooks.md "Rate limits"): per API key, per signed-in user, else per
 * client address. Read at each request (tests lower them); API_RATE_LIMIT_* override the defaults.
 */
export const apiRateLimits = {
  apiKeyPerMinute: Number(process.env.API_RATE_LIMIT_KEY_PER_MINUTE ?? 600),
  userPerMinute: Number(process.env.API_RATE_LIMIT_USER_PER_MINUTE ?? 3000),
  anonymousPerMinute: Number(process.env.API_RATE_LIMIT_ANONYMOUS_PER_MINUTE ?? 1200),
};

/**
 * Rate limits on every `/api` answer (@fastify/rate-limit, IETF draft headers): `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the window resets); past the limit 429 in the error shape
 * `{message}` with `Retry-After` (seconds). Counted after authentication (the `preValidation` hook), so the key is
 * the API key, the user, or the address; carrier webhooks, files, the SPA, health probes and the public DNI beacons
 * (limited per visitor by the tracking module) are not. The counters live in
 * each process's memory (a limit per node).
 */
async function registerApiRateLimit(app: App): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'preValidation',
    enableDraftSpec: true,
    timeWindow: 60_000,
    // Not limited here: the API viewer, health probes, and the public DNI beacons (their own per-visitor limiter).
    allowList: (request) => !request.url.startsWith('/api/') || /^\/api\/(docs|health|dni\/public)(\/|\?|$)/.test(request.url),
    keyGenerator: (request) => (request.auth?.apiKey ? `key:${request.auth.apiKey.id}` : request.auth ? `user:${request.auth.userId}` : `ip:${request.ip}`),
    max: async (request) =>
      request.auth?.apiKey ? apiRateLimits.apiKeyPerMinute : request.auth ? apiRateLimits.userPerMinute : apiRateLimits.anonymousPerMinute,
    errorResponseBuilder: (_request, context) => new RateLimitedError(context.ttl / 1000, `Too many requests. Please retry in ${context.after}.`),
  });
}

/** Registers every module's job handlers on the queue (before `queue.start()`). */
export function registerJobs(ctx: AppContext): void {
  for (const m of modules) m.jobs?.(ctx);
}
