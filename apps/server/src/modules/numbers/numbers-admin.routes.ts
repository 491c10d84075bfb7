/**
 * Number administration HTTP routes (spec 002 §7 "Numbers"; docs/numbers.md), all under /api:
 * POST /numbers/locate, /numbers/locate-bulk; GET /numbers/list/{id or number};
 * POST /numbers/{id}/rotate, /numbers/{id}/remove, /numbers/remove-bulk, /numbers/bulk; PUT /v1/numbers;
 * GET /companies/{companyId}/numbers/batches/{batchId}; GET /companies/{companyId}/numbers/datatable;
 * POST /companies/{companyId}/numbers/export (CSV); GET /numberPrefixes, /numbers/patterns,
 * /numbers/overlay/{areaCode}, /numbers/enumerations; forward contacts CRUD + usage;
 * GET /companies/{companyId}/number-limit, POST .../number-limit-increase;
 * GET .../extension-suggestions; GET, PUT .../triggers.
 */
import {
  BatchParams,
  BatchSchema,
  BatchStartedBody,
  BulkPurchaseInput,
  BulkUpdateInput,
  CompanyParams,
  ExtensionSuggestionsBody,
  ExtensionSuggestionsQuery,
  ForwardContactBody,
  ForwardContactInput,
  ForwardContactListBody,
  ForwardContactParams,
  ForwardContactUsageBody,
  IdParams,
  LocateBulkBody,
  LocateBulkInput,
  LocateInput,
  LocateResult,
  MessageBody,
  NumberDatatableBody,
  NumberDatatableQuery,
  NumberDetailSchema,
  NumberEnumerationsBody,
  NumberExportInput,
  NumberLimitBody,
  NumberLimitIncreaseInput,
  NumberListParams,
  NumberListQuery,
  NumberPatternsBody,
  NumberPrefixesBody,
  OverlayBody,
  OverlayParams,
  RemoveBulkInput,
  RotateBody,
  TriggerListBody,
  TriggerSecretBody,
  TriggerTestBody,
  TriggersInput,
  errorResponses,
} from '@switchboard/contracts';
import type { Schedule } from '@switchboard/domain';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import {
  createForwardContact,
  deleteForwardContact,
  exportNumbersCsv,
  extensionSuggestions,
  forwardContactUsage,
  getNumberDetail,
  getNumberLimit,
  listForwardContacts,
  listTriggers,
  locateNumber,
  locateNumbers,
  numberEnumerations,
  numberPatterns,
  numberPrefixes,
  numbersDatatable,
  overlayOf,
  requestNumberLimitIncrease,
  saveTriggers,
  triggerSecret,
  testTrigger,
  updateForwardContact,
} from './numbers-admin.service.js';
import { getBatch, rotateNumber, startBulkPurchase, startBulkUpdate, startRelease } from './numbers-batches.service.js';
import { fileAnswer } from '../../platform/http/openapi.js';

const tags = ['numbers'];

