/**
 * Campaigns HTTP (spec 001 §7 "Campaigns"): list, read, create (multipart), edit (`POST
 * /campaigns/{id}` with `_method=PATCH`, or PATCH), delete, pause/resume, events; and the carrier's
 * delivery-status webhook for campaign messages `POST /webhooks/twilio/campaigns/status?recipient=`.
 */
import {
  ErrorBody,
  Campaign,
  CampaignEventList,
  CampaignEventsQuery,
  CampaignForm,
  CampaignIncludeQuery,
  CampaignList,
  CampaignListQuery,
  Id,
  IdParams,
  errorResponses,
  CampaignSendingNumbers,
  CampaignSendingNumbersQuery,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import { readMultipart, type UploadedFile } from '../../platform/http/multipart.js';
import { formParams, handleOnce, verifyCarrierSignature } from '../../platform/http/webhooks.js';
import { applyCampaignStatus } from './campaigns.counters.js';
import { createCampaign, deleteCampaign, togglePause, updateCampaign } from './campaigns.editing.js';
import { getCampaign, listCampaignEvents, listCampaigns, listSendingNumbers } from './campaigns.views.js';
import { textAnswer } from '../../platform/http/openapi.js';

const tags = ['campaigns'];

/** Field errors (422) from a form that failed its zod schema, keyed by the top-level field. */
function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) (errors[String(issue.path[0] ?? 'body')] ??= []).push(issue.message);
  return errors;
}

/**
 * Reads the editor's form: multipart fields (`groups[]`, `groups[0]` → arrays; empty list entries
 * dropped, so `groups[]=` clears the groups) and `media[]` files, or a JSON body.
 * @throws ValidationError (422) with field errors when the form does not match `CampaignForm`.
 */
async function readForm(req: FastifyRequest): Promise<{ form: CampaignForm; files: UploadedFile[] }> {
  let raw: unknown = req.body ?? {};
  let files: UploadedFile[] = [];
  if (req.isMultipart()) {
    const read = await readMultipart(req, { fileFields: ['media'], arrays: ['groups', 'media'] });
    raw = Object.fromEntries(Object.entries(read.fields).map(([k, v]) => [k, Array.isArray(v) ? v.filter((x) => x !== '') : v]));
    files = read.files;
  }
  const parsed = CampaignForm.safeParse(raw);
  if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error));
  return { form: parsed.data, files };
}

/** Registers the campaigns API (spec 001 §7 "Campaigns") and the campaign delivery-status webhook. */
export function registerCampaignRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/campaigns',
    {
      config: { access: access.company('campaigns.read') },
      schema: {
        tags,
        summary: 'Campaigns of a company (page size 13; filter[search], filter[status]; sort, dir; include=groups)',
        querystring: CampaignListQuery,
        response: { 200: CampaignList, ...errorResponses },
      },
    },
    async (req) => listCampaigns(ctx, req.auth!.userId, req.query),
  );

  app.get(
    '/api/campaigns/sending-numbers',
    {
      config: { access: access.company('campaigns.read') },
      schema: {
        tags,
        summary: "The company's numbers with their SMS verification state and whether a campaign may be sent from each",
        querystring: CampaignSendingNumbersQuery,
        response: { 200: CampaignSendingNumbers, ...errorResponses },
      },
    },
    async (req) => listSendingNumbers(ctx, req.query.company_id),
  );

  app.get(
    '/api/campaigns/:id',
    {
      config: { access: access.company('campaigns.read') },
      schema: { tags, summary: 'One campaign', params: IdParams, querystring: CampaignIncludeQuery, response: { 200: Campaign, ...errorResponses } },
    },
    async (req) => getCampaign(ctx, req.auth!.userId, req.params.id, req.query.include),
  );

  app.post(
    '/api/campaigns',
    {
      config: { access: access.company('campaigns.manage') },
      schema: {
        tags,
        summary:
          'Create a campaign (multipart: title, text, unsubscribe_text, skip_inbox, groups[], should_be_sent_at, state, number_id, type, dynamic_fields JSON, media[], company_id)',
        body: z.unknown().optional(),
        response: { 201: Campaign, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { form, files } = await readForm(req);
      return reply.status(201).send(await createCampaign(ctx, req.auth!.userId, form, files));
    },
  );

  app.post(
    '/api/campaigns/:id',
    {
      config: { access: access.company('campaigns.manage') },
      schema: {
        tags,
        summary: 'Edit a campaign (same form plus _method=PATCH)',
        params: IdParams,
        body: z.unknown().optional(),
        response: { 200: Campaign, ...errorResponses },
      },
    },
    async (req) => {
      const { form, files } = await readForm(req);
      if (form._method && form._method.toUpperCase() !== 'PATCH') throw new ValidationError({ _method: ['The _method must be PATCH.'] });
      return updateCampaign(ctx, req.auth!.userId, req.params.id, form, files);
    },
  );

  app.patch(
    '/api/campaigns/:id',
    {
      config: { access: access.company('campaigns.manage') },
      schema: {
        tags,
        summary: 'Edit a campaign (JSON or multipart)',
        params: IdParams,
        body: z.unknown().optional(),
        response: { 200: Campaign, ...errorResponses },
      },
    },
    async (req) => {
      const { form, files } = await readForm(req);
      return updateCampaign(ctx, req.auth!.userId, req.params.id, form, files);
    },
  );

  app.delete(
    '/api/campaigns/:id',
    {
      config: { access: access.company('campaigns.manage') },
      schema: { tags, summary: 'Delete a campaign (204); a running send stops', params: IdParams, response: { 204: z.null().optional(), ...errorResponses } },
    },
    async (req, reply) => {
      await deleteCampaign(ctx, req.auth!.userId, req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/campaigns/:id/pause',
    {
      config: { access: access.company('campaigns.manage') },
      schema: {
        tags,
        summary: 'Pause a scheduled or sending campaign, or resume a paused one; returns the campaign',
        params: IdParams,
        querystring: CampaignIncludeQuery,
        body: z.unknown().optional(),
        response: { 200: Campaign, ...errorResponses },
      },
    },
    async (req) => togglePause(ctx, req.auth!.userId, req.params.id, req.query.include),
  );

  app.get(
    '/api/campaigns/:id/events',
    {
      config: { access: access.company('campaigns.read') },
      schema: {
        tags,
        summary: 'Recipients of a campaign with their contact (page size 10; search; status)',
        params: IdParams,
        querystring: CampaignEventsQuery,
        response: { 200: CampaignEventList, ...errorResponses },
      },
    },
    async (req) => listCampaignEvents(ctx, req.auth!.userId, req.params.id, req.query),
  );

  app.post(
    ctx.carrier.webhookPath('campaigns.status'),
    {
      config: { access: access.webhook() },
      preHandler: verifyCarrierSignature(ctx),
      schema: {
        tags: ['webhooks'],
        summary: 'Carrier webhook: campaign message delivery status',
        querystring: z.object({ recipient: Id.optional() }),
        body: z.record(z.string(), z.unknown()).optional(),
        response: { 200: textAnswer('text/xml', 'TwiML (empty)'), 403: ErrorBody, 422: ErrorBody },
      },
    },
    async (req, reply) => {
      const p = ctx.carrier.parseMessageStatus(formParams(req));
      return handleOnce(ctx, reply, `campaignstatus:${p?.sid ?? ''}:${p?.status ?? ''}`, (tx) => applyCampaignStatus(ctx, tx, p, req.query.recipient ?? null));
    },
  );
}
