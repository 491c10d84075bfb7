/**
 * Support HTTP routes (spec 002 "Support"; docs/workspace.md "Support"): `POST /api/contact/support-ticket/{companyId}`
 * (multipart: message, callback_number, callback_requested, attachments, page_url) and the caller's own tickets
 * `GET /api/contact/support-tickets?companyId`. HTTP only; the service validates and checks access.
 */
import { CompanyParams, SupportTicketList, SupportTicketListQuery, SupportTicketSaved, errorResponses } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { readMultipart } from '../../platform/http/multipart.js';
import { createSupportTicket, listMySupportTickets } from './support.service.js';

/** Registers the support routes. */
export async function registerSupportRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['support'];
  app.post(
    '/api/contact/support-ticket/:companyId',
    {
      config: { access: access.company('support.contact') },
      schema: { tags, params: CompanyParams, response: { 201: SupportTicketSaved, ...errorResponses } },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { fileFields: ['attachments'] });
      return reply.status(201).send(await createSupportTicket(ctx, request.auth!.userId, request.params.companyId, form, request.headers['user-agent']));
    },
  );
  app.get(
    '/api/contact/support-tickets',
    {
      config: { access: access.company('support.contact') },
      schema: { tags, querystring: SupportTicketListQuery, response: { 200: SupportTicketList, ...errorResponses } },
    },
    async (request) => listMySupportTickets(ctx, request.auth!.userId, request.query.companyId),
  );
}
