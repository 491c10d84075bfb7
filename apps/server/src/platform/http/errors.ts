/**
 * Coded errors thrown by services and platform code; only the HTTP layer (error-handler.ts)
 * maps them to status codes and the spec's error shape `{ message, errors? }` (foundation §8).
 */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 422: input that fails a rule; `errors` maps field names to messages. */
export class ValidationError extends AppError {
  constructor(errors: FieldErrors, message?: string) {
    super(422, message ?? Object.values(errors).flat()[0] ?? 'The given data was invalid.', errors);
  }
}
/** 422 with one field error. */
export function fieldError(field: string, message: string): ValidationError {
  return new ValidationError({ [field]: [message] });
}
/** 401: no valid session or token. */
export class UnauthenticatedError extends AppError {
  constructor(message = 'Unauthenticated.') {
    super(401, message);
  }
}
/** 403: authenticated but not allowed. */
export class ForbiddenError extends AppError {
  constructor(message = "You're not authorized to perform this action") {
    super(403, message);
  }
}
/** 404: the object does not exist or is not visible to the caller. */
export class NotFoundError extends AppError {
  constructor(what = 'Resource') {
    super(404, `${what} not found.`);
  }
}
/** 409: the request conflicts with the current state. */
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
/** 429 with `Retry-After` in whole seconds. */
export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, message = 'Too many attempts. Please try again later.') {
    super(429, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
/** 419: missing or mismatched anti-forgery token (Laravel's "page expired"). */
export class CsrfError extends AppError {
  constructor() {
    super(419, 'CSRF token mismatch. Reload the page and try again.');
  }
}
/** 502: the carrier refused or failed a request we made. */
export class CarrierError extends AppError {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(502, message);
  }
}
/**
 * 503 with `Retry-After` in whole seconds: the server cannot take the request now (no database
 * connection within DB_ACQUIRE_TIMEOUT_MS, shutting down). Carriers retry webhooks answered so.
 */
export class ServiceUnavailableError extends AppError {
  constructor(retryAfterSeconds = 1, message = 'The service is busy. Please try again in a moment.') {
    super(503, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
/**
 * True for node-postgres' pool wait running past its `connectionTimeoutMillis` (DB_ACQUIRE_TIMEOUT_MS):
 * the pool had no free connection in time. Mapped to 503 by the error handler.
 */
export function isPoolTimeout(error: unknown): boolean {
  // The second form: the pool had room but opening a new connection took longer than the same deadline.
  return error instanceof Error && /timeout exceeded when trying to connect|connection terminated due to connection timeout/i.test(error.message);
}
/** SQLSTATE codes of a database that is away, restarting or too busy for this statement (answered 503). */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown: terminating connection due to administrator command (restart, pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the database is starting up or shutting down
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '08001', // unable to connect
  '53300', // too_many_connections
  '55P03', // lock_not_available: lock_timeout (DB_LOCK_TIMEOUT_MS) ran out
  '57014', // query_canceled: statement_timeout (DB_STATEMENT_TIMEOUT_MS) ran out
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/**
 * True for a failure that is the database's state, not the request's fault: unreachable, restarting,
 * a connection that broke, a lock or statement timeout, a deadlock. Answered 503 with `Retry-After`
 * by the error handler, so a carrier or client retries (nothing was committed).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND'].includes(code)))
    return true;
  return /Connection terminated|not queryable|Client was closed|Connection ended|terminating connection/i.test(error.message);
}

/**
 * Awaits an access check and turns only a refusal (ForbiddenError, NotFoundError) into
 * NotFoundError(`what`), so another company's object looks absent; any other failure (database,
 * pool deadline) passes through unchanged and is answered as what it is.
 */
export async function deniedAsNotFound(check: Promise<unknown>, what: string): Promise<void> {
  try {
    await check;
  } catch (e) {
    if (e instanceof ForbiddenError || e instanceof NotFoundError) throw new NotFoundError(what);
    throw e;
  }
}
