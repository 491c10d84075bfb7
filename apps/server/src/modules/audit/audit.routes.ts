/**
 * Audit log HTTP routes (docs/audit.md): GET /api/audit-log?company_id&filters&page&per_page (a page, newest first)
 * and GET /api/audit-log/export (the same filters as CSV). Owners and administrators of the company only.
 */
import { AuditLogBody, AuditLogQuery, errorResponses } from '@switchboard/contracts';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import { registerAuditHooks } from './audit.http.js';
import { exportAuditCsv, listAuditLog } from './audit.service.js';
import { fileAnswer } from '../../platform/http/openapi.js';

/** Registers the audit routes and the hooks recording every state-changing request. */
export async function registerAuditRoutes(app: App, ctx: AppContext): Promise<void> {
  registerAuditHooks(app, ctx);
  app.get(
    '/api/audit-log',
    {
      config: { access: access.company('audit.read') },
      schema: {
        tags: ['audit log'],
        summary: "A page of the company's audit log, newest first",
        querystring: AuditLogQuery,
        response: { 200: AuditLogBody, ...errorResponses },
      },
    },
    async (request) => listAuditLog(ctx, request.auth!.userId, request.query),
  );
  app.get(
    '/api/audit-log/export',
    {
      config: { access: access.company('audit.read') },
      schema: {
        tags: ['audit log'],
        summary: 'The filtered audit log as CSV (at most 50 000 newest entries)',
        querystring: AuditLogQuery,
        response: { 200: fileAnswer('text/csv', 'The audit log as a CSV file (attachment)'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { filename, csv } = await exportAuditCsv(ctx, request.auth!.userId, request.query);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(csv);
    },
  );
}
