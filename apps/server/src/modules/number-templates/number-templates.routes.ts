/**
 * Number templates HTTP routes (spec 002 §7): GET, POST /api/companies/{companyId}/numberTemplates;
 * GET, PUT, DELETE .../numberTemplates/{id}; POST .../numberTemplates/{id}/apply {number_ids}.
 */
import {
  ApplyTemplateBody, ApplyTemplateInput, CompanyParams, MessageBody, NumberTemplateBody, NumberTemplateInput, NumberTemplateListBody,
  NumberTemplateParams, NumberTemplateSchema, NumberTemplateUpdateInput, errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../app.js';
import type { AppContext } from '../../context.js';
import { applyTemplate, createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate, type TemplateInput } from './number-templates.service.js';

const tags = ['number templates'];

export async function registerNumberTemplatesRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get('/api/companies/:companyId/numberTemplates', { schema: { tags, params: CompanyParams, response: { 200: NumberTemplateListBody, ...errorResponses } } },
    async (request) => ({ data: await listTemplates(ctx, request.auth!.userId, request.params.companyId) }));
  app.post('/api/companies/:companyId/numberTemplates', { schema: { tags, params: CompanyParams, body: NumberTemplateInput, response: { 201: NumberTemplateBody, ...errorResponses } } },
    async (request, reply) => reply.status(201).send({
      message: 'The number template has been created',
      data: await createTemplate(ctx, request.auth!.userId, request.params.companyId, request.body as TemplateInput & { name: string }),
    }));
  app.get('/api/companies/:companyId/numberTemplates/:id', { schema: { tags, params: NumberTemplateParams, response: { 200: NumberTemplateSchema, ...errorResponses } } },
    async (request) => getTemplate(ctx, request.auth!.userId, request.params.companyId, request.params.id));
  app.put('/api/companies/:companyId/numberTemplates/:id', { schema: { tags, params: NumberTemplateParams, body: NumberTemplateUpdateInput, response: { 200: NumberTemplateBody, ...errorResponses } } },
    async (request) => ({
      message: 'The number template has been updated',
      data: await updateTemplate(ctx, request.auth!.userId, request.params.companyId, request.params.id, request.body as TemplateInput),
    }));
  app.delete('/api/companies/:companyId/numberTemplates/:id', { schema: { tags, params: NumberTemplateParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => {
      await deleteTemplate(ctx, request.auth!.userId, request.params.companyId, request.params.id);
      return { message: 'The number template has been deleted' };
    });
  app.post('/api/companies/:companyId/numberTemplates/:id/apply', { schema: { tags, params: NumberTemplateParams, body: ApplyTemplateInput, response: { 200: ApplyTemplateBody, ...errorResponses } } },
    async (request) => ({
      message: 'The template has been applied',
      data: await applyTemplate(ctx, request.auth!.userId, request.params.companyId, request.params.id, request.body.number_ids),
    }));
}
