/**
 * The type of the Fastify instance every module registers its routes on: Fastify with the zod
 * type provider (route schemas type `req.params`, `req.query`, `req.body` and the reply).
 * Lives here, not in `app.ts`, so routes files depend on the platform and not on the app that
 * assembles them.
 */
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
