/**
 * Messaging HTTP: `POST /api/message` and `POST /api/inbox/message/schedule` (multipart or JSON),
 * `DELETE /api/inbox/message/schedule/{id}` (spec 001 §7 "Inbox"), and the carrier's messaging
 * webhooks (paths from the carrier port, `carrier.webhookPath`): inbound SMS/MMS and delivery
 * status. Webhooks are signed (403 otherwise) and handled once per delivery key.
 */
import { ConversationItem, ErrorBody, Id, IdParams, ScheduleMessageBody, SendMessageBody, errorResponses } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import { readMultipart, type UploadedFile } from '../../platform/http/multipart.js';
import { formParams, handleOnce, verifyCarrierSignature } from '../../platform/http/webhooks.js';
import { applyMessageStatus, cancelScheduledMessage, receiveInboundMessage, scheduleMessage, sendMessage } from './messaging.service.js';
import { textAnswer } from '../../platform/http/openapi.js';

const WebhookBody = z.record(z.string(), z.unknown()).optional();

function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  return errors;
}

/**
 * Reads a send/schedule request: multipart (fields + `media[]`/`media` files through the shared
 * `readMultipart`, validated with `schema`: 422 with field errors) or JSON (already validated by the route).
 */
async function readMessageRequest<S extends z.ZodType>(req: FastifyRequest, schema: S): Promise<{ body: z.infer<S>; files: UploadedFile[] }> {
  if (req.isMultipart()) {
    const form = await readMultipart(req, { fileFields: ['media'] });
    const parsed = schema.safeParse(form.fields);
    if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error));
    return { body: parsed.data, files: form.files.map(({ filename, mimetype, data }) => ({ filename, mimetype, data })) };
  }
  if (!req.body) throw new ValidationError({ company_id: ['The company id field is required.'] });
  return { body: req.body as z.infer<S>, files: [] };
}

/** Registers the send/schedule API routes and the carrier's messaging webhooks on the app. */
export function registerMessagingRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/message',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags: ['inbox'],
        summary: 'Send an SMS/MMS (multipart: company_id, number_id, to | conversation_id, content, media[] files; or JSON)',
        body: SendMessageBody.nullish(),
        response: { 201: ConversationItem, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { body, files } = await readMessageRequest(req, SendMessageBody);
      const item = await sendMessage(ctx, req.auth!.userId, body, files);
      return reply.status(201).send(item);
    },
  );

  app.post(
    '/api/inbox/message/schedule',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags: ['inbox'],
        summary: 'Schedule an SMS/MMS: the fields of POST /message plus shouldBeSentAt (ISO, future); sent by a job at that time',
        body: ScheduleMessageBody.nullish(),
        response: { 201: ConversationItem, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { body, files } = await readMessageRequest(req, ScheduleMessageBody);
      const item = await scheduleMessage(ctx, req.auth!.userId, body, files);
      return reply.status(201).send(item);
    },
  );

  app.delete(
    '/api/inbox/message/schedule/:id',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags: ['inbox'],
        summary: 'Cancel a scheduled message that has not been sent (204; 409 once sent)',
        params: IdParams,
        response: { 204: z.null().optional(), 409: ErrorBody, ...errorResponses },
      },
    },
    async (req, reply) => {
      await cancelScheduledMessage(ctx, req.auth!.userId, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    ctx.carrier.webhookPath('messaging'),
    {
      config: { access: access.webhook() },
      preHandler: verifyCarrierSignature(ctx),
      schema: {
        tags: ['webhooks'],
        summary: "Carrier webhook: inbound SMS/MMS (the carrier's form post)",
        body: WebhookBody,
        response: { 200: textAnswer('text/xml', 'TwiML (empty)'), 403: ErrorBody, 422: ErrorBody },
      },
    },
    async (req, reply) => {
      const p = ctx.carrier.parseInboundMessage(formParams(req));
      const empty = ctx.carrier.renderMessaging();
      if (!p) return reply.type(empty.contentType).send(empty.body);
      return handleOnce(ctx, reply, `sms:${p.sid}`, (tx) => receiveInboundMessage(ctx, tx, p), empty);
    },
  );

  app.post(
    ctx.carrier.webhookPath('messaging.status'),
    {
      config: { access: access.webhook() },
      preHandler: verifyCarrierSignature(ctx),
      schema: {
        tags: ['webhooks'],
        summary: 'Carrier webhook: message delivery status',
        querystring: z.object({ item: Id.optional() }),
        body: WebhookBody,
        response: { 200: textAnswer('text/xml', 'TwiML (empty)'), 403: ErrorBody, 422: ErrorBody },
      },
    },
    async (req, reply) => {
      const p = ctx.carrier.parseMessageStatus(formParams(req));
      const empty = ctx.carrier.renderMessaging();
      if (!p) return reply.type(empty.contentType).send(empty.body);
      return handleOnce(ctx, reply, `smsstatus:${p.sid}:${p.status}`, (tx) => applyMessageStatus(ctx, tx, p, req.query.item ?? null), empty);
    },
  );
}
