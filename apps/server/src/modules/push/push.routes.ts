/**
 * Push HTTP routes (spec 000 §7 `GET /user/beam-token`; spec 001 "API keys" `POST
 * /apns-voip-device-tokens`; the rest designed in docs/push.md "Calls"). Every route is the
 * signed-in caller's own devices and notifications. HTTP only.
 */
import {
  ApnsVoipTokenInput,
  ApnsVoipTokenParams,
  BeamTokenBody,
  MessageBody,
  PushDeviceList,
  PushDeviceSaved,
  PushNotificationList,
  PushNotificationsQuery,
  PushSubscriptionInput,
  PushUnsubscribeInput,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { beamToken, closePushPort, deleteApnsToken, listDevices, listNotifications, saveApnsToken, sendTest, subscribe, unsubscribe } from './push.service.js';

/** Registers the push routes. */
export async function registerPushRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['push'];
  const own = { access: access.signedIn() };
  // The APNs adapter keeps an HTTP/2 session open; closing the app closes it.
  app.addHook('onClose', async () => closePushPort(ctx));
  app.get('/api/user/beam-token', { config: own, schema: { tags, response: { 200: BeamTokenBody, ...errorResponses } } }, async (request) =>
    beamToken(ctx, request.auth!.userId),
  );
  app.get('/api/user/push-subscriptions', { config: own, schema: { tags, response: { 200: PushDeviceList, ...errorResponses } } }, async (request) =>
    listDevices(ctx, request.auth!.userId),
  );
  app.post(
    '/api/user/push-subscriptions',
    { config: own, schema: { tags, body: PushSubscriptionInput, response: { 201: PushDeviceSaved, ...errorResponses } } },
    async (request, reply) => reply.status(201).send(await subscribe(ctx, request.auth!.userId, request.body, request.headers['user-agent'])),
  );
  app.delete(
    '/api/user/push-subscriptions',
    { config: own, schema: { tags, body: PushUnsubscribeInput, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => unsubscribe(ctx, request.auth!.userId, request.body.endpoint),
  );
  app.get(
    '/api/user/push-notifications',
    { config: own, schema: { tags, querystring: PushNotificationsQuery, response: { 200: PushNotificationList, ...errorResponses } } },
    async (request) => listNotifications(ctx, request.auth!.userId, request.query.limit),
  );
  app.post('/api/user/push-notifications/test', { config: own, schema: { tags, response: { 202: MessageBody, ...errorResponses } } }, async (request, reply) =>
    reply.status(202).send(await sendTest(ctx, request.auth!.userId)),
  );
  app.post(
    '/api/apns-voip-device-tokens',
    { config: own, schema: { tags, body: ApnsVoipTokenInput, response: { 201: PushDeviceSaved, ...errorResponses } } },
    async (request, reply) => reply.status(201).send(await saveApnsToken(ctx, request.auth!.userId, request.body.token, request.body.device_name)),
  );
  app.delete(
    '/api/apns-voip-device-tokens/:token',
    { config: own, schema: { tags, params: ApnsVoipTokenParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => deleteApnsToken(ctx, request.auth!.userId, request.params.token),
  );
}
