/**
 * Input hygiene for every route (foundation §8: malformed input answers 422 with field errors,
 * never 500; docs/domain-decisions.md "Input hygiene"). PostgreSQL refuses the NUL character in
 * text, and a lone UTF-16 surrogate is not text at all, so both are stopped at the door:
 *
 * - API routes: a `preValidation` hook walks the parsed path parameters, query and body (JSON or
 *   form) and answers 422 naming each offending field (`contact.first_name`, `tags.0`) when a
 *   string (or an object key) contains U+0000 or a lone surrogate, or when a string is longer than
 *   {@link MAX_TEXT_LENGTH} characters. Multipart fields are not parsed by then: the multipart
 *   readers pass their text fields through {@link assertCleanFields}.
 * - Carrier webhooks (`/webhooks/...`): the carrier signed what it sent, and refusing would make
 *   it retry and lose the message, so NUL characters are removed and lone surrogates replaced by
 *   U+FFFD instead — after the signature check (a `preHandler` appended behind the route's own).
 *   Their bodies are at most {@link WEBHOOK_BODY_LIMIT} (413 before anything is read or parsed;
 *   docs/operations.md "Bounds on outside input").
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { ValidationError, type FieldErrors } from './errors.js';

/**
 * Longest string accepted in any single field of an API request (characters), unless the route
 * raises it (`config.maxTextLength`, e.g. a document sent as base64); each schema bounds its own
 * fields further.
 */
export const MAX_TEXT_LENGTH = 10_000;

/**
 * Largest body of a webhook route under `/webhooks/` (bytes), unless the route sets its own
 * `bodyLimit`: 1 MiB. A real carrier post is a few KB (Twilio: a body of at most 1,600 characters,
 * at most 19 KB form-encoded, plus 10 media URLs); 1 MiB still takes a 64 K-character text of any
 * script (the adapter cuts it to 1,600 and says so), while decoding and verifying it stays well under
 * 100 ms of the event loop. A bigger body is answered 413 at once, unread (the app's 25 MB limit is
 * for uploads).
 */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's longest accepted string per field (characters; default {@link MAX_TEXT_LENGTH}). */
    maxTextLength?: number;
  }
}

/** A lone high or low surrogate (not part of a pair). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Why `text` is refused, or undefined when it is clean. */
function problem(text: string, field: string, maxLength: number): string | undefined {
  if (text.includes('\u0000')) return `The ${field} field must not contain NUL characters.`;
  if (LONE_SURROGATE.test(text)) return `The ${field} field must be valid Unicode text.`;
  if (text.length > maxLength) return `The ${field} field must not be greater than ${maxLength} characters.`;
  return undefined;
}

/**
 * Field errors for every string (and object key) inside `value`, named by their dotted path below
 * `prefix`. Iterative, so a deeply nested JSON body cannot exhaust the stack.
 */
export function textProblems(value: unknown, prefix = '', maxLength = MAX_TEXT_LENGTH): FieldErrors {
  const errors: FieldErrors = {};
  const add = (path: string, text: string): void => {
    const field = path || 'body';
    const p = problem(text, field.replace(/\u0000/g, ''), maxLength);
    if (p) (errors[field.replace(/\u0000/g, '\\0')] ??= []).push(p);
  };
  const stack: Array<[unknown, string]> = [[value, prefix]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') add(path, v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const childPath = path ? `${path}.${k}` : k;
        // Keys are bounded by their own rule (255), a NUL or lone surrogate in a key is refused as well.
        const keyProblem = problem(k, 'key', 255);
        if (keyProblem) (errors[(path || 'body').replace(/\u0000/g, '\\0')] ??= []).push(keyProblem);
        stack.push([child, childPath]);
      }
    }
  }
  return errors;
}

/**
 * Throws 422 when a multipart request's text fields (or its files' names, reported on `file`)
 * carry NUL, a lone surrogate or over-long text.
 * @throws ValidationError with one entry per offending field
 */
export function assertCleanFields(fields: Record<string, unknown>, files: ReadonlyArray<{ filename: string }> = []): void {
  const errors: FieldErrors = Object.assign(textProblems(fields), ...files.map((f) => textProblems(f.filename, 'file', 255)));
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** Removes NUL characters and replaces lone surrogates (U+FFFD) in every string of `value`, in place. */
function scrub(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\u0000/g, '').replace(LONE_SURROGATES, '\uFFFD');
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) (value as Record<string, unknown>)[k] = scrub(v);
  }
  return value;
}

const isWebhook = (url: string): boolean => url.startsWith('/webhooks/');

/**
 * Registers the hooks on `app` (before any route: the webhook scrubber is attached per route by an
 * `onRoute` hook).
 */
export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isWebhook(route.url)) return;
    route.bodyLimit ??= WEBHOOK_BODY_LIMIT;
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [
      ...own,
      async (request: FastifyRequest) => {
        request.body = scrub(request.body);
        request.query = scrub(request.query);
      },
    ];
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (isWebhook(request.url)) return;
    const max = request.routeOptions.config?.maxTextLength ?? MAX_TEXT_LENGTH;
    const errors: FieldErrors = {
      ...textProblems(request.params, '', max),
      ...textProblems(request.query, '', max),
      ...(request.isMultipart() ? {} : textProblems(request.body, '', max)),
    };
    if (Object.keys(errors).length) throw new ValidationError(errors);
  });
}

/**
 * True when `error` is the multipart parser refusing the request body (no boundary, truncated
 * data, malformed part headers): the client's fault, answered 422 by the error handler.
 */
export function isMalformedMultipart(error: unknown, request: FastifyRequest): boolean {
  if (!(error instanceof Error) || (error as { statusCode?: number }).statusCode) return false;
  const multipart = /^multipart\//i.test(String(request.headers['content-type'] ?? ''));
  return multipart && (/busboy|dicer/i.test(error.stack ?? '') || /^(Multipart:|Unexpected end of|Malformed)/.test(error.message));
}
