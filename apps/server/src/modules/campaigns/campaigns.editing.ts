/**
 * Editing campaigns (spec 001 §3 Campaign, §5 validation, §7 "Campaigns"): create, edit, delete,
 * pause ⇄ resume, the company's sending rate; validation of the merged values and the company's
 * ids, and the media uploaded with the form. Sending starts through `campaigns.dispatch.ts`.
 */
import { storeUploads } from '../../platform/blob/upload.js';
import { type Campaign, type CampaignForm, CampaignMergeField } from '@switchboard/contracts';
import { CAMPAIGN_VALIDATION_MESSAGES, newCampaignDefaults, validateCampaign, type MergeField } from '@switchboard/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { NotFoundError, ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import type { UploadedFile } from '../../platform/http/multipart.js';
import { AGENT_ROLES, assertCompanyAccess, getCompanyMessagingSettings } from '../companies/companies.service.js';
import { assertGroupIds } from '../contacts/groups.service.js';
import { getCompanyNumber } from '../numbers/numbers.service.js';
import { assertCompanyInService } from '../numbers/service-state.js';
import { campaignSendingPermit } from '../sms-verification/sms-verification.service.js';
import { campaignsRepository as repo, type CampaignRow } from './campaigns.repository.js';
import { enqueueDispatch, enqueueStart } from './campaigns.dispatch.js';
import { campaignRuntime } from './campaigns.runtime.js';
import { campaignForUser, present, publishCampaign, wantsGroups } from './campaigns.views.js';

/**
 * The form's `dynamic_fields` (a JSON string or a list of merge fields): null when absent or empty.
 * @throws ValidationError (422) for invalid JSON or an unknown merge field.
 */
function parseMergeFields(value: CampaignForm['dynamic_fields']): MergeField[] | null {
  if (value === undefined) return null;
  let raw: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    try {
      raw = JSON.parse(value);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      throw new ValidationError({ dynamic_fields: ['The dynamic fields must be a valid JSON string.'] });
    }
  }
  const parsed = z.array(CampaignMergeField).safeParse(raw);
  if (!parsed.success) throw new ValidationError({ dynamic_fields: ['The dynamic fields are invalid.'] });
  return parsed.data;
}

/** The form's `should_be_sent_at`: undefined when absent, null when cleared, `'invalid'` when not a date. */
function parseSendAt(value: string | null | undefined): Date | null | undefined | 'invalid' {
  if (value === undefined) return undefined;
  if (value === null || value.trim() === '') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? 'invalid' : d;
}

/** A campaign's editable values after merging the form over the stored row. */
type Draft = {
  title: string;
  text: string;
  unsubscribe_text: string;
  skip_inbox: boolean;
  groups: number[];
  should_be_sent_at: Date | null;
  state: 'draft' | 'queued';
  number_id: number | null;
  dynamic_fields: MergeField[];
  keepMedia: string[];
  rate_per_second: number | null;
};

