/**
 * `GET /api/companies/slim` (spec 002 §9 "companies slim page 100"): the company switcher's list
 * for people with hundreds of accounts — a page of 100 of the caller's reachable companies, by
 * name, with `search` on the company or organization name or the id (docs/accounts.md).
 */
import { CompaniesSlimBody, CompaniesSlimQuery, errorResponses } from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import { pageMeta } from '../../platform/http/page.js';
import type { AppContext } from '../../context.js';
import { slimCompanies } from './accounts.service.js';

/** Registers `GET /api/companies/slim`. */
export function registerCompaniesSlimRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/companies/slim',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['companies'],
        summary: "A page of the caller's companies for the switcher (100, search)",
        querystring: CompaniesSlimQuery,
        response: { 200: CompaniesSlimBody, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await slimCompanies(ctx, request.auth!.userId, q);
      return {
        data: rows.map((r) => ({ ...r, role: r.role as 'user', account_status: r.account_status as 0 | 1 | 2 })),
        meta: pageMeta(q.page, q.perPage, total),
      };
    },
  );
}
