/**
 * Caller-ID settings HTTP routes (docs/caller-id.md "Automatic lookups"; not in the spec):
 * `GET /api/companies/{companyId}/caller-id/settings` → `{autoLookup}`;
 * `PUT /api/companies/{companyId}/caller-id/settings` `{autoLookup}` (owners and administrators).
 * The lookups themselves are served by calls (`GET /calls/{id}/enhanced-caller-id`) and messaging
 * (`GET /messages/{id}/enhanced-caller-id`, `POST /company/{companyId}/trestle/lookup`), which know the call,
 * message and contact, and call this module's service. HTTP only.
 */
import { CallerIdSettings, CompanyParams, errorResponses } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { getCallerIdSettings, updateCallerIdSettings } from './caller-id.service.js';

/** Registers the caller-ID settings routes. */
export async function registerCallerIdRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['caller id'];
  app.get(
    '/api/companies/:companyId/caller-id/settings',
    {
      config: { access: access.company('company.read') },
      schema: { tags, params: CompanyParams, response: { 200: CallerIdSettings, ...errorResponses } },
    },
    async (request) => getCallerIdSettings(ctx, request.auth!.userId, request.params.companyId),
  );
  app.put(
    '/api/companies/:companyId/caller-id/settings',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, params: CompanyParams, body: CallerIdSettings, response: { 200: CallerIdSettings, ...errorResponses } },
    },
    async (request) => updateCallerIdSettings(ctx, request.auth!.userId, request.params.companyId, request.body),
  );
}
