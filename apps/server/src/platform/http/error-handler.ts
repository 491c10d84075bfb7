/**
 * The one place that turns errors into HTTP answers in the spec's shape
 * `{"message": string, "errors"?: {field: [messages]}}` (foundation §8).
 * Validation failures → 422 with field errors; never a 500 for bad input.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, ServiceUnavailableError, isDatabaseUnavailable, isPoolTimeout, type FieldErrors } from './errors.js';
import { isMalformedMultipart } from './input-hygiene.js';

function fieldName(instancePath: string, context?: string): string {
  const p = instancePath.replace(/^\//, '').replace(/\//g, '.');
  return p || context || 'body';
}

/** Registers the error handler on the instance (the not-found handler is app.ts's, as it knows about the SPA). */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (isPoolTimeout(error)) {
      request.log.warn({ url: request.url }, 'no database connection within the deadline: 503');
      error = new ServiceUnavailableError(1);
    } else if (isDatabaseUnavailable(error)) {
      // The database is away, restarting, or a lock or statement timeout ran out: nothing was committed; retry.
      request.log.warn({ url: request.url, code: (error as { code?: string }).code, err: error.message }, 'database unavailable for this request: 503');
      error = new ServiceUnavailableError(2);
    }
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const v of error.validation) {
        const key = fieldName(v.instancePath, undefined);
        (errors[key] ??= []).push(v.message ?? 'Invalid value');
      }
      const first = Object.entries(errors)[0];
      return reply.status(422).send({ message: first ? `${first[0]}: ${first[1][0]}` : 'The given data was invalid.', errors });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause }, 'response did not match its schema');
      return reply.status(500).send({ message: 'Internal server error' });
    }
    if (isMalformedMultipart(error, request)) {
      return reply.status(422).send({ message: 'The multipart body is malformed.', errors: { body: [`The multipart body is malformed: ${error.message}`] } });
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const errors: FieldErrors = {};
      for (const v of fe.validation) (errors[fieldName(v.instancePath, fe.validationContext)] ??= []).push(v.message ?? 'Invalid value');
      return reply.status(422).send({ message: fe.message, errors });
    }
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (status >= 400 && status < 500) {
      if (status === 429 && !reply.getHeader('retry-after')) reply.header('Retry-After', '1');
      // Malformed JSON, body too large, unsupported media type: a client error, answered as such.
      return reply
        .status(status === 400 || status === 415 ? 422 : status)
        .send({ message: fe.message, errors: status === 400 || status === 415 ? { body: [fe.message] } : undefined });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Internal server error' });
  });
}
