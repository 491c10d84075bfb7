/**
 * `GET /api/companies` (company switcher), `GET /api/companies/{companyId}` (with
 * eav_attribute_values, read through the custom-fields module's registered reader) and the
 * company's messaging settings `GET|PUT /api/companies/{companyId}/settings` (docs/quiet-hours.md),
 * tenant-checked (foundation §6). The company's custom-field values are written by the custom-fields
 * module (`PUT /api/companies/{companyId}/custom-fields`).
 */
import {
  CompanyList,
  CompanyParams,
  CompanySettingsBody,
  CompanySettingsSaved,
  CompanyWithEavBody,
  errorResponses,
  PutCompanySettingsInput,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { getCompanySettings, getCompanyWithEav, listCompanySummaries, updateCompanySettings } from './companies.service.js';

/** Registers the companies module's HTTP routes. */
export function registerCompaniesRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/companies',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['companies'], summary: "The caller's active companies", response: { 200: CompanyList, ...errorResponses } },
    },
    async (request) => ({ data: await listCompanySummaries(ctx, request.auth!.userId) }),
  );

  app.get(
    '/api/companies/:companyId',
    {
      config: { access: access.company('company.read') },
      schema: {
        tags: ['companies'],
        summary: 'One company of the caller (403 when not a member)',
        params: CompanyParams,
        response: { 200: CompanyWithEavBody, ...errorResponses },
      },
    },
    async (request) => getCompanyWithEav(ctx, request.auth!.userId, request.params.companyId),
  );

  app.get(
    '/api/companies/:companyId/settings',
    {
      config: { access: access.company('company.read') },
      schema: {
        tags: ['companies'],
        summary: 'Messaging settings: HELP text, quiet hours, links, time zone (any member)',
        params: CompanyParams,
        response: { 200: CompanySettingsBody, ...errorResponses },
      },
    },
    async (request) => getCompanySettings(ctx, request.auth!.userId, request.params.companyId),
  );

  app.put(
    '/api/companies/:companyId/settings',
    {
      config: { access: access.company('settings.manage') },
      schema: {
        tags: ['companies'],
        summary: 'Update the messaging settings (owner or administrator)',
        params: CompanyParams,
        body: PutCompanySettingsInput,
        response: { 200: CompanySettingsSaved, ...errorResponses },
      },
    },
    async (request) => updateCompanySettings(ctx, request.auth!.userId, request.params.companyId, request.body),
  );
}
