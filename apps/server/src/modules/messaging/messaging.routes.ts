/**
 * Messaging HTTP: `POST /api/message` (multipart or JSON) and the carrier's messaging webhooks
 * `POST /webhooks/twilio/messaging` (inbound SMS/MMS) and `POST /webhooks/twilio/messaging/status`
 * (delivery status). Webhooks are signed (403 otherwise) and handled once per delivery key.
 */
import { ConversationItem, SendMessageBody, errorResponses } from '@switchboard/contracts';
import { z } from 'zod';
import type { App } from '../../app.js';
import type { AppContext } from '../../context.js';
import { ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import { formParams, handleOnce, verifyCarrierSignature } from '../../platform/http/webhooks.js';
import { STATUS_CALLBACK_PATH, applyMessageStatus, receiveInboundMessage, sendMessage, type UploadedFile } from './messaging.service.js';

const WebhookBody = z.record(z.string(), z.unknown()).optional();

function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  return errors;
}

export function registerMessagingRoutes(app: App, ctx: AppContext): void {
  app.post('/api/message', {
    schema: {
      tags: ['inbox'],
      summary: 'Send an SMS/MMS (multipart: company_id, number_id, to | conversation_id, content, media[] files; or JSON)',
      body: SendMessageBody.nullish(),
      response: { 201: ConversationItem, ...errorResponses },
    },
  }, async (req, reply) => {
    let body = req.body;
    const files: UploadedFile[] = [];
    if (req.isMultipart()) {
      const fields: Record<string, unknown> = {};
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          const data = await part.toBuffer();
          if (/^media(\[\d*\])?$/.test(part.fieldname) && data.length > 0) files.push({ filename: part.filename, mimetype: part.mimetype, data });
        } else {
          fields[part.fieldname] = part.value;
        }
      }
      const parsed = SendMessageBody.safeParse(fields);
      if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error));
      body = parsed.data;
    }
    if (!body) throw new ValidationError({ company_id: ['The company id field is required.'] });
    const item = await sendMessage(ctx, req.auth!.userId, body, files);
    return reply.status(201).send(item);
  });

  app.post('/webhooks/twilio/messaging', {
    preHandler: verifyCarrierSignature(ctx),
    schema: { tags: ['webhooks'], summary: 'Carrier webhook: inbound SMS/MMS (Twilio form fields)', body: WebhookBody },
  }, async (req, reply) => {
    const p = formParams(req);
    if (!p.MessageSid) return reply.type(ctx.carrier.renderMessaging().contentType).send(ctx.carrier.renderMessaging().body);
    return handleOnce(ctx, reply, `sms:${p.MessageSid}`, (tx) => receiveInboundMessage(ctx, tx, p));
  });

  app.post(STATUS_CALLBACK_PATH, {
    preHandler: verifyCarrierSignature(ctx),
    schema: { tags: ['webhooks'], summary: 'Carrier webhook: message delivery status', querystring: z.object({ item: z.coerce.number().int().positive().optional() }), body: WebhookBody },
  }, async (req, reply) => {
    const p = formParams(req);
    const sid = p.MessageSid ?? p.SmsSid ?? '';
    const status = p.MessageStatus ?? p.SmsStatus ?? '';
    return handleOnce(ctx, reply, `smsstatus:${sid}:${status}`, (tx) => applyMessageStatus(ctx, tx, p, req.query.item ?? null));
  });
}
