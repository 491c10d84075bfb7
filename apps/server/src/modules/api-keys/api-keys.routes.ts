/**
 * API keys HTTP routes (spec 001 "API keys"): GET /api/personalAccessTokens, POST /api/personalAccessTokens
 * (snake_cased fields, optional business unit id), DELETE /api/personalAccessTokens/{id}. Each acts on the signed-in
 * user's own keys; API keys themselves cannot call these routes (platform/auth/api-key-scopes.ts).
 */
import { ApiKeyCreatedBody, ApiKeyListBody, CreateApiKeyInput, IdParams, MessageBody, errorResponses } from '@switchboard/contracts';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import { createApiKey, deleteApiKey, listApiKeys } from './api-keys.service.js';

/** Registers the API key routes (HTTP only). */
export async function registerApiKeyRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/personalAccessTokens',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['api keys'], summary: "The signed-in user's API keys (never their secrets)", response: { 200: ApiKeyListBody, ...errorResponses } },
    },
    async (request) => listApiKeys(ctx, request.auth!.userId),
  );
  app.post(
    '/api/personalAccessTokens',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['api keys'],
        summary: 'Create an API key; the answer carries its secret once',
        body: CreateApiKeyInput,
        response: { 201: ApiKeyCreatedBody, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await createApiKey(ctx, request.auth!.userId, request.body)),
  );
  app.delete(
    '/api/personalAccessTokens/:id',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['api keys'], summary: 'Delete an API key', params: IdParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (request) => deleteApiKey(ctx, request.auth!.userId, request.params.id),
  );
}
