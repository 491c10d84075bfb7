/**
 * Numbers HTTP routes (spec 002 "Numbers"):
 * GET /api/numbers/search, POST /api/numbers {company_id, provider_id, number?}, GET /api/companies/{companyId}/numbers,
 * GET /api/numbers/{id}, PUT /api/numbers/{id} (both with eavAttributeValues, the number's custom fields).
 */
import {
  BuyNumberInput,
  CompanyParams,
  IdParams,
  NumberBody,
  NumberListBody,
  NumberSearchBody,
  NumberSearchQuery,
  NumberWithEavBody,
  NumberWithEavUpdatedBody,
  UpdateNumberWithEavInput,
  errorResponses,
} from '@switchboard/contracts';
import { NUMBER_UPDATED, type Schedule } from '@switchboard/domain';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { buyNumber, getNumber, listCompanyNumbers, searchNumbers, updateNumber } from './numbers.service.js';

/** Registers the numbers routes (search, buy, list, read, save). */
export async function registerNumbersRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/numbers/search',
    {
      config: { access: access.company('numbers.purchase') },
      schema: { tags: ['numbers'], querystring: NumberSearchQuery, response: { 200: NumberSearchBody, ...errorResponses } },
    },
    async (request) => ({ data: await searchNumbers(ctx, request.query) }),
  );

  app.post(
    '/api/numbers',
    {
      config: { access: access.company('numbers.purchase') },
      schema: { tags: ['numbers'], body: BuyNumberInput, response: { 201: NumberBody, ...errorResponses } },
    },
    async (request, reply) => reply.status(201).send(await buyNumber(ctx, request.auth!.userId, request.body)),
  );

  app.get(
    '/api/companies/:companyId/numbers',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags: ['numbers'], params: CompanyParams, response: { 200: NumberListBody, ...errorResponses } },
    },
    async (request) => ({ data: await listCompanyNumbers(ctx, request.auth!.userId, request.params.companyId) }),
  );

  app.get(
    '/api/numbers/:id',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags: ['numbers'], params: IdParams, response: { 200: NumberWithEavBody, ...errorResponses } },
    },
    async (request) => getNumber(ctx, request.auth!.userId, request.params.id),
  );

  app.put(
    '/api/numbers/:id',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags: ['numbers'], params: IdParams, body: UpdateNumberWithEavInput, response: { 200: NumberWithEavUpdatedBody, ...errorResponses } },
    },
    async (request) => {
      const b = request.body;
      const data = await updateNumber(ctx, request.auth!.userId, request.params.id, {
        label: b.label,
        routes: b.routes as never,
        schedule: b.schedule as Schedule | undefined,
        menu_replays: b.menu_replays,
        menu_fallback: b.menu_fallback,
        eavAttributeValues: b.eavAttributeValues,
        record: b.record,
        call_transcription_enabled: b.call_transcription_enabled,
        ai_eav_enabled: b.ai_eav_enabled,
      });
      return { message: NUMBER_UPDATED, data };
    },
  );
}
