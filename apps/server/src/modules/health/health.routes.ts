/** `GET /api/health`: `{"status":"ok"}` once the database answers, 503 otherwise. */
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import { healthRepository } from './health.repository.js';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get('/api/health', {
    config: { public: true },
    schema: { tags: ['platform'], response: { 200: z.object({ status: z.literal('ok') }), 503: z.object({ status: z.literal('unavailable'), message: z.string() }) } },
  }, async (_req, reply) => {
    try {
      await healthRepository.ping(ctx.db);
      return { status: 'ok' as const };
    } catch (e) {
      return reply.status(503).send({ status: 'unavailable' as const, message: String((e as Error).message) });
    }
  });
}