/** Validates the merged values (domain `validateCampaign`, spec 001 §5) and the company's ids. */
async function validateDraft(ctx: AppContext, companyId: number, d: Draft, sendAtInvalid: boolean, mediaCount: number): Promise<void> {
  // A parked or deactivated account sends no campaign (docs/accounts.md "Account status"): 422 with the message.
  if (d.state !== 'draft') await assertCompanyInService(ctx, companyId, 'campaign');
  const settings = await getCompanyMessagingSettings(ctx, companyId);
  const errors: FieldErrors = validateCampaign(
    {
      title: d.title,
      text: d.text,
      unsubscribe_text: d.unsubscribe_text,
      groups: d.groups,
      number_id: d.number_id,
      should_be_sent_at: d.should_be_sent_at,
      media: Array.from({ length: mediaCount }),
    },
    { linksEnabled: settings.links_enabled, draft: d.state === 'draft', now: campaignRuntime.now() },
  ) as FieldErrors;
  if (sendAtInvalid) (errors.should_be_sent_at ??= []).splice(0, Infinity, CAMPAIGN_VALIDATION_MESSAGES.sendAtInvalid);
  if (d.number_id !== null && !errors.number_id) {
    try {
      await getCompanyNumber(ctx, companyId, d.number_id);
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      errors.number_id = ['The selected number id is invalid.'];
    }
    // Sending rules (docs/sms-verification.md "Sending rules"): a campaign is sent only from a registered number.
    if (!errors.number_id && d.state !== 'draft') {
      const permit = await campaignSendingPermit(ctx, companyId, d.number_id);
      if (!permit.allowed) errors.number_id = [permit.message];
    }
  }
  if (d.groups.length && !errors.groups) {
    try {
      await assertGroupIds(ctx, companyId, d.groups);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      errors.groups = ['The selected group is invalid.'];
    }
  }
  if (d.rate_per_second !== null && !(d.rate_per_second >= 0 && d.rate_per_second <= 1000))
    errors.rate_per_second = ['The rate per second must be between 0 and 1000.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** Stores uploaded media in the company's blob space (`c/{companyId}/campaign-media/`) and returns their `campaign_media` values. */
async function storeMedia(ctx: AppContext, companyId: number, files: UploadedFile[]) {
  return (await storeUploads(ctx.blobs, companyId, 'campaign-media', files)).map((u) => ({
    name: u.name,
    url: u.url,
    blob_key: u.key,
    content_type: u.contentType,
  }));
}

/**
 * `POST /api/campaigns` (multipart or JSON): creates a campaign. State `draft` needs only a title;
 * `queued` must pass every rule of spec 001 §5 and is sent by a job at `should_be_sent_at` (or now).
 * @throws ValidationError (422) with field errors; ForbiddenError (403) outside the company.
 */
export async function createCampaign(ctx: AppContext, userId: number, form: CampaignForm, files: UploadedFile[]): Promise<Campaign> {
  if (!form.company_id) throw new ValidationError({ company_id: ['The company id field is required.'] });
  const companyId = form.company_id;
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const sendAt = parseSendAt(form.should_be_sent_at);
  const defaults = newCampaignDefaults();
  const d: Draft = {
    title: form.title ?? '',
    text: form.text ?? '',
    unsubscribe_text: form.unsubscribe_text ?? defaults.unsubscribe_text,
    skip_inbox: form.skip_inbox ?? defaults.skip_inbox,
    groups: form.groups ?? [],
    should_be_sent_at: sendAt instanceof Date ? sendAt : null,
    state: form.state ?? 'draft',
    number_id: typeof form.number_id === 'number' ? form.number_id : null,
    dynamic_fields: parseMergeFields(form.dynamic_fields) ?? defaults.dynamic_fields,
    keepMedia: [],
    rate_per_second: form.rate_per_second ?? null,
  };
  await validateDraft(ctx, companyId, d, sendAt === 'invalid', files.length);
  const media = await storeMedia(ctx, companyId, files);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const created = await repo.insert(tx, {
      user_id: userId,
      company_id: companyId,
      type: 'sms',
      title: d.title,
      text: d.text,
      unsubscribe_text: d.unsubscribe_text,
      should_be_sent_at: d.should_be_sent_at,
      state: d.state,
      number_id: d.number_id,
      dynamic_fields: JSON.stringify(d.dynamic_fields),
      skip_inbox: d.skip_inbox,
      rate_per_second: d.rate_per_second,
    });
    await repo.setGroups(tx, created.id, d.groups);
    await repo.replaceMedia(tx, created.id, null, media);
    if (created.state === 'queued') await enqueueStart(ctx, created, tx);
    return created;
  });
  publishCampaign(ctx, row);
  return (await present(ctx, [row], true))[0]!;
}

/**
 * `POST /api/campaigns/{id}` with `_method=PATCH`: edits the fields given (others keep their
 * values). `media` lists stored URLs to keep (absent = keep all); new files are appended.
 * A campaign that has started sending can no longer be edited (422 on `state`).
 * @throws NotFoundError (404) for another company's campaign; ValidationError (422).
 */
