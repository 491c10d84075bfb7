/**
 * `GET /api/health`: `{"status":"ok","ready":true}` once the database answers (`ready`: migrations and the
 * first-start seed done), 503 `{"status":"degraded",…}` while it does not. `GET /api/ready`: 200 once ready,
 * 503 before (for load balancers and scripts that wait for the product, not only the process).
 */
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { checkHealth } from './health.service.js';

/** Registers the public health check. */
export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/health',
    {
      config: { access: access.public() },
      schema: {
        tags: ['platform'],
        summary: 'Liveness: whether the database answers, and whether the product is ready',
        response: {
          200: z.object({ status: z.literal('ok'), ready: z.boolean() }),
          503: z.object({ status: z.literal('degraded'), ready: z.boolean(), message: z.string() }),
        },
      },
    },
    async (_req, reply) => {
      const health = await checkHealth(ctx);
      return health.status === 'ok' ? health : reply.status(503).header('Retry-After', '2').send(health);
    },
  );
  app.get(
    '/api/ready',
    {
      config: { access: access.public() },
      schema: {
        tags: ['platform'],
        summary: 'Readiness: 200 once migrations and the first-start seed are done and the database answers, else 503',
        response: { 200: z.object({ ready: z.literal(true) }), 503: z.object({ ready: z.literal(false), message: z.string() }) },
      },
    },
    async (_req, reply) => {
      const health = await checkHealth(ctx);
      if (health.status === 'ok' && health.ready) return { ready: true as const };
      const message = health.status !== 'ok' ? health.message : (ctx.readiness.reason ?? 'starting');
      return reply
        .status(503)
        .header('Retry-After', '2')
        .send({ ready: false as const, message });
    },
  );
}
