/**
 * Calls and voicemails HTTP routes (spec 001 §7 "Calls", "Voicemails"; blocked callers are the blocklist module's):
 * GET /api/calls/{id}?include=history,note,ascOptions,eavAttributeValues (outbound 0|1 and isInbound; ascOptions when included);
 * PATCH /api/calls/{id} {qualification, eavAttributeValues}; POST/DELETE /api/calls/{id}/tags/tags {tags};
 * GET /api/voicemails?company_id&page; PUT /api/voicemails/{id}/read|unread; DELETE /api/voicemails/{id};
 * POST /api/v1/calls/token {number_id, destination} (a call placed from the browser, spec 002 §7 "In-app calling").
 */
import {
  CallDetailQuery,
  CallDetailSchema,
  CallTagsBody,
  CallTagsInput,
  IdParams,
  MessageBody,
  OutboundTokenBody,
  OutboundTokenInput,
  PatchCallInput,
  VoicemailBody,
  VoicemailListBody,
  VoicemailListQuery,
  errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { callDetailView, includeList } from './calls.views.js';
import { placeBrowserCall } from './browser-calls.js';
import { addCallTags, getCall, patchCall, removeCallTags } from './call-records.js';
import { deleteVoicemail, listVoicemails, markVoicemail } from './voicemails.js';
import { callDetailExtras } from './recordings.js';

/** Registers the calls and voicemails routes (HTTP only; the use cases check access). */
export async function registerCallsRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/calls/:id',
    {
      config: { access: access.company('calls.read') },
      schema: { tags: ['calls'], params: IdParams, querystring: CallDetailQuery, response: { 200: CallDetailSchema, ...errorResponses } },
    },
    async (request) => {
      const include = includeList(request.query.include);
      const call = await getCall(ctx, request.auth!.userId, request.params.id);
      // The recording and registered includes (transcription: docs/transcription.md).
      return callDetailView({ ...call, ...(await callDetailExtras(ctx, call, include)) }, include);
    },
  );

  app.patch(
    '/api/calls/:id',
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['calls'], params: IdParams, body: PatchCallInput, response: { 200: CallDetailSchema, ...errorResponses } },
    },
    async (request) => callDetailView(await patchCall(ctx, request.auth!.userId, request.params.id, request.body)),
  );

  app.post(
    '/api/calls/:id/tags/tags',
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['calls'], params: IdParams, body: CallTagsInput, response: { 200: CallTagsBody, ...errorResponses } },
    },
    async (request) => addCallTags(ctx, request.auth!.userId, request.params.id, request.body.tags),
  );

  app.delete(
    '/api/calls/:id/tags/tags',
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['calls'], params: IdParams, body: CallTagsInput, response: { 200: CallTagsBody, ...errorResponses } },
    },
    async (request) => removeCallTags(ctx, request.auth!.userId, request.params.id, request.body.tags),
  );

  app.get(
    '/api/voicemails',
    {
      config: { access: access.company('calls.read') },
      schema: { tags: ['voicemails'], querystring: VoicemailListQuery, response: { 200: VoicemailListBody, ...errorResponses } },
    },
    async (request) => listVoicemails(ctx, request.auth!.userId, request.query.company_id, request.query.page, request.query.per_page),
  );

  app.put(
    '/api/voicemails/:id/read',
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['voicemails'], params: IdParams, response: { 200: VoicemailBody, ...errorResponses } },
    },
    async (request) => markVoicemail(ctx, request.auth!.userId, request.params.id, true),
  );

  app.put(
    '/api/voicemails/:id/unread',
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['voicemails'], params: IdParams, response: { 200: VoicemailBody, ...errorResponses } },
    },
    async (request) => markVoicemail(ctx, request.auth!.userId, request.params.id, false),
  );

  app.delete(
    '/api/voicemails/:id',
    { config: { access: access.company('calls.work') }, schema: { tags: ['voicemails'], params: IdParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => deleteVoicemail(ctx, request.auth!.userId, request.params.id),
  );

  app.post(
    '/api/v1/calls/token',
    {
      config: { access: access.company('calls.work') },
      schema: {
        tags: ['in-app calling'],
        summary: 'Token for a call placed from the browser; records the outbound call',
        body: OutboundTokenInput,
        response: { 200: OutboundTokenBody, ...errorResponses },
      },
    },
    async (request) => placeBrowserCall(ctx, request.auth!.userId, request.body),
  );
}
