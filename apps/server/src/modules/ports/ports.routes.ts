/** Port-in HTTP routes (spec 002 §7 "Ports"): GET /api/company/{companyId}/ports, POST /api/company/{companyId}/numbers/port. */
import { CompanyParams, PortCreatedBody, PortListBody, PortRequestInput, errorResponses } from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { createPort, listPorts } from './ports.service.js';

/** Registers the port-in routes. */
export async function registerPortsRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/company/:companyId/ports',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags: ['ports'], params: CompanyParams, response: { 200: PortListBody, ...errorResponses } },
    },
    async (request) => ({ data: await listPorts(ctx, request.auth!.userId, request.params.companyId) }),
  );
  app.post(
    '/api/company/:companyId/numbers/port',
    {
      config: { access: access.company('numbers.purchase'), maxTextLength: 5_000_000 },
      schema: { tags: ['ports'], params: CompanyParams, body: PortRequestInput, response: { 201: PortCreatedBody, ...errorResponses } },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: 'Your port request has been submitted.',
        data: await createPort(ctx, request.auth!.userId, request.params.companyId, request.body),
      }),
  );
}
