/**
 * Enhanced caller ID of inbox parties (docs/caller-id.md):
 * - `GET /api/messages/{id}/enhanced-caller-id?lookupWhenMissing=0|1` (spec 001 §7 "Calls"; its
 *   parameters are not shown: the same `lookupWhenMissing` as the call's, default 0): the outside
 *   party of the message's conversation, its contact name first. Another company's message, or one
 *   outside the user's numbers, is 404.
 * - `POST /api/company/{companyId}/trestle/lookup` `{number}` (spec 002 "Messages and
 *   notifications"): a person's manual check of a number: the cache, else the provider; 422 for a
 *   number that is not a phone number.
 * A provider failure is 503/502 and caches nothing. HTTP only: the caller-id service does the work.
 */
import { EnhancedCallerId, EnhancedCallerIdQuery, ErrorBody, IdParams, TrestleLookupInput, TrestleLookupParams, errorResponses } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { NotFoundError, deniedAsNotFound } from '../../platform/http/errors.js';
import { callerIdOfParty, lookupNumberForCompany } from '../caller-id/caller-id.service.js';
import { assertCompanyAccess } from '../companies/companies.service.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { getConversation } from '../conversations/conversations.service.js';
import { findItem } from '../conversations/conversations.queries.js';

const failures = { 502: ErrorBody, 503: ErrorBody };

/** Registers the message's enhanced caller ID and the manual lookup routes. */
export async function registerMessageEnhancedCallerIdRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/messages/:id/enhanced-caller-id',
    {
      config: { access: access.company('inbox.read') },
      schema: {
        tags: ['messages', 'caller id'],
        params: IdParams,
        querystring: EnhancedCallerIdQuery,
        response: { 200: EnhancedCallerId, ...errorResponses, ...failures },
      },
    },
    async (request) => {
      const userId = request.auth!.userId;
      const item = await findItem(ctx, request.params.id);
      if (!item) throw new NotFoundError('Message');
      let conversation: Awaited<ReturnType<typeof getConversation>> | undefined;
      await deniedAsNotFound(
        getConversation(ctx, userId, item.company_id, item.conversation_id).then((c) => (conversation = c)),
        'Message',
      );
      const c = conversation!;
      const contact = c.contact ? { id: c.contact.id, name: c.contact.name } : null;
      return callerIdOfParty(ctx, item.company_id, c.recipient, { lookupWhenMissing: request.query.lookupWhenMissing, contact });
    },
  );

  app.post(
    '/api/company/:companyId/trestle/lookup',
    {
      config: { access: access.company('calls.work') },
      schema: {
        tags: ['messages', 'caller id'],
        params: TrestleLookupParams,
        body: TrestleLookupInput,
        response: { 200: EnhancedCallerId, ...errorResponses, ...failures },
      },
    },
    async (request) => {
      const companyId = request.params.companyId;
      await assertCompanyAccess(ctx, request.auth!.userId, companyId);
      return lookupNumberForCompany(ctx, companyId, request.body.number, async (e164) => {
        const found = await findContactByNumber(ctx, companyId, e164);
        return found ? { id: found.id, name: found.name } : null;
      });
    },
  );
}
