/**
 * SMS verification HTTP routes (spec 002 §7 "SMS verification"; docs/sms-verification.md "Routes"), under
 * `/api/companies/{companyId}/sms-verification/campaign`: GET (list), POST (new draft, JSON), `/{id}` GET and DELETE,
 * `/{id}/{brandId}` POST (multipart update: a `data` field with the JSON `{brand, campaign}` and supporting files
 * `optin_{index}_files` per opt-in; JSON accepted too), `/{id}/submit`, `/{id}/cancel` {sides}, `/{id}/add-numbers`
 * and `/{id}/remove-numbers` {number_ids}. Reading needs `company.read` (every member sees why a number is
 * unverified); changing needs `settings.manage` (owner and administrator; billing and others read only). Also the
 * registry provider's signed webhook `POST /webhooks/telnyx/10dlc` (with SMS_REGISTRY=telnyx), applied once per event.
 */
import { z } from 'zod';
import {
  ErrorBody,
  MessageBody,
  SmsCampaignAnswer,
  SmsCampaignBrandParams,
  SmsCampaignList,
  SmsCampaignMessageAnswer,
  SmsCampaignParams,
  SmsCancelInput,
  SmsNumbersInput,
  SmsVerificationSave,
  CompanyParams,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { AppError, ValidationError } from '../../platform/http/errors.js';
import { readMultipart, type UploadedFile } from '../../platform/http/multipart.js';
import { handleOnce } from '../../platform/http/webhooks.js';
import { RegistrySignatureError, smsRegistry } from '../../platform/registration/index.js';
import { campaignsForRegistryId, enqueueReview } from './sms-verification.review.js';
import {
  addNumbers,
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  removeNumbers,
  submitCampaign,
  checkSubmit,
  updateCampaign,
} from './sms-verification.service.js';

const OPTIN_FILE_FIELDS = ['optin_0_files', 'optin_1_files', 'optin_2_files'] as const;
/** Supporting files: images and PDF, at most 5 per opt-in method. */
const FILE_TYPES = /^(image\/(png|jpeg|gif|webp)|application\/pdf)$/;

/** Zod issues → the spec's field errors. */
function zodErrors(issues: Array<{ path: PropertyKey[]; message: string }>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const i of issues) (out[i.path.map(String).join('.') || 'data'] ??= []).push(i.message);
  return out;
}

