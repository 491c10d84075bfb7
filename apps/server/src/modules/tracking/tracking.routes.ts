/**
 * Call tracking HTTP (spec 002 "DNI"; docs/tracking.md). Signed-in routes under `/api`
 * (contracts/tracking.ts lists them): pools, sources, script and settings, verification,
 * timelines, real-time feed, a call's attribution, leads, reports and the bulk attribute update.
 */
import {
  BulkAttributeBusinessUnitParams,
  BulkAttributeCompanyParams,
  BulkAttributeUpdateResult,
  CompanyParams,
  DniCallAttributionBody,
  DniCallAttributionParams,
  DniCallsReportBody,
  DniCallsReportInput,
  DniLeadBody,
  DniLeadListBody,
  DniLeadListQuery,
  DniLeadParams,
  DniPoolBody,
  DniPoolDeleteQuery,
  DniPoolInput,
  DniPoolListBody,
  DniPoolListQuery,
  DniPoolParams,
  DniPoolReportBody,
  DniPoolReportQuery,
  DniPoolSavedBody,
  DniPoolUpdateInput,
  DniRealTimeFeedBody,
  DniRealTimeFeedQuery,
  DniScriptBody,
  DniSettings,
  DniSettingsInput,
  DniSourceParams,
  DniSourcesBody,
  DniStaticSourceInput,
  DniStaticSourceSavedBody,
  DniStaticSourceUpdateInput,
  DniTimelineBody,
  DniTimelineByNumberBody,
  DniTimelineByNumberParams,
  DniTimelineByNumberQuery,
  DniTimelineParams,
  MessageBody,
  VerifyScriptBody,
  VerifyScriptInput,
  errorResponses,
} from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import { readMultipart } from '../../platform/http/multipart.js';
import { BulkRowsError, bulkTemplate, bulkUpload, type BulkScope } from './bulk-attributes.js';
import { getLead, listLeads } from './leads.js';
import {
  createPool,
  createStaticSource,
  deletePool,
  deleteStaticSource,
  getPool,
  listPools,
  listSources,
  updatePool,
  updateSettings,
  updateStaticSource,
} from './pools.js';
import { callsReport, poolReport } from './reports.js';
import { getScript, verifyScript } from './script.js';
import { callAttribution, numberTimeline, realTimeFeed, sessionTimeline } from './timeline.js';
import { fileAnswer } from '../../platform/http/openapi.js';

const tags = ['call tracking'];
const base = '/api/companies/:companyId';

