/**
 * The event-loop metrics and watchdog (platform/metrics.ts; docs/operations.md "Event loop") on a
 * bare Fastify app: a handler that holds the loop for 300 ms is logged once with its route and
 * counted; `/metrics` carries the loop's delay; short handlers log nothing.
 */
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerMetrics } from './metrics.js';

type Logged = { obj: Record<string, unknown>; msg: string };

function capturingLogger(into: Logged[]): FastifyBaseLogger {
  const log: any = {
    level: 'info',
    child: () => log,
    fatal: () => {},
    error: () => {},
    info: () => {},
    debug: () => {},
    trace: () => {},
    silent: () => {},
    warn: (obj: Record<string, unknown>, msg: string) => into.push({ obj, msg }),
  };
  return log as FastifyBaseLogger;
}

/** Holds the event loop for `ms` (a synchronous busy wait, as a quadratic parse would). */
function block(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy
  }
}

const apps: Array<{ close: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

async function appWithMetrics(logged: Logged[]) {
  const app = Fastify({ loggerInstance: capturingLogger(logged) });
  registerMetrics(app, { metricsToken: '' });
  app.post('/webhooks/slow/:id', async () => {
    block(300);
    return { ok: true };
  });
  app.get('/fast', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  apps.push(app);
  const address = app.server.address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}` };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('event loop watchdog', () => {
  it('logs a handler that blocks the loop for more than 200 ms once, with its method and route, and counts it', async () => {
    const logged: Logged[] = [];
    const { url } = await appWithMetrics(logged);
    await settle(120);
    expect((await fetch(`${url}/webhooks/slow/7`, { method: 'POST' })).status).toBe(200);
    await settle(150);
    const blocks = logged.filter((l) => l.msg === 'event loop blocked');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.obj).toMatchObject({ method: 'POST', route: '/webhooks/slow/:id' });
    expect(blocks[0]!.obj.blockedMs as number).toBeGreaterThanOrEqual(200);
    expect(blocks[0]!.obj.blockedMs as number).toBeLessThan(2000);

    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/^eventloop_blocks_total\{method="POST",route="\/webhooks\/slow\/:id"\} 1$/m);
    expect(metrics).toMatch(/^eventloop_block_seconds_count 1$/m);
    // The delay since the last scrape includes the 300 ms stall.
    const max = Number(/^eventloop_delay_seconds\{quantile="max"\} ([\d.e-]+)$/m.exec(metrics)?.[1]);
    expect(max).toBeGreaterThan(0.2);
    // Reset on each scrape: the next one no longer sees the stall.
    await settle(100);
    const again = await (await fetch(`${url}/metrics`)).text();
    expect(Number(/^eventloop_delay_seconds\{quantile="max"\} ([\d.e-]+)$/m.exec(again)?.[1])).toBeLessThan(0.2);
  });

  it('stays quiet while handlers are short, and names no route for a stall outside any request', async () => {
    const logged: Logged[] = [];
    const { url } = await appWithMetrics(logged);
    for (let i = 0; i < 20; i++) expect((await fetch(`${url}/fast`)).status).toBe(200);
    await settle(120);
    expect(logged.filter((l) => l.msg === 'event loop blocked')).toHaveLength(0);
    block(300); // a timer or job holding the loop, no request in flight
    await settle(120);
    expect(logged.filter((l) => l.msg === 'event loop blocked').map((l) => l.obj.route)).toEqual(['-']);
  });

  it('stops its timer when the app closes', async () => {
    const logged: Logged[] = [];
    const { app } = await appWithMetrics(logged);
    await app.close();
    block(300);
    await settle(120);
    expect(logged.filter((l) => l.msg === 'event loop blocked')).toHaveLength(0);
  });
});
