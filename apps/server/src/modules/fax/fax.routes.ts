/**
 * Fax HTTP (docs/fax.md "API"):
 * - `GET /api/companies/{companyId}/faxes` (page, per_page, direction, status, number_id) → `{data: Fax[], meta}`
 * - `POST /api/companies/{companyId}/faxes` (multipart: number_id, to, cover_note?, file = the PDF) → 201 Fax
 * - `GET /api/faxes/{id}` → Fax; `GET /api/faxes/{id}/file` → the PDF (members of its company only)
 * - the fax provider's webhook (path from the fax port, e.g. `/webhooks/telnyx/fax`): JSON, Ed25519-signed
 *   over the raw body (403 otherwise), each event handled once.
 * The fax export is `POST /api/fax/export` (analytics, with this module's `faxesForExport`).
 */
import { ErrorBody, Fax, FaxList, FaxListQuery, IdParams, SendFaxFields, errorResponses } from '@switchboard/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { AppError, ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import { readMultipart } from '../../platform/http/multipart.js';
import { handleOnce } from '../../platform/http/webhooks.js';
import { faxFile, faxPort, getFax, listFaxes, sendFax } from './fax.service.js';
import { applyFaxEvent } from './fax.webhooks.js';
import { fileAnswer } from '../../platform/http/openapi.js';
import { textAnswer } from '../../platform/http/openapi.js';

const CompanyParams = z.object({ companyId: z.coerce.number().int().positive() });

function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  return errors;
}

/** Registers the fax routes and the provider's webhook. */
export function registerFaxRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/companies/:companyId/faxes',
    {
      config: { access: access.company('inbox.read') },
      schema: {
        tags: ['fax'],
        summary: 'Faxes of the company, newest first',
        params: CompanyParams,
        querystring: FaxListQuery,
        response: { 200: FaxList, ...errorResponses },
      },
    },
    async (req) => listFaxes(ctx, req.auth!.userId, req.params.companyId, req.query),
  );

  app.post(
    '/api/companies/:companyId/faxes',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags: ['fax'],
        summary: 'Send a fax (multipart: number_id, to, cover_note?, file = the PDF, 10 MB at most)',
        params: CompanyParams,
        response: { 201: Fax, ...errorResponses },
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw new ValidationError({ file: ['The request must be multipart/form-data with the PDF in file.'] });
      const form = await readMultipart(req, { fileFields: ['file'] });
      const parsed = SendFaxFields.safeParse(form.fields);
      if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error));
      const fax = await sendFax(ctx, req.auth!.userId, req.params.companyId, parsed.data, form.files[0]);
      return reply.status(201).send(fax);
    },
  );

  app.get(
    '/api/faxes/:id',
    {
      config: { access: access.company('inbox.read') },
      schema: { tags: ['fax'], summary: 'One fax', params: IdParams, response: { 200: Fax, ...errorResponses } },
    },
    async (req) => getFax(ctx, req.auth!.userId, req.params.id),
  );

  app.get(
    '/api/faxes/:id/file',
    {
      config: { access: access.company('inbox.read') },
      schema: {
        tags: ['fax'],
        summary: "The fax's PDF (members of its company only)",
        params: IdParams,
        response: { 200: fileAnswer('application/pdf', 'The fax document (inline)'), ...errorResponses },
      },
    },
    async (req, reply) => {
      const f = await faxFile(ctx, req.auth!.userId, req.params.id);
      reply.type('application/pdf').header('content-disposition', `inline; filename="${f.filename}"`).header('cache-control', 'private, max-age=300');
      if (f.size !== null) reply.header('content-length', String(f.size));
      return reply.send(f.stream);
    },
  );

  const port = faxPort(ctx);
  // The signature covers the raw body: this scope keeps JSON bodies as text.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    scope.post(
      port.webhookPath,
      {
        config: { access: access.webhook() },
        schema: {
          tags: ['webhooks'],
          summary: 'Fax provider webhook (JSON, Ed25519-signed): outbound progress and received faxes',
          response: { 200: textAnswer('application/json', 'Received (or ignored)'), 403: ErrorBody, 422: ErrorBody },
        },
      },
      async (req, reply) => {
        const raw = typeof req.body === 'string' ? req.body : '';
        if (!port.verifyWebhook(raw, req.headers)) {
          req.log.warn({ url: req.url }, 'fax webhook signature rejected');
          throw new AppError(403, 'Invalid webhook signature.');
        }
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          throw new ValidationError({ body: ['The body is not JSON.'] });
        }
        const event = port.parseWebhook(body);
        if (!event) return reply.type('application/json').send('{"ignored":true}');
        return handleOnce(ctx, reply, `fax:${port.name}:${event.eventId}`, (tx) => applyFaxEvent(ctx, tx, event));
      },
    );
  });
}
