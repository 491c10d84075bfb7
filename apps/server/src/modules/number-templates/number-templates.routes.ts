/**
 * Number templates HTTP routes (spec 002 §7): GET, POST /api/companies/{companyId}/numberTemplates;
 * DELETE /api/companies/{companyId}/numberTemplates with the ids (body `{ids}` or query `ids[]`);
 * GET, PUT, DELETE .../numberTemplates/{id}; POST .../numberTemplates/{id}/apply {number_ids}.
 */
import {
  ApplyTemplateBody,
  ApplyTemplateInput,
  CompanyParams,
  MessageBody,
  NumberTemplateBody,
  NumberTemplateInput,
  NumberTemplateListBody,
  NumberTemplateIdsInput,
  NumberTemplateIdsQuery,
  NumberTemplateParams,
  NumberTemplateSchema,
  NumberTemplateUpdateInput,
  NumberTemplatesDeletedBody,
  errorResponses,
} from '@switchboard/contracts';
import { ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import {
  applyTemplate,
  createTemplate,
  deleteTemplate,
  deleteTemplates,
  getTemplate,
  listTemplates,
  updateTemplate,
  type TemplateInput,
} from './number-templates.service.js';

const tags = ['number templates'];

/** Registers the number templates routes (spec 002 §7 "Numbers": number templates). */
export async function registerNumberTemplatesRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/companies/:companyId/numberTemplates',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags, params: CompanyParams, response: { 200: NumberTemplateListBody, ...errorResponses } },
    },
    async (request) => ({ data: await listTemplates(ctx, request.auth!.userId, request.params.companyId) }),
  );
  app.post(
    '/api/companies/:companyId/numberTemplates',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags, params: CompanyParams, body: NumberTemplateInput, response: { 201: NumberTemplateBody, ...errorResponses } },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: 'The number template has been created',
        data: await createTemplate(ctx, request.auth!.userId, request.params.companyId, request.body as TemplateInput & { name: string }),
      }),
  );
  app.delete(
    '/api/companies/:companyId/numberTemplates',
    {
      config: { access: access.company('numbers.manage') },
      schema: {
        tags,
        summary: 'Delete the templates `ids` (body {ids} or query ids[])',
        params: CompanyParams,
        querystring: NumberTemplateIdsQuery,
        response: { 200: NumberTemplatesDeletedBody, ...errorResponses },
      },
    },
    async (request) => {
      const ids = templateIdsOf(request.body, request.query.ids);
      const deleted = await deleteTemplates(ctx, request.auth!.userId, request.params.companyId, ids);
      return { message: deleted.length === 1 ? 'The number template has been deleted' : 'The number templates have been deleted', ids: deleted };
    },
  );
  app.get(
    '/api/companies/:companyId/numberTemplates/:id',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags, params: NumberTemplateParams, response: { 200: NumberTemplateSchema, ...errorResponses } },
    },
    async (request) => getTemplate(ctx, request.auth!.userId, request.params.companyId, request.params.id),
  );
  app.put(
    '/api/companies/:companyId/numberTemplates/:id',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags, params: NumberTemplateParams, body: NumberTemplateUpdateInput, response: { 200: NumberTemplateBody, ...errorResponses } },
    },
    async (request) => ({
      message: 'The number template has been updated',
      data: await updateTemplate(ctx, request.auth!.userId, request.params.companyId, request.params.id, request.body as TemplateInput),
    }),
  );
  app.delete(
    '/api/companies/:companyId/numberTemplates/:id',
    { config: { access: access.company('numbers.manage') }, schema: { tags, params: NumberTemplateParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => {
      await deleteTemplate(ctx, request.auth!.userId, request.params.companyId, request.params.id);
      return { message: 'The number template has been deleted' };
    },
  );
  app.post(
    '/api/companies/:companyId/numberTemplates/:id/apply',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags, params: NumberTemplateParams, body: ApplyTemplateInput, response: { 200: ApplyTemplateBody, ...errorResponses } },
    },
    async (request) => ({
      message: 'The template has been applied',
      data: await applyTemplate(ctx, request.auth!.userId, request.params.companyId, request.params.id, request.body.number_ids),
    }),
  );
}

/**
 * The template ids of a collection DELETE: the JSON body `{ids: [...]}` when there is one, else the
 * query `ids[]=1&ids[]=2` or `ids=1,2`.
 * @throws ValidationError 422 on `ids` (missing, empty, not positive integers).
 */
function templateIdsOf(body: unknown, query: string | string[] | undefined): number[] {
  const raw = body !== undefined && body !== null ? body : { ids: typeof query === 'string' ? query.split(',').filter((x) => x.trim() !== '') : query };
  if (typeof raw !== 'object' || (raw as { ids?: unknown }).ids === undefined) throw new ValidationError({ ids: ['The ids field is required.'] });
  const parsed = NumberTemplateIdsInput.safeParse(raw);
  if (parsed.success) return parsed.data.ids;
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'ids'] ??= []).push(issue.message);
  throw new ValidationError(errors);
}
