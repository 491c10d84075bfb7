/**
 * Blocked callers HTTP routes (spec 001 "Blocks"):
 * GET /api/blocks/{companyId} (page, per_page 50); GET /api/blocks?company_id&perPage (default 1000)&page;
 * POST /api/blocks; DELETE /api/blocks/{id}.
 */
import {
  BlockCreatedBody,
  BlockListBody,
  BlockListQuery,
  BlockQueryListBody,
  BlockQueryListQuery,
  CompanyParams,
  CreateBlockInput,
  IdParams,
  MessageBody,
  errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { createBlock, deleteBlock, listBlocks } from './blocklist.service.js';

/** Registers the blocks routes (HTTP only; the service checks access). */
export async function registerBlocklistRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/blocks/:companyId',
    {
      config: { access: access.company('calls.read') },
      schema: { tags: ['blocks'], params: CompanyParams, querystring: BlockListQuery, response: { 200: BlockListBody, ...errorResponses } },
    },
    async (request) => listBlocks(ctx, request.auth!.userId, request.params.companyId, request.query.page, request.query.per_page),
  );

  app.get(
    '/api/blocks',
    {
      config: { access: access.company('calls.read') },
      schema: {
        tags: ['blocks'],
        summary: 'Query version of the blocks list (perPage default 1000)',
        querystring: BlockQueryListQuery,
        response: { 200: BlockQueryListBody, ...errorResponses },
      },
    },
    async (request) => listBlocks(ctx, request.auth!.userId, request.query.company_id, request.query.page, request.query.perPage),
  );

  app.post(
    '/api/blocks',
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['blocks'], body: CreateBlockInput, response: { 201: BlockCreatedBody, ...errorResponses } },
    },
    async (request, reply) => reply.status(201).send(await createBlock(ctx, request.auth!.userId, request.body)),
  );

  app.delete(
    '/api/blocks/:id',
    { config: { access: access.company('calls.work') }, schema: { tags: ['blocks'], params: IdParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => deleteBlock(ctx, request.auth!.userId, request.params.id),
  );
}
