/** Custom fields HTTP (spec 001 §7 "Custom fields"), and the company's values `PUT /api/companies/{companyId}/custom-fields`. */
import {
  CompanyParams,
  EavValuesSaved,
  PutCompanyCustomFieldsInput,
  EavAttributeBody,
  EavAttributeList,
  EavAttributeQuery,
  EavAttributeResult,
  EavAttributeUpdateBody,
  EavCountStats,
  EavEntityTypeList,
  EavTypeIdParams,
  EavTypeParams,
  IdParams,
  MessageBody,
  errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import {
  attributeCountStats,
  attributeOverrides,
  createAttribute,
  deleteAttribute,
  listAttributes,
  listEntityTypes,
  updateAttribute,
} from './custom-fields.service.js';
import { putCompanyEavValues } from './company-values.service.js';

const tags = ['custom fields'];

/** Registers the custom-fields module's HTTP routes. */
export function registerCustomFieldsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/eavEntityTypes',
    {
      config: { access: access.signedIn() },
      schema: { tags, summary: 'Entity types custom fields attach to', response: { 200: EavEntityTypeList, ...errorResponses } },
    },
    async () => listEntityTypes(),
  );
  app.get(
    '/api/eavAttributes',
    {
      config: { access: access.company('company.read') },
      schema: {
        tags,
        summary: "Custom fields of a company (with its business unit's, overrides applied) or of a business unit",
        querystring: EavAttributeQuery,
        response: { 200: EavAttributeList, ...errorResponses },
      },
    },
    async (req) =>
      listAttributes(ctx, req.auth!.userId, {
        companyId: req.query.company_id ?? req.query.companyId,
        businessUnitId: req.query.businessUnitId ?? req.query.business_unit_id,
        entityType: req.query.entity_type ?? req.query.entityType,
      }),
  );
  app.post(
    '/api/eavEntityTypes/:type/eavAttributes',
    {
      config: { access: access.company('settings.manage') },
      schema: {
        tags,
        summary: 'Create a custom field (or, with parentId + companyId, a company override)',
        params: EavTypeParams,
        body: EavAttributeBody,
        response: { 201: EavAttributeResult, ...errorResponses },
      },
    },
    async (req, reply) => reply.status(201).send(await createAttribute(ctx, req.auth!.userId, req.params.type, req.body)),
  );
  app.put(
    '/api/eavEntityTypes/:type/eavAttributes/:id',
    {
      config: { access: access.company('settings.manage') },
      schema: {
        tags,
        summary: 'Change a custom field',
        params: EavTypeIdParams,
        body: EavAttributeUpdateBody,
        response: { 200: EavAttributeResult, ...errorResponses },
      },
    },
    async (req) => updateAttribute(ctx, req.auth!.userId, req.params.type, req.params.id, req.body),
  );
  app.delete(
    '/api/eavAttributes/:id',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, summary: 'Delete a custom field (values included) or an override', params: IdParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (req) => deleteAttribute(ctx, req.auth!.userId, req.params.id),
  );
  app.get(
    '/api/eavAttributes/:id/countStats',
    {
      config: { access: access.company('company.read') },
      schema: { tags, summary: 'Usage counts of a custom field', params: IdParams, response: { 200: EavCountStats, ...errorResponses } },
    },
    async (req) => attributeCountStats(ctx, req.auth!.userId, req.params.id),
  );
  app.get(
    '/api/eavAttributes/:id/overrides',
    {
      config: { access: access.company('company.read') },
      schema: { tags, summary: 'Company overrides of a business-unit custom field', params: IdParams, response: { 200: EavAttributeList, ...errorResponses } },
    },
    async (req) => attributeOverrides(ctx, req.auth!.userId, req.params.id),
  );
  app.put(
    '/api/companies/:companyId/custom-fields',
    {
      config: { access: access.company('settings.manage') },
      schema: {
        tags: ['companies'],
        summary: "Save the company's custom-field values (owner or administrator)",
        params: CompanyParams,
        body: PutCompanyCustomFieldsInput,
        response: { 200: EavValuesSaved, ...errorResponses },
      },
    },
    async (req) => putCompanyEavValues(ctx, req.auth!.userId, req.params.companyId, req.body.eavAttributeValues ?? req.body.eav_attribute_values ?? []),
  );
}
