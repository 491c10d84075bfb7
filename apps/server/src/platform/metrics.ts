/**
 * Prometheus metrics (ARCHITECTURE: `/metrics`): process defaults plus HTTP request durations by
 * method, route and status (seconds), and carrier webhook outcomes. One registry per app so tests
 * and several apps in one process do not collide.
 *
 * Who may read them (docs/operations.md "Metrics", docs/auth.md): with METRICS_TOKEN set, only a
 * request with `Authorization: Bearer <METRICS_TOKEN>` (else 401); without it, only a loopback
 * peer (the socket's own address, whatever TRUST_PROXY says) whose request carries no forwarding
 * header, so a reverse proxy on the same machine does not publish them (else 403).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { safeEqual } from './auth/tokens.js';
import type { Config } from './config.js';

export type Metrics = { registry: Registry; webhooks: Counter<'kind' | 'status'> };

/** Whether `address` (a socket's peer address) is a loopback address (127.0.0.0/8, ::1, IPv4-mapped loopback). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'];

/** 'ok', or why `/metrics` is refused to this request (see the module comment). */
export function metricsAccess(request: Pick<FastifyRequest, 'headers' | 'socket'>, token: string): 'ok' | 'unauthorized' | 'forbidden' {
  if (token) {
    const header = request.headers.authorization;
    const sent = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    return sent && safeEqual(sent, token) ? 'ok' : 'unauthorized';
  }
  const forwarded = FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined);
  return isLoopback(request.socket.remoteAddress) && !forwarded ? 'ok' : 'forbidden';
}

/** Creates the registry and hooks request timing into the app; `config.metricsToken` is read per request. */
export function registerMetrics(app: FastifyInstance, config: Pick<Config, 'metricsToken'>): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'carrier_webhooks_total',
    help: 'Carrier webhooks by kind and answer status',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    duration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    if (route.startsWith('/webhooks/')) webhooks.inc({ kind: route.replace(/^\/webhooks\/[^/]+\//, ''), status: String(reply.statusCode) });
  });
  app.get('/metrics', { config: { public: true } }, async (request, reply) => {
    const access = metricsAccess(request, config.metricsToken);
    if (access === 'unauthorized') return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send({ message: 'Unauthenticated.' });
    if (access === 'forbidden') return reply.code(403).send({ message: 'Metrics are served to loopback only; set METRICS_TOKEN to read them from elsewhere.' });
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return { registry, webhooks };
}
