/**
 * Data groups HTTP routes (spec 002 "Data groups"): `GET|POST /api/data-group`, `GET|PUT|DELETE /api/data-group/{id}`,
 * `POST /api/data-group/{id}/attach|detach`, and the picker's `GET /api/data-group/candidates`. HTTP only; the
 * service checks access.
 */
import {
  CreateDataGroupInput,
  DataGroupBody,
  DataGroupCandidates,
  DataGroupCandidatesQuery,
  DataGroupEntitiesInput,
  DataGroupList,
  DataGroupListQuery,
  DataGroupSaved,
  IdParams,
  MessageBody,
  UpdateDataGroupInput,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import {
  attachEntities,
  createDataGroup,
  dataGroupCandidates,
  deleteDataGroup,
  detachEntities,
  getDataGroup,
  listDataGroups,
  updateDataGroup,
} from './data-groups.service.js';

/** Registers the data-group routes. */
export async function registerDataGroupsRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['data groups'];
  const read = { access: access.company('company.read') };
  const write = { access: access.company('settings.manage') };
  app.get(
    '/api/data-group',
    { config: read, schema: { tags, querystring: DataGroupListQuery, response: { 200: DataGroupList, ...errorResponses } } },
    async (request) => listDataGroups(ctx, request.auth!.userId, request.query.companyId ?? request.query.company_id),
  );
  app.post(
    '/api/data-group',
    { config: write, schema: { tags, body: CreateDataGroupInput, response: { 201: DataGroupSaved, ...errorResponses } } },
    async (request, reply) => reply.status(201).send(await createDataGroup(ctx, request.auth!.userId, request.body)),
  );
  app.get(
    '/api/data-group/candidates',
    { config: read, schema: { tags, querystring: DataGroupCandidatesQuery, response: { 200: DataGroupCandidates, ...errorResponses } } },
    async (request) => dataGroupCandidates(ctx, request.auth!.userId, request.query),
  );
  app.get('/api/data-group/:id', { config: read, schema: { tags, params: IdParams, response: { 200: DataGroupBody, ...errorResponses } } }, async (request) =>
    getDataGroup(ctx, request.auth!.userId, request.params.id),
  );
  app.put(
    '/api/data-group/:id',
    { config: write, schema: { tags, params: IdParams, body: UpdateDataGroupInput, response: { 200: DataGroupSaved, ...errorResponses } } },
    async (request) => updateDataGroup(ctx, request.auth!.userId, request.params.id, request.body),
  );
  app.delete('/api/data-group/:id', { config: write, schema: { tags, params: IdParams, response: { 200: MessageBody, ...errorResponses } } }, async (request) =>
    deleteDataGroup(ctx, request.auth!.userId, request.params.id),
  );
  app.post(
    '/api/data-group/:id/attach',
    { config: write, schema: { tags, params: IdParams, body: DataGroupEntitiesInput, response: { 200: DataGroupSaved, ...errorResponses } } },
    async (request) => attachEntities(ctx, request.auth!.userId, request.params.id, request.body.entities),
  );
  app.post(
    '/api/data-group/:id/detach',
    { config: write, schema: { tags, params: IdParams, body: DataGroupEntitiesInput, response: { 200: DataGroupSaved, ...errorResponses } } },
    async (request) => detachEntities(ctx, request.auth!.userId, request.params.id, request.body.entities),
  );
}
