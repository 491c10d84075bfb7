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
import helmet from '@fastify/helmet';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import qs from 'qs';
import type { AppContext } from './context.js';
import { registerAuth } from './platform/auth/auth.plugin.js';
import { registerBlobFiles } from './platform/blob/serve.js';
import { registerErrorHandler } from './platform/http/error-handler.js';
import { registerInputHygiene } from './platform/http/input-hygiene.js';
import { parseFormBody } from './platform/http/form-body.js';
import { registerMetrics } from './platform/metrics.js';
import { canJoinChannel, resolveSocketUser } from './modules/companies/companies.service.js';
import { modules } from './modules/registry.js';

export type { App } from './platform/http/app-type.js';
import type { App } from './platform/http/app-type.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where `vite build` puts the SPA (`WEB_DIST` overrides, for the build and the server alike). */
export const WEB_DIST = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.resolve(here, '../../web/dist');

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
  await registerSecurityHeaders(app, ctx);
  // brotli or gzip for compressible answers (JSON, HTML, JS, CSS); audio and images are sent as they are.
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });
  await app.register(cookie);
  await app.register(formbody, { parser: parseFormBody });
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 10 }, attachFieldsToBody: false });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Switchboard API',
        version: '0.1.0',
        description: 'Business phone and messaging platform. Paths follow the product specification below /api.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });

  registerErrorHandler(app);
  registerInputHygiene(app);
  registerMetrics(app, ctx.config);
  registerAuth(app, ctx.db);

  // Subscriptions first, so no route or job can emit an event before its reactions exist.
  for (const m of modules) m.setup?.(ctx);
  for (const m of modules) {
    if (m.routes) await m.routes(app, ctx);
  }

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
    // Client-side routes of the SPA get index.html; everything else a JSON 404 in the error shape.
    if (spa && request.method === 'GET' && !/^\/(api|webhooks|files|socket\.io)(\/|$)/.test(url) && !path.extname(url)) {
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
 * Security headers on every answer (@fastify/helmet): a Content-Security-Policy that allows only
 * the app's own scripts (and the carrier's softphone SDK endpoints, `carrier.browserOrigins`), `frame-ancestors
 * 'none'` and `X-Frame-Options: DENY`, `nosniff`, `strict-origin-when-cross-origin`; HSTS only on
 * requests that arrived over TLS (directly or through a trusted proxy).
 */
async function registerSecurityHeaders(app: App, ctx: AppContext): Promise<void> {
  const carrierOrigins = ctx.carrier.browserOrigins;
  await app.register(helmet, {
    global: true,
    hsts: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...carrierOrigins],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
}

/** Registers every module's job handlers on the queue (before `queue.start()`). */
export function registerJobs(ctx: AppContext): void {
  for (const m of modules) m.jobs?.(ctx);
}