/** Registers the number administration routes listed in the file header. */
export async function registerNumbersAdminRoutes(app: App, ctx: AppContext): Promise<void> {
  // ------------------------------------------------------------ locate and detail
  app.post(
    '/api/numbers/locate',
    { config: { access: access.company('numbers.read') }, schema: { tags, body: LocateInput, response: { 200: LocateResult, ...errorResponses } } },
    async (request) => locateNumber(ctx, request.auth!.userId, request.body.number),
  );
  app.post(
    '/api/numbers/locate-bulk',
    { config: { access: access.company('numbers.read') }, schema: { tags, body: LocateBulkInput, response: { 200: LocateBulkBody, ...errorResponses } } },
    async (request) => ({
      data: await locateNumbers(ctx, request.auth!.userId, request.body.numbers),
    }),
  );
  app.get(
    '/api/numbers/list/:idOrNumber',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags, params: NumberListParams, querystring: NumberListQuery, response: { 200: NumberDetailSchema, ...errorResponses } },
    },
    async (request) =>
      getNumberDetail(
        ctx,
        request.auth!.userId,
        request.params.idOrNumber,
        (request.query.include ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
  );

  // ------------------------------------------------------------ rotate, release, bulk jobs
  app.post(
    '/api/numbers/:id/rotate',
    { config: { access: access.company('numbers.purchase') }, schema: { tags, params: IdParams, response: { 200: RotateBody, ...errorResponses } } },
    async (request) => rotateNumber(ctx, request.auth!.userId, request.params.id),
  );
  app.post(
    '/api/numbers/:id/remove',
    { config: { access: access.company('numbers.purchase') }, schema: { tags, params: IdParams, response: { 202: BatchStartedBody, ...errorResponses } } },
    async (request, reply) => {
      const b = await startRelease(ctx, request.auth!.userId, [request.params.id]);
      return reply.status(202).send({ message: 'The number is being released.', batchId: b.id, data: b });
    },
  );
  app.post(
    '/api/numbers/remove-bulk',
    { config: { access: access.company('numbers.purchase') }, schema: { tags, body: RemoveBulkInput, response: { 202: BatchStartedBody, ...errorResponses } } },
    async (request, reply) => {
      const b = await startRelease(ctx, request.auth!.userId, request.body.ids);
      return reply.status(202).send({ message: 'The numbers are being released.', batchId: b.id, data: b });
    },
  );
  app.put(
    '/api/v1/numbers',
    { config: { access: access.company('numbers.manage') }, schema: { tags, body: BulkUpdateInput, response: { 202: BatchStartedBody, ...errorResponses } } },
    async (request, reply) => {
      const { ids, label, routes, schedule } = request.body;
      const b = await startBulkUpdate(ctx, request.auth!.userId, { ids, label, routes: routes as never, schedule: schedule as Schedule | undefined });
      return reply.status(202).send({ message: 'The numbers are being updated.', batchId: b.id, data: b });
    },
  );
  app.post(
    '/api/numbers/bulk',
    {
      config: { access: access.company('numbers.purchase') },
      schema: { tags, body: BulkPurchaseInput, response: { 202: BatchStartedBody, ...errorResponses } },
    },
    async (request, reply) => {
      const b = await startBulkPurchase(ctx, request.auth!.userId, request.body);
      return reply.status(202).send({ message: 'The numbers are being purchased.', batchId: b.id, data: b });
    },
  );
  app.get(
    '/api/companies/:companyId/numbers/batches/:batchId',
    { config: { access: access.company('numbers.read') }, schema: { tags, params: BatchParams, response: { 200: BatchSchema, ...errorResponses } } },
    async (request) => getBatch(ctx, request.auth!.userId, request.params.companyId, request.params.batchId),
  );

  // ------------------------------------------------------------ datatable and export
  app.get(
    '/api/companies/:companyId/numbers/datatable',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags, params: CompanyParams, querystring: NumberDatatableQuery, response: { 200: NumberDatatableBody, ...errorResponses } },
    },
    async (request) => numbersDatatable(ctx, request.auth!.userId, request.params.companyId, request.query),
  );
  app.post(
    '/api/companies/:companyId/numbers/export',
    {
      config: { access: access.company('numbers.read') },
      schema: {
        tags,
        params: CompanyParams,
        body: NumberExportInput,
        response: { 200: fileAnswer('text/csv', 'The numbers as a CSV file (attachment)'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const csv = await exportNumbersCsv(ctx, request.auth!.userId, request.params.companyId, request.body);
      const date = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="numbers-${date}.csv"`)
        .send(csv as never);
    },
  );

  // ------------------------------------------------------------ prefixes, patterns, overlays, labels
  app.get(
    '/api/numberPrefixes',
    { config: { access: access.signedIn() }, schema: { tags, response: { 200: NumberPrefixesBody, ...errorResponses } } },
    async () => ({ data: numberPrefixes() }),
  );
  app.get(
    '/api/numbers/patterns',
    { config: { access: access.signedIn() }, schema: { tags, response: { 200: NumberPatternsBody, ...errorResponses } } },
    async () => ({ data: numberPatterns() }),
  );
  app.get(
    '/api/numbers/overlay/:areaCode',
    { config: { access: access.signedIn() }, schema: { tags, params: OverlayParams, response: { 200: OverlayBody, ...errorResponses } } },
    async (request) => ({ data: overlayOf(request.params.areaCode) }),
  );
  app.get(
    '/api/numbers/enumerations',
    { config: { access: access.signedIn() }, schema: { tags, response: { 200: NumberEnumerationsBody, ...errorResponses } } },
    async () => numberEnumerations(),
  );

  // ------------------------------------------------------------ forward contacts
  app.get(
    '/api/companies/:companyId/forward-contacts',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags, params: CompanyParams, response: { 200: ForwardContactListBody, ...errorResponses } },
    },
    async (request) => ({ data: await listForwardContacts(ctx, request.auth!.userId, request.params.companyId) }),
  );
  app.post(
    '/api/companies/:companyId/forward-contacts',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags, params: CompanyParams, body: ForwardContactInput, response: { 201: ForwardContactBody, ...errorResponses } },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: 'The forward contact has been created',
        data: await createForwardContact(ctx, request.auth!.userId, request.params.companyId, request.body),
      }),
  );
  app.put(
    '/api/companies/:companyId/forward-contacts/:id',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags, params: ForwardContactParams, body: ForwardContactInput, response: { 200: ForwardContactBody, ...errorResponses } },
    },
    async (request) => ({
      message: 'The forward contact has been updated',
      data: await updateForwardContact(ctx, request.auth!.userId, request.params.companyId, request.params.id, request.body),
    }),
  );
  app.delete(
    '/api/companies/:companyId/forward-contacts/:id',
    { config: { access: access.company('numbers.manage') }, schema: { tags, params: ForwardContactParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => {
      await deleteForwardContact(ctx, request.auth!.userId, request.params.companyId, request.params.id);
      return { message: 'The forward contact has been deleted' };
    },
  );
  app.get(
    '/api/companies/:companyId/forward-contacts/:id/usage',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags, params: ForwardContactParams, response: { 200: ForwardContactUsageBody, ...errorResponses } },
    },
    async (request) => ({ data: await forwardContactUsage(ctx, request.auth!.userId, request.params.companyId, request.params.id) }),
  );

  // ------------------------------------------------------------ number limit, suggestions, triggers
  app.get(
    '/api/companies/:companyId/number-limit',
    { config: { access: access.company('numbers.read') }, schema: { tags, params: CompanyParams, response: { 200: NumberLimitBody, ...errorResponses } } },
    async (request) => getNumberLimit(ctx, request.auth!.userId, request.params.companyId),
  );
  app.post(
    '/api/companies/:companyId/number-limit-increase',
    {
      config: { access: access.company('numbers.purchase') },
      schema: { tags, params: CompanyParams, body: NumberLimitIncreaseInput, response: { 200: MessageBody, ...errorResponses } },
    },
    async (request) => requestNumberLimitIncrease(ctx, request.auth!.userId, request.params.companyId, request.body),
  );
  app.get(
    '/api/companies/:companyId/extension-suggestions',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags, params: CompanyParams, querystring: ExtensionSuggestionsQuery, response: { 200: ExtensionSuggestionsBody, ...errorResponses } },
    },
    async (request) => ({
      data: await extensionSuggestions(ctx, request.auth!.userId, request.params.companyId, request.query.number_id, request.query.perPage),
    }),
  );
  app.get(
    '/api/companies/:companyId/triggers',
    { config: { access: access.company('numbers.read') }, schema: { tags, params: CompanyParams, response: { 200: TriggerListBody, ...errorResponses } } },
    async (request) => ({ data: await listTriggers(ctx, request.auth!.userId, request.params.companyId) }),
  );
  app.put(
    '/api/companies/:companyId/triggers',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags, params: CompanyParams, body: TriggersInput, response: { 200: TriggerListBody, ...errorResponses } },
    },
    async (request) => ({
      message: 'Triggers were successfully updated',
      data: await saveTriggers(ctx, request.auth!.userId, request.params.companyId, request.body),
    }),
  );
  app.get(
    '/api/companies/:companyId/triggers/:id/secret',
    {
      config: { access: access.company('numbers.manage') },
      schema: {
        tags,
        summary: 'The signing secret of a webhook trigger (whsec_…)',
        params: ForwardContactParams,
        response: { 200: TriggerSecretBody, ...errorResponses },
      },
    },
    async (request) => ({ data: { secret: await triggerSecret(ctx, request.auth!.userId, request.params.companyId, request.params.id) } }),
  );
  app.post(
    '/api/companies/:companyId/triggers/:id/test',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags, summary: 'Send a trigger a test firing now', params: ForwardContactParams, response: { 200: TriggerTestBody, ...errorResponses } },
    },
    async (request) => testTrigger(ctx, request.auth!.userId, request.params.companyId, request.params.id),
  );
}
