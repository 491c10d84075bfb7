/**
 * Greetings HTTP routes (spec 002 §7 "Greetings"; docs/telephony.md "APIs"):
 * GET /api/greetings?company_id; GET/DELETE /api/greetings/{id};
 * POST /api/greetings (multipart: company_id, name, content, voice, file; `_method=PUT` + id updates, spec 002 §7);
 * PUT /api/greetings/{id} (the same update on the greeting's own path);
 * GET /api/greetings/voices; POST /api/greetings/speak {content, voice} → audio/wav;
 * GET/PUT /api/numbers/{id}/greetings (assignments to the number's menu, voicemail, whisper).
 */
import {
  GreetingBody,
  GreetingFormFields,
  GreetingListBody,
  GreetingListQuery,
  GreetingSavedBody,
  IdParams,
  MessageBody,
  NumberGreetingsBody,
  PutNumberGreetingsInput,
  SpeakInput,
  VoiceListBody,
  errorResponses,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import { readMultipart, type UploadedFile } from '../../platform/http/multipart.js';
import { deleteGreeting, getGreeting, getNumberGreetings, listGreetings, listVoices, putNumberGreetings, saveGreeting, speak } from './greetings.service.js';
import { fileAnswer } from '../../platform/http/openapi.js';

function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  return errors;
}

/** Registers the greetings routes (HTTP only; the service checks access). */
export function registerGreetingsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/greetings/voices',
    { config: { access: access.signedIn() }, schema: { tags: ['greetings'], response: { 200: VoiceListBody, ...errorResponses } } },
    async () => listVoices(),
  );

  app.post(
    '/api/greetings/speak',
    {
      config: { access: access.company('numbers.manage') },
      schema: {
        tags: ['greetings'],
        summary: 'Synthesized speech (audio/wav) of content in voice',
        body: SpeakInput,
        response: { 200: fileAnswer('audio/wav', 'The spoken text (WAV)'), ...errorResponses },
      },
    },
    async (req, reply) =>
      reply
        .type('audio/wav')
        .header('cache-control', 'no-store')
        .send(await speak(req.auth!.userId, req.body)),
  );

  app.get(
    '/api/greetings',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags: ['greetings'], querystring: GreetingListQuery, response: { 200: GreetingListBody, ...errorResponses } },
    },
    async (req) => listGreetings(ctx, req.auth!.userId, req.query.company_id),
  );

  app.get(
    '/api/greetings/:id',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags: ['greetings'], params: IdParams, response: { 200: GreetingBody, ...errorResponses } },
    },
    async (req) => getGreeting(ctx, req.auth!.userId, req.params.id),
  );

  app.delete(
    '/api/greetings/:id',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags: ['greetings'], params: IdParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (req) => deleteGreeting(ctx, req.auth!.userId, req.params.id),
  );

  app.post(
    '/api/greetings',
    {
      config: { access: access.company('numbers.manage') },
      schema: {
        tags: ['greetings'],
        summary: 'Create (or with _method=PUT and id, update) a greeting: multipart company_id, name, content, voice, file; or JSON',
        body: GreetingFormFields.nullish(),
        response: { 200: GreetingSavedBody, 201: GreetingSavedBody, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { fields, file } = await readGreetingForm(req);
      const parsed = GreetingFormFields.safeParse(fields ?? {});
      if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error));
      const out = await saveGreeting(ctx, req.auth!.userId, parsed.data, file);
      return reply.status((parsed.data._method ?? '').toUpperCase() === 'PUT' ? 200 : 201).send(out);
    },
  );

  // The per-id form of the update (the spec's form is POST /greetings with `_method=PUT` and `id`).
  app.put(
    '/api/greetings/:id',
    {
      config: { access: access.company('numbers.manage') },
      schema: {
        tags: ['greetings'],
        summary: 'Update a greeting: multipart or JSON company_id, name, content, voice, file (same as POST /greetings with _method=PUT)',
        params: IdParams,
        body: GreetingFormFields.nullish(),
        response: { 200: GreetingSavedBody, ...errorResponses },
      },
    },
    async (req) => {
      const { fields, file } = await readGreetingForm(req);
      const parsed = GreetingFormFields.safeParse({ ...((fields ?? {}) as Record<string, unknown>), _method: 'PUT', id: req.params.id });
      if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error));
      return saveGreeting(ctx, req.auth!.userId, parsed.data, file);
    },
  );

  app.get(
    '/api/numbers/:id/greetings',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags: ['greetings'], params: IdParams, response: { 200: NumberGreetingsBody, ...errorResponses } },
    },
    async (req) => getNumberGreetings(ctx, req.auth!.userId, req.params.id),
  );

  app.put(
    '/api/numbers/:id/greetings',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags: ['greetings'], params: IdParams, body: PutNumberGreetingsInput, response: { 200: NumberGreetingsBody, ...errorResponses } },
    },
    async (req) => putNumberGreetings(ctx, req.auth!.userId, req.params.id, req.body.assignments),
  );
}

/**
 * The fields and the audio file of a greeting form: multipart (the shared reader; the audio is the
 * `file` part, an empty file counts as none), or the JSON body.
 */
async function readGreetingForm(req: FastifyRequest): Promise<{ fields: unknown; file: UploadedFile | undefined }> {
  if (!req.isMultipart()) return { fields: req.body, file: undefined };
  const { fields, files } = await readMultipart(req, { fileFields: ['file'] });
  return { fields, file: files.at(-1) };
}