/** Registers the signed-in call tracking API. */
export function registerTrackingRoutes(app: App, ctx: AppContext): void {
  // ------------------------------------------------------------ pools
  app.get(
    `${base}/dniPools`,
    {
      config: { access: access.company('tracking.read') },
      schema: {
        tags,
        summary: "The company's DNI pools by priority, with numbers and health",
        params: CompanyParams,
        querystring: DniPoolListQuery,
        response: { 200: DniPoolListBody, ...errorResponses },
      },
    },
    async (req) => listPools(ctx, req.auth!.userId, req.params.companyId, req.query.search),
  );
  app.post(
    `${base}/dniPools`,
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Create a pool (rules, target numbers, numbers, purchase, session duration, cool-down, fallback)',
        params: CompanyParams,
        body: DniPoolInput,
        response: { 201: DniPoolSavedBody, ...errorResponses },
      },
    },
    async (req, reply) => reply.status(201).send(await createPool(ctx, req.auth!.userId, req.params.companyId, req.body)),
  );
  app.get(
    `${base}/dniPools/:poolId`,
    {
      config: { access: access.company('tracking.read') },
      schema: { tags, summary: 'One pool', params: DniPoolParams, response: { 200: DniPoolBody, ...errorResponses } },
    },
    async (req) => getPool(ctx, req.auth!.userId, req.params.companyId, req.params.poolId),
  );
  app.put(
    `${base}/dniPools/:poolId`,
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Update a pool (any field; number_ids replaces its numbers)',
        params: DniPoolParams,
        body: DniPoolUpdateInput,
        response: { 200: DniPoolSavedBody, ...errorResponses },
      },
    },
    async (req) => updatePool(ctx, req.auth!.userId, req.params.companyId, req.params.poolId, req.body),
  );
  app.delete(
    `${base}/dniPools/:poolId`,
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Delete a pool; shouldDeleteNumbers=1 releases its numbers, 0 keeps them',
        params: DniPoolParams,
        querystring: DniPoolDeleteQuery,
        response: { 200: MessageBody.extend({ batchId: z.string().nullable() }), ...errorResponses },
      },
    },
    async (req) => deletePool(ctx, req.auth!.userId, req.params.companyId, req.params.poolId, req.query.shouldDeleteNumbers === '1'),
  );

  // ------------------------------------------------------------ sources
  app.get(
    `${base}/dniSources`,
    {
      config: { access: access.company('tracking.read') },
      schema: { tags, summary: 'Traffic sources and static tracking numbers', params: CompanyParams, response: { 200: DniSourcesBody, ...errorResponses } },
    },
    async (req) => listSources(ctx, req.auth!.userId, req.params.companyId),
  );
  app.post(
    `${base}/dniSources`,
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Create a static tracking number (one number, one source)',
        params: CompanyParams,
        body: DniStaticSourceInput,
        response: { 201: DniStaticSourceSavedBody, ...errorResponses },
      },
    },
    async (req, reply) => reply.status(201).send(await createStaticSource(ctx, req.auth!.userId, req.params.companyId, req.body)),
  );
  app.put(
    `${base}/dniSources/:sourceId`,
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Update a static tracking number',
        params: DniSourceParams,
        body: DniStaticSourceUpdateInput,
        response: { 200: DniStaticSourceSavedBody, ...errorResponses },
      },
    },
    async (req) => updateStaticSource(ctx, req.auth!.userId, req.params.companyId, req.params.sourceId, req.body),
  );
  app.delete(
    `${base}/dniSources/:sourceId`,
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Delete a static tracking number (the number stays)',
        params: DniSourceParams,
        response: { 200: MessageBody, ...errorResponses },
      },
    },
    async (req) => deleteStaticSource(ctx, req.auth!.userId, req.params.companyId, req.params.sourceId),
  );

  // ------------------------------------------------------------ script, settings, verification
  app.get(
    `${base}/trackingNumbers/script`,
    {
      config: { access: access.company('tracking.read') },
      schema: {
        tags,
        summary: 'The tracking script snippet, settings and last page seen',
        params: CompanyParams,
        response: { 200: DniScriptBody, ...errorResponses },
      },
    },
    async (req) => getScript(ctx, req.auth!.userId, req.params.companyId),
  );
  app.put(
    `${base}/trackingNumbers/settings`,
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Tracking settings: wait for consent, first-party host',
        params: CompanyParams,
        body: DniSettingsInput,
        response: { 200: z.object({ message: z.string(), data: DniSettings }), ...errorResponses },
      },
    },
    async (req) => ({ message: 'Settings saved.', data: await updateSettings(ctx, req.auth!.userId, req.params.companyId, req.body) }),
  );
  app.post(
    `${base}/trackingNumbers/verifyScript`,
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Fetch a page server-side and report whether the tracking script is installed',
        params: CompanyParams,
        body: VerifyScriptInput,
        response: { 200: VerifyScriptBody, ...errorResponses },
      },
    },
    async (req) => verifyScript(ctx, req.auth!.userId, req.params.companyId, req.body.url),
  );

  // ------------------------------------------------------------ timelines, feed, attribution
  app.get(
    `${base}/dniTimelineEvents/:sessionId`,
    {
      config: { access: access.company('reports.read') },
      schema: { tags, summary: "A session's journey", params: DniTimelineParams, response: { 200: DniTimelineBody, ...errorResponses } },
    },
    async (req) => sessionTimeline(ctx, req.auth!.userId, req.params.companyId, req.params.sessionId),
  );
  app.get(
    `${base}/dniTimelineEventsByNumber/:number`,
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'The sessions shown a number, newest first, with their journeys',
        params: DniTimelineByNumberParams,
        querystring: DniTimelineByNumberQuery,
        response: { 200: DniTimelineByNumberBody, ...errorResponses },
      },
    },
    async (req) => numberTimeline(ctx, req.auth!.userId, req.params.companyId, req.params.number, req.query),
  );
  app.get(
    `${base}/dni/realTimeFeed`,
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'Visitors on the site now and the latest calls',
        params: CompanyParams,
        querystring: DniRealTimeFeedQuery,
        response: { 200: DniRealTimeFeedBody, ...errorResponses },
      },
    },
    async (req) => realTimeFeed(ctx, req.auth!.userId, req.params.companyId, req.query.calls_limit),
  );
  app.get(
    `${base}/dniCallAttribution/:callId`,
    {
      config: { access: access.company('calls.read') },
      schema: {
        tags,
        summary: "An inbound call's attribution (first and last touch, session, first contact)",
        params: DniCallAttributionParams,
        response: { 200: DniCallAttributionBody, ...errorResponses },
      },
    },
    async (req) => callAttribution(ctx, req.auth!.userId, req.params.companyId, req.params.callId),
  );

  // ------------------------------------------------------------ leads
  app.get(
    `${base}/dni/leads`,
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: "The company's leads (one person's calls, texts and visits), latest contact first",
        params: CompanyParams,
        querystring: DniLeadListQuery,
        response: { 200: DniLeadListBody, ...errorResponses },
      },
    },
    async (req) => listLeads(ctx, req.auth!.userId, req.params.companyId, req.query),
  );
  app.get(
    `${base}/dni/leads/:leadId`,
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'A lead with its calls, texts and visits, first and last touch',
        params: DniLeadParams,
        response: { 200: DniLeadBody, ...errorResponses },
      },
    },
    async (req) => getLead(ctx, req.auth!.userId, req.params.companyId, req.params.leadId),
  );

  // ------------------------------------------------------------ reports
  app.post(
    '/api/dni/reports/calls',
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'Calls and sessions grouped by a marketing dimension (first or last touch)',
        body: DniCallsReportInput,
        response: { 200: DniCallsReportBody, ...errorResponses },
      },
    },
    async (req) => callsReport(ctx, req.auth!.userId, req.body),
  );
  app.get(
    '/api/dni/reports',
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'Pool health: utilisation over time, exhaustion count, the pool size the traffic needs',
        querystring: DniPoolReportQuery,
        response: { 200: DniPoolReportBody, ...errorResponses },
      },
    },
    async (req) => poolReport(ctx, req.auth!.userId, req.query),
  );

  // ------------------------------------------------------------ bulk attribute update
  const template = async (req: FastifyRequest, reply: FastifyReply, scope: BulkScope) => {
    const t = await bulkTemplate(ctx, req.auth!.userId, scope);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${t.filename}"`).send(t.csv);
  };
  const upload = async (req: FastifyRequest, reply: FastifyReply, scope: BulkScope) => {
    const form = await readMultipart(req, { fileFields: ['file'] });
    try {
      return reply.send(await bulkUpload(ctx, req.auth!.userId, scope, form.files[0]?.data));
    } catch (e) {
      if (e instanceof BulkRowsError) return reply.status(422).send(e.result);
      throw e;
    }
  };
  app.get(
    '/api/bulkAttributeUpdate/companies/:companyId',
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'CSV template of the bulk attribute update for a company',
        params: BulkAttributeCompanyParams,
        response: { 200: fileAnswer('text/csv', 'The CSV template (attachment)'), ...errorResponses },
      },
    },
    async (req, reply) => template(req, reply, { kind: 'company', companyId: req.params.companyId }),
  );
  app.post(
    '/api/bulkAttributeUpdate/companies/:companyId',
    {
      config: { access: access.company('tracking.manage') },
      schema: {
        tags,
        summary: 'Upload the bulk attribute update CSV (multipart `file`) for a company: all rows or none',
        params: BulkAttributeCompanyParams,
        body: z.unknown().optional(),
        response: { ...errorResponses, 200: BulkAttributeUpdateResult, 422: BulkAttributeUpdateResult.or(errorResponses[422]) },
      },
    },
    async (req, reply) => upload(req, reply, { kind: 'company', companyId: req.params.companyId }),
  );
  app.get(
    '/api/bulkAttributeUpdate/businessUnits/:id',
    {
      config: { access: access.company('tracking.manage', { from: [] }) },
      schema: {
        tags,
        summary: 'CSV template of the bulk attribute update for a business unit',
        params: BulkAttributeBusinessUnitParams,
        response: { 200: fileAnswer('text/csv', 'The CSV template (attachment)'), ...errorResponses },
      },
    },
    async (req, reply) => template(req, reply, { kind: 'businessUnit', id: req.params.id }),
  );
  app.post(
    '/api/bulkAttributeUpdate/businessUnits/:id',
    {
      config: { access: access.company('tracking.manage', { from: [] }) },
      schema: {
        tags,
        summary: 'Upload the bulk attribute update CSV (multipart `file`) for a business unit: all rows or none',
        params: BulkAttributeBusinessUnitParams,
        body: z.unknown().optional(),
        response: { ...errorResponses, 200: BulkAttributeUpdateResult, 422: BulkAttributeUpdateResult.or(errorResponses[422]) },
      },
    },
    async (req, reply) => upload(req, reply, { kind: 'businessUnit', id: req.params.id }),
  );
}
