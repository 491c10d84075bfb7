/**
 * Prometheus metrics (ARCHITECTURE: `/metrics`): process defaults plus HTTP request durations by
 * method, route and status (seconds), and carrier webhook outcomes. One registry per app so tests
 * and several apps in one process do not collide.
 *
 * Who may read them (docs/operations.md "Metrics", docs/auth.md): with METRICS_TOKEN set, only a
 * request with `Authorization: Bearer <METRICS_TOKEN>` (else 401); without it, only a loopback
 * peer (the socket's own address, whatever TRUST_PROXY says) whose request carries no forwarding
 * header, so a reverse proxy on the same machine does not publish them (else 403).
 *
 * Event loop (docs/operations.md "Event loop"): `eventloop_delay_seconds` (quantiles and max of
 * `perf_hooks.monitorEventLoopDelay` since the previous scrape), and a watchdog that logs every
 * stall of the loop longer than 200 ms once, with the method and route of the request being
 * handled, counted in `eventloop_blocks_total{route}` and `eventloop_block_seconds`.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
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
  startEventLoopWatchdog(app, registry);
  app.get('/metrics', { config: { public: true } }, async (request, reply) => {
    const access = metricsAccess(request, config.metricsToken);
    if (access === 'unauthorized') return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send({ message: 'Unauthenticated.' });
    if (access === 'forbidden') return reply.code(403).send({ message: 'Metrics are served to loopback only; set METRICS_TOKEN to read them from elsewhere.' });
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return { registry, webhooks };
}

/** A request the watchdog knows about: its method and route pattern (`/webhooks/twilio/messaging`, not the URL), and when it ended. */
type Handling = { method: string; route: string; leftAt?: number };
/** How many recent hook passages the watchdog remembers. */
const NOTED = 256;

/** Options of {@link startEventLoopWatchdog}. */
export type WatchdogOptions = {
  /** A stall longer than this is logged and counted (ms; default 200). */
  thresholdMs?: number;
  /** How often the watchdog's timer is due (ms; default 50): a stall is seen at most this much late. */
  intervalMs?: number;
  /** Where stalls are logged (default the app's logger). */
  log?: FastifyBaseLogger;
};

/**
 * Watches the event loop of this process (issue 22 §1; docs/operations.md "Event loop"):
 * - `eventloop_delay_seconds{quantile="0.5"|"0.99"|"max"}`: the loop's delay measured by
 *   `perf_hooks.monitorEventLoopDelay` (20 ms resolution) since the previous scrape (reset on each);
 * - a timer due every `intervalMs`: when it runs more than `thresholdMs` late, something held the
 *   loop that long. It logs one warning per stall (`event loop blocked`, with `blockedMs`, the
 *   `method` and `route` of the request being handled, and the routes still in flight), and counts it in `eventloop_blocks_total{method, route}` and
 *   the histogram `eventloop_block_seconds`. The stall is credited to the request whose handling
 *   last began or resumed through a hook (onRequest, preHandler, onSend) before the stall, unless it
 *   had already finished; work outside any request (a timer, a job, a socket) shows as route `-`.
 *   Code that runs after an `await` inside a handler is credited to the last request that passed a
 *   hook, so the other requests in flight are logged too.
 * Both stop when the app closes; the timer never keeps the process alive.
 * @returns the stop function (also run by `onClose`).
 */
export function startEventLoopWatchdog(app: FastifyInstance, registry: Registry, opts: WatchdogOptions = {}): () => void {
  const thresholdMs = opts.thresholdMs ?? 200;
  const intervalMs = opts.intervalMs ?? 50;
  const log = opts.log ?? app.log;
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  new Gauge({
    name: 'eventloop_delay_seconds',
    help: 'Event loop delay since the previous scrape (perf_hooks.monitorEventLoopDelay), by quantile',
    labelNames: ['quantile'] as const,
    registers: [registry],
    collect() {
      // Before any sample the histogram answers its initial extremes: report zero then.
      const seen = delay.count > 0;
      this.set({ quantile: '0.5' }, seen ? delay.percentile(50) / 1e9 : 0);
      this.set({ quantile: '0.99' }, seen ? delay.percentile(99) / 1e9 : 0);
      this.set({ quantile: 'max' }, seen ? delay.max / 1e9 : 0);
      delay.reset();
    },
  });
  const blocks = new Counter({
    name: 'eventloop_blocks_total',
    help: `Event loop stalls longer than ${thresholdMs} ms, by the route being handled`,
    labelNames: ['method', 'route'] as const,
    registers: [registry],
  });
  const blockSeconds = new Histogram({
    name: 'eventloop_block_seconds',
    help: `Length of event loop stalls longer than ${thresholdMs} ms`,
    buckets: [0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });

  // Each time a request's handling begins or resumes through a hook, it is noted with the time; a
  // stall is credited to the last one noted before it began (entries made after the stall are
  // recent: hooks of requests that waited for the loop), unless that request had already finished.
  const inFlight = new Map<string, Handling>();
  const noted: Array<{ h: Handling; at: number }> = [];
  let next = 0;
  const enter = (request: FastifyRequest): void => {
    let h = inFlight.get(request.id);
    // A reply that never finishes (hijacked) leaves its entry: never let them pile up.
    if (!h && inFlight.size >= 10_000) inFlight.clear();
    if (!h) inFlight.set(request.id, (h = { method: request.method, route: request.routeOptions.url ?? 'unmatched' }));
    noted[next] = { h, at: performance.now() };
    next = (next + 1) % NOTED;
  };
  const leave = (request: FastifyRequest): void => {
    const h = inFlight.get(request.id);
    if (h) h.leftAt = performance.now();
    inFlight.delete(request.id);
  };
  /** The request being handled when a stall that ended by `now` began, or null (none: a timer, a job, a socket). */
  const culprit = (now: number): Handling | null => {
    const before = now - thresholdMs;
    for (let i = 1; i <= NOTED; i++) {
      const n = noted[(next - i + NOTED) % NOTED];
      if (!n) return null;
      if (n.at > before) continue;
      return n.h.leftAt !== undefined && n.h.leftAt <= before ? null : n.h;
    }
    return null;
  };
  // Synchronous hooks (no promise): nothing added to a request's latency but a Map operation.
  app.addHook('onRequest', (request, _reply, done) => (enter(request), done()));
  app.addHook('preHandler', (request, _reply, done) => (enter(request), done()));
  app.addHook('onSend', (request, _reply, payload, done) => (enter(request), done(null, payload)));
  app.addHook('onResponse', (request, _reply, done) => (leave(request), done()));
  app.addHook('onRequestAbort', (request, done) => (leave(request), done()));

  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const blockedMs = now - last - intervalMs;
    last = now;
    if (blockedMs <= thresholdMs) return;
    const h: Handling = culprit(now) ?? { method: '-', route: '-' };
    blocks.inc({ method: h.method, route: h.route });
    blockSeconds.observe(blockedMs / 1000);
    const others = [...inFlight.values()].filter((r) => r !== h).slice(0, 10);
    log.warn(
      { blockedMs: Math.round(blockedMs), method: h.method, route: h.route, inFlight: others.map((r) => `${r.method} ${r.route}`) },
      'event loop blocked',
    );
  }, intervalMs);
  timer.unref();

  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    delay.disable();
  };
  app.addHook('onClose', (_app, done) => (stop(), done()));
  return stop;
}
