/**
 * The tracking script's public HTTP (no sign-in; docs/tracking.md "Public endpoints"):
 * - `GET /api/dni/public/{key}/script.js`: the script with the company's configuration, cacheable
 *   5 minutes, loadable from any site (`Cross-Origin-Resource-Policy: cross-origin`).
 * - `GET /api/dni/public/{key}/session|pageview|heartbeat`: CORS for the calling page's origin with
 *   credentials (the first-party visitor cookie), `Cache-Control: no-store`, rate-limited per
 *   visitor address (`PUBLIC_RATE_LIMIT` a minute; 429 with Retry-After), 422 on bad input, 404 for
 *   an unknown key. They only ever answer the key's own company's numbers.
 * - `GET /api/dni/public/{key}/forget`: the script's one request after consent is withdrawn; the
 *   visitor's live sessions end now and the answer removes the visitor cookie (docs/tracking.md "Consent").
 * - `GET /api/dni/demo/{key}`: the sandbox's demo website (demo-site.ts).
 */
import {
  DniPublicAckBody,
  DniPublicHeartbeatInput,
  DniPublicKeyParams,
  DniPublicPageViewInput,
  DniPublicSessionBody,
  DniPublicSessionInput,
  errorResponses,
  ErrorBody,
} from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../../context.js';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import { RateLimitedError } from '../../platform/http/errors.js';
import { forgetVisitor, openSession, touchPublicSession } from './assignment.js';
import { demoPage } from './demo-site.js';
import { publicCompany } from './public-cache.js';
import { scriptFor } from './script.js';
import { textAnswer } from '../../platform/http/openapi.js';

const tags = ['call tracking (public)'];
/** Requests a minute per visitor address across the session, page view and heartbeat calls. */
export const PUBLIC_RATE_LIMIT = 120;
/** The first-party visitor cookie (docs/tracking.md "First-party cookie"). */
export const VISITOR_COOKIE = 'sb_dni_vid';
const VISITOR_COOKIE_MAX_AGE_S = 400 * 86_400;

const limiter = new RateLimiterMemory({ keyPrefix: 'dni-public', points: PUBLIC_RATE_LIMIT, duration: 60 });

/** Counts the request against the visitor address's budget. @throws RateLimitedError 429. */
async function limit(req: FastifyRequest): Promise<void> {
  try {
    await limiter.consume(req.ip);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw new RateLimitedError(e.msBeforeNext / 1000, 'Too many tracking requests. Please try again in a moment.');
    throw e;
  }
}

/** CORS for the page that runs the script (its origin, with credentials), never cached. */
function publicHeaders(req: FastifyRequest, reply: FastifyReply): void {
  const origin = req.headers.origin;
  if (origin) {
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Allow-Credentials', 'true');
  } else reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Vary', 'Origin');
  reply.header('Cache-Control', 'no-store');
  reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
}

/**
 * The visitor cookie on the answer: a year and more, httpOnly; `SameSite=None; Secure` over HTTPS
 * (the script's page is another site), Lax over plain HTTP (local use). Served from the company's
 * own subdomain (its first-party host), the cookie is scoped to the parent domain so that it is
 * first-party on the company's website.
 */
function setVisitorCookie(req: FastifyRequest, reply: FastifyReply, visitorId: string, firstPartyHost: string | null): void {
  reply.setCookie(VISITOR_COOKIE, visitorId, { ...visitorCookieScope(req, firstPartyHost), maxAge: VISITOR_COOKIE_MAX_AGE_S });
}

/** Where the visitor cookie lives (path, domain, flags): the same for setting and for removing it. */
function visitorCookieScope(req: FastifyRequest, firstPartyHost: string | null) {
  const secure = req.protocol === 'https';
  const host = (req.hostname ?? '').toLowerCase();
  const domain = firstPartyHost && host === firstPartyHost && host.split('.').length > 2 ? host.slice(host.indexOf('.') + 1) : undefined;
  return { path: '/', httpOnly: true, secure, sameSite: secure ? ('none' as const) : ('lax' as const), ...(domain ? { domain } : {}) };
}

