/**
 * Prometheus metrics (ARCHITECTURE: `/metrics`): process defaults plus HTTP request durations by
 * method, route and status (seconds), and carrier webhook outcomes. One registry per app so tests
 * and several apps in one process do not collide.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Metrics = { registry: Registry; webhooks: Counter<'kind' | 'status'> };

/** Creates the registry and hooks request timing into the app. */
export function registerMetrics(app: FastifyInstance): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const webhooks = new Counter({ name: 'carrier_webhooks_total', help: 'Carrier webhooks by kind and answer status', labelNames: ['kind', 'status'] as const, registers: [registry] });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    duration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    if (route.startsWith('/webhooks/')) webhooks.inc({ kind: route.replace('/webhooks/twilio/', ''), status: String(reply.statusCode) });
  });
  app.get('/metrics', { config: { public: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return { registry, webhooks };
}