/** Registers the SMS verification routes and the registry webhook. */
export async function registerSmsVerificationRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['sms-verification'];
  const read = access.company('company.read');
  const manage = access.company('settings.manage');
  const base = '/api/companies/:companyId/sms-verification/campaign';

  app.get(
    base,
    { config: { access: read }, schema: { tags, params: CompanyParams, response: { 200: SmsCampaignList, ...errorResponses } } },
    async (request) => ({
      data: await listCampaigns(ctx, request.params.companyId),
    }),
  );
  app.post(
    base,
    { config: { access: manage }, schema: { tags, params: CompanyParams, body: SmsVerificationSave, response: { 201: SmsCampaignAnswer, ...errorResponses } } },
    async (request, reply) => reply.status(201).send({ data: await createCampaign(ctx, request.params.companyId, request.body) }),
  );
  app.get(
    `${base}/:id`,
    { config: { access: read }, schema: { tags, params: SmsCampaignParams, response: { 200: SmsCampaignAnswer, ...errorResponses } } },
    async (request) => ({ data: await getCampaign(ctx, request.params.companyId, request.params.id) }),
  );
  app.delete(
    `${base}/:id`,
    { config: { access: manage }, schema: { tags, params: SmsCampaignParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => {
      await deleteCampaign(ctx, request.params.companyId, request.params.id);
      return { message: 'The SMS verification was deleted.' };
    },
  );
  app.post(
    `${base}/:id/check`,
    { config: { access: manage }, schema: { tags, params: SmsCampaignParams, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => checkSubmit(ctx, request.params.companyId, request.params.id),
  );
  app.post(
    `${base}/:id/submit`,
    { config: { access: manage }, schema: { tags, params: SmsCampaignParams, response: { 200: SmsCampaignMessageAnswer, ...errorResponses } } },
    async (request) => submitCampaign(ctx, request.params.companyId, request.params.id),
  );
  app.post(
    `${base}/:id/cancel`,
    {
      config: { access: manage },
      schema: { tags, params: SmsCampaignParams, body: SmsCancelInput, response: { 200: SmsCampaignMessageAnswer, ...errorResponses } },
    },
    async (request) => cancelCampaign(ctx, request.params.companyId, request.params.id, request.body.sides),
  );
  app.post(
    `${base}/:id/add-numbers`,
    {
      config: { access: manage },
      schema: { tags, params: SmsCampaignParams, body: SmsNumbersInput, response: { 200: SmsCampaignMessageAnswer, ...errorResponses } },
    },
    async (request) => addNumbers(ctx, request.params.companyId, request.params.id, request.body.number_ids),
  );
  app.post(
    `${base}/:id/remove-numbers`,
    {
      config: { access: manage },
      schema: { tags, params: SmsCampaignParams, body: SmsNumbersInput, response: { 200: SmsCampaignMessageAnswer, ...errorResponses } },
    },
    async (request) => removeNumbers(ctx, request.params.companyId, request.params.id, request.body.number_ids),
  );
  app.post(
    `${base}/:id/:brandId`,
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'Update a draft: multipart `data` (JSON {brand, campaign}) and optin_{i}_files, or JSON',
        params: SmsCampaignBrandParams,
        response: { 200: SmsCampaignAnswer, ...errorResponses },
      },
    },
    async (request) => {
      let raw: unknown = request.body;
      const files = new Map<number, UploadedFile[]>();
      if (request.isMultipart()) {
        const form = await readMultipart(request, { fileFields: OPTIN_FILE_FIELDS });
        const data = form.fields.data;
        if (typeof data !== 'string') throw new ValidationError({ data: ['The data field (JSON) is required.'] });
        try {
          raw = JSON.parse(data);
        } catch (e) {
          if (!(e instanceof SyntaxError)) throw e;
          throw new ValidationError({ data: ['The data field must be JSON.'] });
        }
        for (const f of form.files) {
          const i = Number(f.field.split('_')[1]);
          if (!FILE_TYPES.test(f.mimetype))
            throw new ValidationError({ [f.field]: [`${f.filename}: supporting files must be images (PNG, JPEG, GIF, WebP) or PDF.`] });
          files.set(i, [...(files.get(i) ?? []), f]);
          if (files.get(i)!.length > 5) throw new ValidationError({ [f.field]: ['At most 5 supporting files per opt-in method.'] });
        }
      }
      const parsed = SmsVerificationSave.safeParse(raw ?? {});
      if (!parsed.success) throw new ValidationError(zodErrors(parsed.error.issues));
      return { data: await updateCampaign(ctx, request.params.companyId, request.params.id, request.params.brandId, parsed.data, files) };
    },
  );

  // The registry provider's webhook: the raw body is kept for the Ed25519 signature (Telnyx signs the exact bytes).
  await app.register(async (child) => {
    child.removeContentTypeParser('application/json');
    child.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    const answers = { 200: z.object({ received: z.boolean() }), 400: ErrorBody, 422: ErrorBody };
    child.post('/webhooks/telnyx/10dlc', { config: { access: access.webhook() }, schema: { tags, response: answers } }, async (request, reply) => {
      const headers = Object.fromEntries(Object.entries(request.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
      let notice;
      try {
        notice = await smsRegistry(ctx.config).parseWebhook(String(request.body ?? ''), headers);
      } catch (error) {
        if (error instanceof RegistrySignatureError) throw new AppError(400, `Invalid webhook signature: ${error.message}`);
        throw error;
      }
      if (!notice) return reply.send({ received: true });
      const ids = await campaignsForRegistryId(ctx, notice.registryId, notice.subject);
      await handleOnce(ctx, reply, `telnyx-10dlc:${notice.eventId}`, async () => ({
        response: { contentType: 'application/json', body: JSON.stringify({ received: true }) },
        afterCommit: async () => {
          for (const id of ids) await enqueueReview(ctx, id);
        },
      }));
      return reply;
    });
  });
}
