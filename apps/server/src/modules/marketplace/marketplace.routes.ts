/**
 * Marketplace HTTP routes (spec 002 §7 "Marketplace": GET list, /kpi, /{id}, /{id}/listings; PUT /{id}; GET /report as
 * `marketplace_report.csv`; docs/marketplace.md "Routes"). The base path is not shown in the spec; chosen:
 * `/api/companies/{companyId}/marketplace/numbers`. Also POST (list a number) and POST /{id}/purchase (buy one).
 * Browsing needs `numbers.read`, listing and editing `numbers.manage`, buying `numbers.purchase`.
 */
import {
  CompanyParams,
  MarketplaceCreateInput,
  MarketplaceKpiAnswer,
  MarketplaceList,
  MarketplaceListingList,
  MarketplaceListQuery,
  MarketplaceMessageAnswer,
  MarketplaceNumberAnswer,
  MarketplaceParams,
  MarketplacePurchaseAnswer,
  MarketplacePurchaseInput,
  MarketplaceReportQuery,
  MarketplaceUpdateInput,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import {
  createListing,
  getMarketplaceNumber,
  listMarketplace,
  marketplaceKpi,
  marketplaceListings,
  marketplaceReport,
  purchaseNumber,
  updateListing,
} from './marketplace.service.js';
import { fileAnswer } from '../../platform/http/openapi.js';

/** The chosen base path (docs/marketplace.md). */
export const MARKETPLACE_BASE = '/api/companies/:companyId/marketplace/numbers';

/** Registers the marketplace routes. */
export async function registerMarketplaceRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['marketplace'];
  const read = access.company('numbers.read');
  const manage = access.company('numbers.manage');
  const purchase = access.company('numbers.purchase');

  app.get(
    MARKETPLACE_BASE,
    {
      config: { access: read },
      schema: { tags, params: CompanyParams, querystring: MarketplaceListQuery, response: { 200: MarketplaceList, ...errorResponses } },
    },
    async (request) => listMarketplace(ctx, request.params.companyId, request.query),
  );
  app.get(
    `${MARKETPLACE_BASE}/kpi`,
    { config: { access: read }, schema: { tags, params: CompanyParams, response: { 200: MarketplaceKpiAnswer, ...errorResponses } } },
    async (request) => ({ data: await marketplaceKpi(ctx, request.params.companyId) }),
  );
  app.get(
    `${MARKETPLACE_BASE}/report`,
    {
      config: { access: read },
      schema: {
        tags,
        params: CompanyParams,
        querystring: MarketplaceReportQuery,
        response: { 200: fileAnswer('text/csv', 'The report as a CSV file (attachment)'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { filename, csv } = await marketplaceReport(ctx, request.params.companyId, request.query.state);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(csv);
    },
  );
  app.get(
    `${MARKETPLACE_BASE}/:id`,
    { config: { access: read }, schema: { tags, params: MarketplaceParams, response: { 200: MarketplaceNumberAnswer, ...errorResponses } } },
    async (request) => ({ data: await getMarketplaceNumber(ctx, request.params.companyId, request.params.id) }),
  );
  app.get(
    `${MARKETPLACE_BASE}/:id/listings`,
    { config: { access: read }, schema: { tags, params: MarketplaceParams, response: { 200: MarketplaceListingList, ...errorResponses } } },
    async (request) => ({ data: await marketplaceListings(ctx, request.params.companyId, request.params.id) }),
  );
  app.post(
    MARKETPLACE_BASE,
    {
      config: { access: manage },
      schema: { tags, params: CompanyParams, body: MarketplaceCreateInput, response: { 200: MarketplaceMessageAnswer, ...errorResponses } },
    },
    async (request) => createListing(ctx, request.params.companyId, request.auth!.userId, request.body),
  );
  app.put(
    `${MARKETPLACE_BASE}/:id`,
    {
      config: { access: manage },
      schema: { tags, params: MarketplaceParams, body: MarketplaceUpdateInput, response: { 200: MarketplaceMessageAnswer, ...errorResponses } },
    },
    async (request) => updateListing(ctx, request.params.companyId, request.auth!.userId, request.params.id, request.body),
  );
  app.post(
    `${MARKETPLACE_BASE}/:id/purchase`,
    {
      config: { access: purchase },
      schema: { tags, params: MarketplaceParams, body: MarketplacePurchaseInput, response: { 200: MarketplacePurchaseAnswer, ...errorResponses } },
    },
    async (request) => purchaseNumber(ctx, request.params.companyId, request.auth!.userId, request.params.id, request.body.expected_price_cents),
  );
}
