/**
 * Analytics HTTP (spec 001 §7 "GET /analytics/calls"; spec 002 "Dashboard": GET /dashboard,
 * GET /companies/{companyId}/calls/kpi, POST /calls/export, /messages/export, /fax/export,
 * /voicemails/export) and the exports' status and download. Handlers only parse and delegate.
 */
import {
  CallReportBody,
  CallReportQuery,
  CompanyParams,
  DashboardBody,
  DashboardQuery,
  ExportInput,
  ExportJobBody,
  ExportListBody,
  ExportListQuery,
  ExportStartedBody,
  IdParams,
  KpiBody,
  KpiQuery,
  errorResponses,
  type ExportKind,
} from '@switchboard/contracts';
import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { exportCsvStream, exportFile, getExport, listExports, startExport } from './analytics.exports.js';
import { callKpis, callReport, dashboard } from './analytics.reports.js';
import { dashboardPdf, reportPdf } from './analytics.pdf.js';
import { ensureReconcileScheduled } from './analytics.jobs.js';
import { fileAnswer } from '../../platform/http/openapi.js';

const tags = ['analytics'];

function sendCsv(reply: FastifyReply, fileName: string, stream: Readable) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`)
    .send(stream as never);
}

function sendPdf(reply: FastifyReply, fileName: string, stream: Readable) {
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'private, no-store')
    .send(stream as never);
}

/** Registers the analytics routes. */
export function registerAnalyticsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/analytics/calls',
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary:
          'Grouped call report (group, target, report filters). format=csv answers the calls as CSV; with async=1 an export job starts (202, the result message).',
        querystring: CallReportQuery,
        response: { 200: CallReportBody, 202: ExportStartedBody, ...errorResponses },
      },
    },
    async (req, reply) => {
      ensureReconcileScheduled(ctx);
      const q = req.query;
      const userId = req.auth!.userId;
      if (q.format === 'csv') {
        const input = { columns: q.columns, tz: q.timezone, filters: q };
        if (q.async) return reply.status(202).send(await startExport(ctx, userId, 'calls', q.company_id, input));
        const { fileName, stream } = await exportCsvStream(ctx, userId, 'calls', q.company_id, input);
        return sendCsv(reply, fileName, stream);
      }
      return callReport(ctx, userId, q);
    },
  );

  app.get(
    '/api/dashboard',
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'Dashboard: KPIs beside the comparison period, time series, calls by source, number and hour of week, missed calls by number.',
        querystring: DashboardQuery,
        response: { 200: DashboardBody, ...errorResponses },
      },
    },
    async (req) => {
      ensureReconcileScheduled(ctx);
      return dashboard(ctx, req.auth!.userId, req.query);
    },
  );

  // PDF downloads (spec 002 "Dashboard": "Files: generic GET download as PDF blob"; docs/analytics.md "PDF downloads").
  app.get(
    '/api/dashboard/pdf',
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'The dashboard (same query as GET /dashboard) as a PDF file: KPIs beside the comparison period, the series as bars, sources and numbers.',
        querystring: DashboardQuery,
        response: { 200: fileAnswer('application/pdf', 'The dashboard as a PDF file (attachment)'), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { fileName, stream } = await dashboardPdf(ctx, req.auth!.userId, req.query);
      return sendPdf(reply, fileName, stream);
    },
  );
  app.get(
    '/api/analytics/calls/pdf',
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'A grouped call report (same query as GET /analytics/calls) as a PDF file: totals, a bar chart and the table.',
        querystring: CallReportQuery,
        response: { 200: fileAnswer('application/pdf', 'The call report as a PDF file (attachment)'), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { fileName, stream } = await reportPdf(ctx, req.auth!.userId, req.query);
      return sendPdf(reply, fileName, stream);
    },
  );

  app.get(
    '/api/companies/:companyId/calls/kpi',
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags,
        summary: 'KPIs of currentRange beside previousRange (default: the comparison period).',
        params: CompanyParams,
        querystring: KpiQuery,
        response: { 200: KpiBody, ...errorResponses },
      },
    },
    async (req) => callKpis(ctx, req.auth!.userId, req.params.companyId, req.query),
  );

  const exportPaths: Array<[string, ExportKind]> = [
    ['/api/calls/export', 'calls'],
    ['/api/messages/export', 'messages'],
    ['/api/fax/export', 'fax'],
    ['/api/voicemails/export', 'voicemails'],
  ];
  for (const [path, kind] of exportPaths) {
    app.post(
      path,
      {
        config: { access: access.company('reports.export') },
        schema: {
          tags,
          summary: `Export ${kind} as CSV (columns, tz, filters). async (default 1): a job and the result message (202); async=0: the file.`,
          body: ExportInput,
          response: { 202: ExportStartedBody, ...errorResponses },
        },
      },
      async (req, reply) => {
        const b = req.body;
        const input = { columns: b.columns, tz: b.tz, filters: b.filters };
        if (b.async) return reply.status(202).send(await startExport(ctx, req.auth!.userId, kind, b.company_id, input));
        const { fileName, stream } = await exportCsvStream(ctx, req.auth!.userId, kind, b.company_id, input);
        return sendCsv(reply, fileName, stream);
      },
    );
  }

  app.get(
    '/api/analytics/exports',
    {
      config: { access: access.company('reports.export') },
      schema: {
        tags,
        summary: "The current user's recent exports of a company.",
        querystring: ExportListQuery,
        response: { 200: ExportListBody, ...errorResponses },
      },
    },
    async (req) => listExports(ctx, req.auth!.userId, req.query.company_id),
  );
  app.get(
    '/api/analytics/exports/:id',
    {
      config: { access: access.company('reports.export') },
      schema: { tags, summary: 'One export of the current user.', params: IdParams, response: { 200: ExportJobBody, ...errorResponses } },
    },
    async (req) => getExport(ctx, req.auth!.userId, req.params.id),
  );
  app.get(
    '/api/analytics/exports/:id/download',
    {
      config: { access: access.company('reports.export') },
      schema: {
        tags,
        summary: 'The file of a finished export (CSV), to the person who asked for it.',
        params: IdParams,
        response: { 200: fileAnswer('text/csv', 'The export as a CSV file (attachment)'), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { fileName, stream } = await exportFile(ctx, req.auth!.userId, req.params.id);
      return sendCsv(reply, fileName, stream);
    },
  );
}
