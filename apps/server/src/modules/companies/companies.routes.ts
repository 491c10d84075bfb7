/** `GET /api/companies` (company switcher) and `GET /api/companies/{companyId}`, tenant-checked. */
import { CompanyList, CompanyParams, CompanySummary, errorResponses } from '@switchboard/contracts';
import type { App } from '../../app.js';
import type { AppContext } from '../../context.js';
import { getCompanySummary, listCompanySummaries } from './companies.service.js';

export function registerCompaniesRoutes(app: App, ctx: AppContext): void {
  app.get('/api/companies', {
    schema: { tags: ['companies'], summary: "The caller's active companies", response: { 200: CompanyList, ...errorResponses } },
  }, async (request) => ({ data: await listCompanySummaries(ctx, request.auth!.userId) }));

  app.get('/api/companies/:companyId', {
    schema: { tags: ['companies'], summary: 'One company of the caller (403 when not a member)', params: CompanyParams, response: { 200: CompanySummary, ...errorResponses } },
  }, async (request) => getCompanySummary(ctx, request.auth!.userId, request.params.companyId));
}
