/**
 * Report preferences HTTP routes: column presets (spec 001 "Column presets": GET /api/column-presets,
 * GET/PUT/DELETE /api/column-presets/{id}, POST /api/column-presets) and favourite reports (spec 002: GET, POST
 * /api/favorite-reports; PUT, DELETE /api/favorite-reports/{id}). HTTP only; the service checks access.
 */
import {
  ColumnPresetBody,
  ColumnPresetList,
  ColumnPresetListQuery,
  ColumnPresetSaved,
  CreateColumnPresetInput,
  CreateFavoriteReportInput,
  FavoriteReportList,
  FavoriteReportListQuery,
  FavoriteReportSaved,
  IdParams,
  MessageBody,
  UpdateColumnPresetInput,
  UpdateFavoriteReportInput,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import {
  createColumnPreset,
  createFavoriteReport,
  deleteColumnPreset,
  deleteFavoriteReport,
  getColumnPreset,
  listColumnPresets,
  listFavoriteReports,
  updateColumnPreset,
  updateFavoriteReport,
} from './report-preferences.service.js';

/** Registers the column-preset and favourite-report routes. */
export async function registerReportPreferencesRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['column-presets'];
  app.get(
    '/api/column-presets',
    {
      config: { access: access.company('company.read') },
      schema: { tags, querystring: ColumnPresetListQuery, response: { 200: ColumnPresetList, ...errorResponses } },
    },
    async (request) => {
      const q = request.query;
      return listColumnPresets(ctx, request.auth!.userId, {
        companyId: q.companyId ?? q.company_id,
        businessUnitId: q.businessUnitId ?? q.business_unit_id,
        kind: q.kind,
      });
    },
  );
  app.get(
    '/api/column-presets/:id',
    { config: { access: access.company('company.read') }, schema: { tags, params: IdParams, response: { 200: ColumnPresetBody, ...errorResponses } } },
    async (request) => getColumnPreset(ctx, request.auth!.userId, request.params.id),
  );
  app.post(
    '/api/column-presets',
    {
      config: { access: access.company('preferences.own') },
      schema: { tags, body: CreateColumnPresetInput, response: { 201: ColumnPresetSaved, ...errorResponses } },
    },
    async (request, reply) => reply.status(201).send(await createColumnPreset(ctx, request.auth!.userId, request.body)),
  );
  app.put(
    '/api/column-presets/:id',
    {
      config: { access: access.company('preferences.own') },
      schema: { tags, params: IdParams, body: UpdateColumnPresetInput, response: { 200: ColumnPresetSaved, ...errorResponses } },
    },
    async (request) => updateColumnPreset(ctx, request.auth!.userId, request.params.id, request.body),
  );
  app.delete(
    '/api/column-presets/:id',
    { config: { access: access.company('preferences.own') }, schema: { tags, params: IdParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => deleteColumnPreset(ctx, request.auth!.userId, request.params.id),
  );

  const favTags = ['favorite-reports'];
  app.get(
    '/api/favorite-reports',
    {
      config: { access: access.company('company.read') },
      schema: { tags: favTags, querystring: FavoriteReportListQuery, response: { 200: FavoriteReportList, ...errorResponses } },
    },
    async (request) => listFavoriteReports(ctx, request.auth!.userId, request.query.companyId ?? request.query.company_id),
  );
  app.post(
    '/api/favorite-reports',
    {
      config: { access: access.company('preferences.own') },
      schema: { tags: favTags, body: CreateFavoriteReportInput, response: { 201: FavoriteReportSaved, ...errorResponses } },
    },
    async (request, reply) => reply.status(201).send(await createFavoriteReport(ctx, request.auth!.userId, request.body)),
  );
  app.put(
    '/api/favorite-reports/:id',
    {
      config: { access: access.company('preferences.own') },
      schema: { tags: favTags, params: IdParams, body: UpdateFavoriteReportInput, response: { 200: FavoriteReportSaved, ...errorResponses } },
    },
    async (request) => updateFavoriteReport(ctx, request.auth!.userId, request.params.id, request.body.value),
  );
  app.delete(
    '/api/favorite-reports/:id',
    { config: { access: access.company('preferences.own') }, schema: { tags: favTags, params: IdParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => deleteFavoriteReport(ctx, request.auth!.userId, request.params.id),
  );
}
