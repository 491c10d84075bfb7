/**
 * Calls and blocked callers HTTP routes:
 * GET /api/calls/{id}; GET /api/blocks/{companyId} (page, per_page 50); POST /api/blocks; DELETE /api/blocks/{id}.
 */
import { BlockCreatedBody, BlockListBody, BlockListQuery, CallSchema, CompanyParams, CreateBlockInput, IdParams, MessageBody, errorResponses } from '@switchboard/contracts';
import type { App } from '../../app.js';
import type { AppContext } from '../../context.js';
import { createBlock, deleteBlock, getCall, listBlocks } from './calls.service.js';

export async function registerCallsRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get('/api/calls/:id', {
    schema: { tags: ['calls'], params: IdParams, response: { 200: CallSchema, ...errorResponses } },
  }, async (request) => getCall(ctx, request.auth!.userId, request.params.id));

  app.get('/api/blocks/:companyId', {
    schema: { tags: ['blocks'], params: CompanyParams, querystring: BlockListQuery, response: { 200: BlockListBody, ...errorResponses } },
  }, async (request) => listBlocks(ctx, request.auth!.userId, request.params.companyId, request.query.page, request.query.per_page));

  app.post('/api/blocks', {
    schema: { tags: ['blocks'], body: CreateBlockInput, response: { 201: BlockCreatedBody, ...errorResponses } },
  }, async (request, reply) => reply.status(201).send(await createBlock(ctx, request.auth!.userId, request.body)));

  app.delete('/api/blocks/:id', {
    schema: { tags: ['blocks'], params: IdParams, response: { 200: MessageBody, ...errorResponses } },
  }, async (request) => deleteBlock(ctx, request.auth!.userId, request.params.id));
}
