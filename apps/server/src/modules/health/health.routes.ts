/** `GET /api/health`: `{"status":"ok"}` once the database answers, 503 otherwise. */
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
        response: { 200: z.object({ status: z.literal('ok') }), 503: z.object({ status: z.literal('unavailable'), message: z.string() }) },
      },
    },
    async (_req, reply) => {
      const health = await checkHealth(ctx);
      return health.status === 'ok' ? health : reply.status(503).send(health);
    },
  );
}