export async function updateCampaign(ctx: AppContext, userId: number, id: number, form: CampaignForm, files: UploadedFile[]): Promise<Campaign> {
  const current = await campaignForUser(ctx, userId, id, AGENT_ROLES);
  if (current.started || !['pending', 'draft', 'queued', 'paused', 'failed'].includes(current.state)) {
    throw new ValidationError({ state: ['A campaign that has started sending can no longer be edited.'] });
  }
  const existingMedia = (await repo.mediaOf(ctx.db, [id])).get(id) ?? [];
  const groups = (await repo.groupsOf(ctx.db, [id])).get(id) ?? [];
  const sendAt = parseSendAt(form.should_be_sent_at);
  const keep = form.media ? existingMedia.filter((m) => form.media!.includes(m.url)).map((m) => m.url) : existingMedia.map((m) => m.url);
  const d: Draft = {
    title: form.title ?? current.title,
    text: form.text ?? current.text,
    unsubscribe_text: form.unsubscribe_text ?? current.unsubscribe_text,
    skip_inbox: form.skip_inbox ?? current.skip_inbox,
    groups: form.groups ?? groups,
    should_be_sent_at: sendAt === undefined ? current.should_be_sent_at : sendAt instanceof Date ? sendAt : null,
    state: form.state ?? (current.state === 'queued' ? 'queued' : 'draft'),
    number_id: form.number_id === undefined ? current.number_id : typeof form.number_id === 'number' ? form.number_id : null,
    dynamic_fields: parseMergeFields(form.dynamic_fields) ?? (current.dynamic_fields as MergeField[]),
    keepMedia: keep,
    rate_per_second: form.rate_per_second === undefined ? current.rate_per_second : form.rate_per_second,
  };
  await validateDraft(ctx, current.company_id, d, sendAt === 'invalid', keep.length + files.length);
  const media = await storeMedia(ctx, current.company_id, files);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const locked = await repo.find(tx, current.company_id, id, true);
    if (!locked) throw new NotFoundError('Campaign');
    if (locked.started) throw new ValidationError({ state: ['A campaign that has started sending can no longer be edited.'] });
    const updated = (await repo.update(tx, id, {
      title: d.title,
      text: d.text,
      unsubscribe_text: d.unsubscribe_text,
      skip_inbox: d.skip_inbox,
      should_be_sent_at: d.should_be_sent_at,
      state: d.state,
      number_id: d.number_id,
      dynamic_fields: JSON.stringify(d.dynamic_fields),
      rate_per_second: d.rate_per_second,
    }))!;
    await repo.setGroups(tx, id, d.groups);
    await repo.replaceMedia(tx, id, d.keepMedia, media);
    // A new start job for the (possibly new) time; a superseded job sees a different sendAt and does nothing.
    if (updated.state === 'queued') await enqueueStart(ctx, updated, tx);
    return updated;
  });
  publishCampaign(ctx, row);
  return (await present(ctx, [row], true))[0]!;
}

/** `DELETE /api/campaigns/{id}`: deletes the campaign and its ledger; running dispatch stops at its next check. */
export async function deleteCampaign(ctx: AppContext, userId: number, id: number): Promise<void> {
  const row = await campaignForUser(ctx, userId, id, AGENT_ROLES);
  await repo.delete(ctx.db, row.company_id, id);
}

/**
 * `POST /api/campaigns/{id}/pause`: toggles. queued/sending → paused; paused → sending again
 * (dispatch continues from the lowest pending recipient) or, if it never started, queued.
 * @returns the updated campaign. @throws ValidationError (422) for other states.
 */
export async function togglePause(ctx: AppContext, userId: number, id: number, include?: string): Promise<Campaign> {
  const current = await campaignForUser(ctx, userId, id, AGENT_ROLES);
  let row: CampaignRow | undefined;
  let resumeDispatch = false;
  if (current.state === 'queued' || current.state === 'sending') {
    row = await repo.transition(ctx.db, id, ['queued', 'sending'], { state: 'paused' });
  } else if (current.state === 'paused') {
    await assertCompanyInService(ctx, current.company_id, 'campaign');
    row = await ctx.db.transaction().execute(async (tx) => {
      const r = await repo.transition(tx, id, ['paused'], { state: current.started ? 'sending' : 'queued' });
      if (r && !r.started) await enqueueStart(ctx, r, tx);
      return r;
    });
    resumeDispatch = Boolean(row?.started);
  } else {
    throw new ValidationError({ state: ['Only a scheduled or sending campaign can be paused.'] });
  }
  if (!row) row = (await repo.findById(ctx.db, id))!;
  if (resumeDispatch) await enqueueDispatch(ctx, row);
  publishCampaign(ctx, row);
  return (await present(ctx, [row], wantsGroups(include)))[0]!;
}

/** Sets the company's campaign sending rate (messages/s per number; 0 = unlimited; null = default 1/s). */
export async function setCompanyCampaignRate(ctx: AppContext, companyId: number, rate: number | null): Promise<void> {
  await repo.setCompanyRate(ctx.db, companyId, rate);
}
