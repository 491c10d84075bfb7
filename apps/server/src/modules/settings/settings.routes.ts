/**
 * General settings and feature toggles HTTP routes (spec 002 "General settings", "Organizations and tenant:
 * feature/ai-eav"): `GET|POST|DELETE /api/general-settings`, `GET /api/general-settings/index`,
 * `POST /api/general-settings/bulk`, `GET|PUT /api/feature/ai-eav`. HTTP only; the service checks access.
 */
import {
  AiEavFeatureBody,
  AiEavFeatureInput,
  BulkGeneralSettingsInput,
  GeneralSettingsBody,
  GeneralSettingsBulkSaved,
  GeneralSettingsIndex,
  GeneralSettingsIndexQuery,
  GeneralSettingsQuery,
  GeneralSettingsSaved,
  SaveGeneralSettingsInput,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { bulkSaveSettings, getAiEavFeature, getSettings, restoreSettings, saveSettings, setAiEavFeature, settingsIndex } from './settings.service.js';

/** Registers the general-settings and feature routes. */
export async function registerSettingsRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['general settings'];
  app.get(
    '/api/general-settings',
    {
      config: { access: access.company('company.read') },
      schema: { tags, querystring: GeneralSettingsQuery, response: { 200: GeneralSettingsBody, ...errorResponses } },
    },
    async (request) => getSettings(ctx, request.auth!.userId, request.query.companyId ?? request.query.company_id),
  );
  app.get(
    '/api/general-settings/index',
    {
      config: { access: access.signedIn() },
      schema: { tags, querystring: GeneralSettingsIndexQuery, response: { 200: GeneralSettingsIndex, ...errorResponses } },
    },
    async (request) => settingsIndex(ctx, request.auth!.userId, request.query.search),
  );
  app.post(
    '/api/general-settings',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, body: SaveGeneralSettingsInput, response: { 200: GeneralSettingsSaved, ...errorResponses } },
    },
    async (request) => saveSettings(ctx, request.auth!.userId, request.body),
  );
  app.post(
    '/api/general-settings/bulk',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, body: BulkGeneralSettingsInput, response: { 200: GeneralSettingsBulkSaved, ...errorResponses } },
    },
    async (request) => bulkSaveSettings(ctx, request.auth!.userId, request.body),
  );
  app.delete(
    '/api/general-settings',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, querystring: GeneralSettingsQuery, response: { 200: GeneralSettingsSaved, ...errorResponses } },
    },
    async (request) => restoreSettings(ctx, request.auth!.userId, request.query.companyId ?? request.query.company_id),
  );
  app.get(
    '/api/feature/ai-eav',
    {
      config: { access: access.company('company.read') },
      schema: { tags, querystring: GeneralSettingsQuery, response: { 200: AiEavFeatureBody, ...errorResponses } },
    },
    async (request) => getAiEavFeature(ctx, request.auth!.userId, request.query.companyId ?? request.query.company_id),
  );
  app.put(
    '/api/feature/ai-eav',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, body: AiEavFeatureInput, response: { 200: AiEavFeatureBody, ...errorResponses } },
    },
    async (request) => setAiEavFeature(ctx, request.auth!.userId, request.body),
  );
}
