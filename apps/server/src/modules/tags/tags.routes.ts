/**
 * Tags HTTP routes (spec 002 "Other: tags CRUD"; docs/workspace.md "Tags"): `GET|POST /api/tags`,
 * `GET|PUT|DELETE /api/tags/{id}`, and tags on contacts and numbers `GET|POST|DELETE /api/tags/links`.
 * HTTP only; the service checks access.
 */
import {
  CreateTagInput,
  EntityTags,
  EntityTagsQuery,
  IdParams,
  MessageBody,
  TagBody,
  TagLinksInput,
  TagList,
  TagListQuery,
  TagSaved,
  UpdateTagInput,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { addEntityTags, createTag, deleteTag, entityTags, getTag, listTags, removeEntityTags, updateTag } from './tags.service.js';

/** Registers the tag routes. */
export async function registerTagsRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['tags'];
  app.get(
    '/api/tags',
    { config: { access: access.company('company.read') }, schema: { tags, querystring: TagListQuery, response: { 200: TagList, ...errorResponses } } },
    async (request) => listTags(ctx, request.auth!.userId, request.query.companyId ?? request.query.company_id, request.query.search),
  );
  app.post(
    '/api/tags',
    { config: { access: access.company('calls.work') }, schema: { tags, body: CreateTagInput, response: { 201: TagSaved, ...errorResponses } } },
    async (request, reply) => reply.status(201).send(await createTag(ctx, request.auth!.userId, request.body)),
  );
  app.get(
    '/api/tags/links',
    { config: { access: access.company('company.read') }, schema: { tags, querystring: EntityTagsQuery, response: { 200: EntityTags, ...errorResponses } } },
    async (request) => entityTags(ctx, request.auth!.userId, request.query),
  );
  app.post(
    '/api/tags/links',
    { config: { access: access.company('calls.work') }, schema: { tags, body: TagLinksInput, response: { 200: EntityTags, ...errorResponses } } },
    async (request) => addEntityTags(ctx, request.auth!.userId, request.body),
  );
  app.delete(
    '/api/tags/links',
    { config: { access: access.company('calls.work') }, schema: { tags, body: TagLinksInput, response: { 200: EntityTags, ...errorResponses } } },
    async (request) => removeEntityTags(ctx, request.auth!.userId, request.body),
  );
  app.get(
    '/api/tags/:id',
    { config: { access: access.company('company.read') }, schema: { tags, params: IdParams, response: { 200: TagBody, ...errorResponses } } },
    async (request) => getTag(ctx, request.auth!.userId, request.params.id),
  );
  app.put(
    '/api/tags/:id',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, params: IdParams, body: UpdateTagInput, response: { 200: TagSaved, ...errorResponses } },
    },
    async (request) => updateTag(ctx, request.auth!.userId, request.params.id, request.body),
  );
  app.delete(
    '/api/tags/:id',
    { config: { access: access.company('settings.manage') }, schema: { tags, params: IdParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => deleteTag(ctx, request.auth!.userId, request.params.id),
  );
}
