/**
 * `GET /api/calls/{id}/enhanced-caller-id?lookupWhenMissing=0|1` (spec 001 §7 "Calls"): the outside
 * party's enhanced caller ID (the caller of an inbound call, the callee of an outbound one), the
 * company's contact name first (docs/caller-id.md). Another company's call, or one outside the
 * user's numbers, is 404; `lookupWhenMissing=1` asks the provider when nothing fresh is cached;
 * a provider failure is 503/502 and caches nothing. HTTP only: the caller-id service does the work.
 */
import { EnhancedCallerId, EnhancedCallerIdQuery, ErrorBody, IdParams, errorResponses } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { callerIdOfParty } from '../caller-id/caller-id.service.js';
import { callForUser, knownParty } from './call-records.js';

/** Registers the call's enhanced caller ID route. */
export async function registerCallEnhancedCallerIdRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/calls/:id/enhanced-caller-id',
    {
      config: { access: access.company('calls.read') },
      schema: {
        tags: ['calls', 'caller id'],
        params: IdParams,
        querystring: EnhancedCallerIdQuery,
        response: { 200: EnhancedCallerId, ...errorResponses, 502: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const call = await callForUser(ctx, request.auth!.userId, request.params.id);
      const party = call.direction === 'outbound' ? call.to_number : call.from_number;
      const contact = await knownParty(ctx, call.company_id, call.contact_id, party);
      return callerIdOfParty(ctx, call.company_id, party, { lookupWhenMissing: request.query.lookupWhenMissing, contact });
    },
  );
}