/** Registers the public tracking endpoints and the demo site. */
export function registerTrackingPublicRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/dni/public/:key/script.js',
    {
      config: { access: access.public() },
      schema: {
        tags,
        summary: 'The tracking script of a company key (cacheable)',
        params: DniPublicKeyParams,
        response: {
          200: textAnswer('application/javascript', 'The tracking script'),
          404: textAnswer('application/javascript', 'An unknown key: a script comment'),
          422: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      const body = await scriptFor(ctx, req.params.key);
      reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('Access-Control-Allow-Origin', '*');
      if (body === null)
        return reply.status(404).type('application/javascript; charset=utf-8').header('Cache-Control', 'no-store').send('/* unknown tracking key */');
      return reply.type('application/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(body);
    },
  );

  app.get(
    '/api/dni/public/:key/session',
    {
      config: { access: access.public() },
      schema: {
        tags,
        summary: "Continue the visitor's session or start one with a number from the matching pool",
        params: DniPublicKeyParams,
        querystring: DniPublicSessionInput,
        response: { 200: DniPublicSessionBody, ...errorResponses },
      },
    },
    async (req, reply) => {
      publicHeaders(req, reply);
      await limit(req);
      const out = await openSession(ctx, req.params.key, req.query, { cookieVisitorId: req.cookies[VISITOR_COOKIE], userAgent: req.headers['user-agent'] });
      const company = await publicCompany(ctx, req.params.key);
      setVisitorCookie(req, reply, out.visitor_id, company?.firstPartyHost ?? null);
      return out;
    },
  );

  app.get(
    '/api/dni/public/:key/pageview',
    {
      config: { access: access.public() },
      schema: {
        tags,
        summary: 'A page view of a live session (single-page navigation)',
        params: DniPublicKeyParams,
        querystring: DniPublicPageViewInput,
        response: { 200: DniPublicAckBody, ...errorResponses },
      },
    },
    async (req, reply) => {
      publicHeaders(req, reply);
      await limit(req);
      return touchPublicSession(ctx, req.params.key, req.query.session_id, { url: req.query.url, title: req.query.title ?? null });
    },
  );

  app.get(
    '/api/dni/public/:key/heartbeat',
    {
      config: { access: access.public() },
      schema: {
        tags,
        summary: 'The page of a live session is still open',
        params: DniPublicKeyParams,
        querystring: DniPublicHeartbeatInput,
        response: { 200: DniPublicAckBody, ...errorResponses },
      },
    },
    async (req, reply) => {
      publicHeaders(req, reply);
      await limit(req);
      return touchPublicSession(ctx, req.params.key, req.query.session_id, null);
    },
  );

  app.get(
    '/api/dni/public/:key/forget',
    {
      config: { access: access.public() },
      schema: {
        tags,
        summary: "Consent withdrawn: the visitor's live sessions end and the visitor cookie is removed (the script cannot remove an httpOnly cookie itself)",
        params: DniPublicKeyParams,
        response: { 200: DniPublicAckBody, ...errorResponses },
      },
    },
    async (req, reply) => {
      publicHeaders(req, reply);
      await limit(req);
      const company = await forgetVisitor(ctx, req.params.key, req.cookies[VISITOR_COOKIE]);
      reply.clearCookie(VISITOR_COOKIE, visitorCookieScope(req, company.firstPartyHost));
      return { active: false };
    },
  );

  app.get(
    '/api/dni/demo/:key',
    {
      config: { access: access.public() },
      schema: {
        tags,
        summary: "The sandbox's demo website of a company key (sandbox carrier only)",
        params: DniPublicKeyParams,
        response: { 200: textAnswer('text/html', 'The demo page'), 404: textAnswer('text/plain', 'Not found'), 422: ErrorBody },
      },
    },
    async (req, reply) => {
      const page = await demoPage(ctx, req.params.key);
      if (!page) return reply.status(404).type('text/plain; charset=utf-8').send('Not found.');
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header(
          'Content-Security-Policy',
          `default-src 'self'; script-src 'self' 'nonce-${page.nonce}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'`,
        )
        .header('X-Frame-Options', 'SAMEORIGIN')
        .send(page.html);
    },
  );
}
