/**
 * Outbound webhooks HTTP routes (docs/api-and-webhooks.md "Outbound webhooks"), owners and administrators only:
 * GET/POST /api/webhook-endpoints (company_id), GET/PATCH/DELETE /api/webhook-endpoints/{id},
 * GET /api/webhook-endpoints/{id}/secret, POST …/{id}/rotate-secret, POST …/{id}/test,
 * GET …/{id}/deliveries, GET …/{id}/deliveries/{deliveryId}, POST …/{id}/deliveries/{deliveryId}/replay.
 */
import {
  CreateWebhookInput,
  IdParams,
  MessageBody,
  UpdateWebhookInput,
  WebhookBody,
  WebhookDeliveriesBody,
  WebhookDeliveriesQuery,
  WebhookDeliveryBody,
  WebhookDeliveryParams,
  WebhookListBody,
  WebhookListQuery,
  WebhookSecretBody,
  errorResponses,
} from '@switchboard/contracts';
import { z } from 'zod';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  revealSecret,
  rotateSecret,
  sendTest,
  updateWebhook,
} from './webhooks.service.js';

const tags = ['webhooks'];
/** Owners and administrators; entity routes are checked against the endpoint's company by the service. */
const config = { access: access.company('integrations.manage') };
const DeliveryAnswer = z.object({ message: z.string(), data: WebhookDeliveriesBody.shape.data.element });

/** Registers the webhook endpoint routes (HTTP only; the service checks access). */
export async function registerWebhookRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/webhook-endpoints',
    {
      config,
      schema: { tags, summary: "The company's webhook endpoints", querystring: WebhookListQuery, response: { 200: WebhookListBody, ...errorResponses } },
    },
    async (request) => listWebhooks(ctx, request.auth!.userId, request.query.company_id),
  );
  app.post(
    '/api/webhook-endpoints',
    { config, schema: { tags, summary: 'Subscribe a URL to events', body: CreateWebhookInput, response: { 201: WebhookBody, ...errorResponses } } },
    async (request, reply) => reply.status(201).send(await createWebhook(ctx, request.auth!.userId, request.body)),
  );
  app.get('/api/webhook-endpoints/:id', { config, schema: { tags, params: IdParams, response: { 200: WebhookBody, ...errorResponses } } }, async (request) =>
    getWebhook(ctx, request.auth!.userId, request.params.id),
  );
  app.patch(
    '/api/webhook-endpoints/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change an endpoint; enabled: true re-enables it',
        params: IdParams,
        body: UpdateWebhookInput,
        response: { 200: WebhookBody, ...errorResponses },
      },
    },
    async (request) => updateWebhook(ctx, request.auth!.userId, request.params.id, request.body),
  );
  app.delete('/api/webhook-endpoints/:id', { config, schema: { tags, params: IdParams, response: { 200: MessageBody, ...errorResponses } } }, async (request) =>
    deleteWebhook(ctx, request.auth!.userId, request.params.id),
  );
  app.get(
    '/api/webhook-endpoints/:id/secret',
    { config, schema: { tags, summary: 'The signing secret (whsec_…)', params: IdParams, response: { 200: WebhookSecretBody, ...errorResponses } } },
    async (request) => revealSecret(ctx, request.auth!.userId, request.params.id),
  );
  app.post(
    '/api/webhook-endpoints/:id/rotate-secret',
    { config, schema: { tags, summary: 'Replace the signing secret', params: IdParams, response: { 200: WebhookSecretBody, ...errorResponses } } },
    async (request) => rotateSecret(ctx, request.auth!.userId, request.params.id),
  );
  app.post(
    '/api/webhook-endpoints/:id/test',
    { config, schema: { tags, summary: 'Queue a webhook.test message', params: IdParams, response: { 202: DeliveryAnswer, ...errorResponses } } },
    async (request, reply) => reply.status(202).send(await sendTest(ctx, request.auth!.userId, request.params.id)),
  );
  app.get(
    '/api/webhook-endpoints/:id/deliveries',
    {
      config,
      schema: {
        tags,
        summary: 'The delivery log, newest first',
        params: IdParams,
        querystring: WebhookDeliveriesQuery,
        response: { 200: WebhookDeliveriesBody, ...errorResponses },
      },
    },
    async (request) => listDeliveries(ctx, request.auth!.userId, request.params.id, request.query),
  );
  app.get(
    '/api/webhook-endpoints/:id/deliveries/:deliveryId',
    {
      config,
      schema: {
        tags,
        summary: 'One delivery with its payload and attempts',
        params: WebhookDeliveryParams,
        response: { 200: WebhookDeliveryBody, ...errorResponses },
      },
    },
    async (request) => getDelivery(ctx, request.auth!.userId, request.params.id, request.params.deliveryId),
  );
  app.post(
    '/api/webhook-endpoints/:id/deliveries/:deliveryId/replay',
    { config, schema: { tags, summary: 'Send a delivery again', params: WebhookDeliveryParams, response: { 202: DeliveryAnswer, ...errorResponses } } },
    async (request, reply) => reply.status(202).send(await replayDelivery(ctx, request.auth!.userId, request.params.id, request.params.deliveryId)),
  );
}
