/**
 * SMS/MMS campaigns (issue 4 "Campaigns"; spec 001 §3 Campaign, §4 states, §5 validation, §7
 * "Campaigns" calls, §9 limits).
 *
 * Use cases: list/read/create/edit/delete, pause ⇄ resume, recipient events.
 *
 * Sending is two jobs:
 * - `campaigns.start` {campaignId, sendAt} (startAfter = should_be_sent_at): resolves recipients
 *   from the groups AT SEND TIME (`listGroupRecipients`, keyset-paged) into `campaign_recipients`
 *   (unique per contact, so re-running adds nothing; unsubscribed / invalid contacts are inserted as
 *   skipped and counted), moves the campaign to `sending` and enqueues dispatch work.
 * - `campaigns.dispatch` {campaignId, fromRecipientId, toRecipientId}: a chunk of the recipient
 *   ledger. Unlimited rate: one job per chunk of `chunkSize` recipients, run in parallel. Limited
 *   rate: a single lane (one job at a time, continuing itself every `sliceMs`) paced by a token
 *   bucket per number.
 *
 * Exactly once, and what happens on a crash (design choice: never send twice):
 * 1. Before calling the carrier a worker CLAIMS rows: `UPDATE … SET state='sending', claimed_at=now
 *    WHERE state='pending' … FOR UPDATE SKIP LOCKED RETURNING`. A claimed row is never claimed again.
 * 2. After the carrier answers, the SID is recorded (`state='sent'`).
 * 3. A claim with no SID older than `claimLeaseMs` means a worker died between 1 and 2. It is
 *    reconciled: when the carrier can look a message up by its (per-recipient) status callback
 *    URL (`findMessageByStatusCallback`: the sandbox can), a found message is recorded as sent and
 *    a missing one is returned to `pending` and sent again — exactly once. A carrier without that
 *    lookup gets at-most-once: the row is marked `unknown` and never re-sent (a possible loss is
 *    preferred to a duplicate text). The lease must exceed the longest carrier call.
 *
 * Pause: dispatch re-reads the campaign state before every claim, and a claim never exceeds one
 * second of sending at the configured rate, so a pause takes effect within a second. Resume
 * enqueues dispatch again from the lowest pending recipient.
 *
 * Quiet hours (docs/quiet-hours.md): a claimed recipient outside the legal window of its country
 * and state (domain `nextSendTime`: by day of week and holiday, in every zone the number may be in),
 * narrowed by the company's own window when its quiet hours are on, is returned to pending with
 * `not_before` = the next allowed time, and a dispatch job is enqueued for then. A company with
 * `quiet_hours_enabled` false drops only its own narrowing: the law's window still applies.
 * The window, zone and links switch come from `getCompanyMessagingSettings` (modules/companies).
 *
 * Counters are recomputed from the ledger (no hot-row increments) and published as
 * `campaigns updated` on `campaigns.{companyId}` at most every `publishIntervalMs` per campaign.
 */
import { randomUUID } from 'node:crypto';
import {
  type Campaign, type CampaignEvent, type CampaignEventsQuery, type CampaignForm, type CampaignListQuery, type CampaignsUpdatedEvent,
  CampaignMergeField,
} from '@switchboard/contracts';
import {
  CAMPAIGN_VALIDATION_MESSAGES, DEFAULT_QUIET_HOURS, MERGE_FIELDS, campaignDisplayStatus, classifyKeyword, composeCampaignMessage,
  newCampaignDefaults, nextSendTime, parsePhone, recipientJurisdiction, renderMergeFields, validateCampaign, type MergeField,
} from '@switchboard/domain';
import { z } from 'zod';
import type { OutboundMessage } from '../../carriers/carrier.port.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { CarrierError, NotFoundError, ValidationError, type FieldErrors, deniedAsNotFound } from '../../platform/http/errors.js';
import type { WebhookOutcome } from '../../platform/http/webhooks.js';
import { AGENT_ROLES, READER_ROLES, assertCompanyAccess, getCompanyMessagingSettings } from '../companies/companies.service.js';
import { findContactIdsByName, getContactsByIds } from '../contacts/contacts.service.js';
import {
  addConversationItemsBatch, advanceDeliveryState, getItemById, publishConversationsUpdated, startConversationsBatch,
} from '../conversations/conversations.service.js';
import { assertGroupIds, countGroupRecipients, listGroupRecipients } from '../groups/groups.service.js';
import type { MessageStatusEvent } from '../../carriers/carrier.events.js';
import { getCompanyNumber } from '../numbers/numbers.service.js';
import { campaignsRepository as repo, type CampaignRow, type MediaRow, type RecipientRow } from './campaigns.repository.js';

export const CAMPAIGN_START_JOB = 'campaigns.start';
export const CAMPAIGN_DISPATCH_JOB = 'campaigns.dispatch';
/** Live event name on `campaigns.{companyId}`. */
export const CAMPAIGNS_UPDATED = 'campaigns updated';

/**
 * Tunables and the injectable clock (tests replace `now`). Units: ms, messages/s, rows.
 * `defaultRatePerSecond` applies when neither the campaign nor the company sets a rate; a rate of
 * 0 means unlimited (sandbox bench).
 */
export const campaignRuntime = {
  now: (): Date => new Date(),
  claimLeaseMs: 120_000,
  chunkSize: 5_000,
  batchSize: 500,
  sliceMs: 25_000,
  defaultRatePerSecond: 1,
  publishIntervalMs: 250,
  /** Concurrent carrier calls when the carrier has no batch send. */
  sendConcurrency: 16,
  /** Replies are attributed to a campaign message sent within this window. */
  replyWindowMs: 30 * 24 * 3600_000,
  /**
   * Fault injection for the crash tests only (null in production): awaited after a batch is
   * claimed and after it was handed to the carrier, before its outcome is recorded.
   */
  faultHook: null as null | ((ctx: AppContext, stage: 'claimed' | 'sent') => Promise<void> | void),
  /** Seconds before a failed dispatch job is retried (pg-boss `retryDelay`, with the queue's backoff). */
  dispatchRetryDelayS: 2,
};

/** Enqueues a `campaigns.dispatch` job with the runtime's retry delay. */
async function enqueueDispatchJob(ctx: AppContext, data: { campaignId: number; fromRecipientId: number; toRecipientId: number | null }, options: { startAfter?: Date } = {}): Promise<void> {
  await ctx.queue.enqueue(CAMPAIGN_DISPATCH_JOB, data, { ...options, retryDelay: campaignRuntime.dispatchRetryDelayS });
}

const STATE_RANK: Record<string, number> = { pending: 0, sending: 1, queued: 1, sent: 2, unknown: 2, delivered: 3, undelivered: 3, failed: 3, responded: 4 };

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function toCampaign(row: CampaignRow, groups: number[], media: MediaRow[], now = campaignRuntime.now()): Campaign {
  const fields = z.array(CampaignMergeField).safeParse(row.dynamic_fields);
  return {
    id: row.id, user_id: row.user_id, company_id: row.company_id, type: row.type, title: row.title, text: row.text,
    unsubscribe_text: row.unsubscribe_text, should_be_sent_at: iso(row.should_be_sent_at), state: row.state,
    status: campaignDisplayStatus(row.state, row.should_be_sent_at, now),
    sent_count: row.sent_count, delivered_count: row.delivered_count, undelivered_count: row.undelivered_count,
    responded_count: row.responded_count, unsubscriber_count: row.unsubscriber_count,
    skipped_unsubscribed_count: row.skipped_unsubscribed_count, skipped_invalid_count: row.skipped_invalid_count,
    recipients_count: row.recipients_count, number_id: row.number_id, preview_count: row.preview_count,
    preview_credits: row.preview_credits, started: row.started, started_at: iso(row.started_at), finished_at: iso(row.finished_at),
    media: media.map((m) => m.url),
    media_items: media.map((m) => ({ id: m.id, name: m.name, url: m.url, content_type: m.content_type })),
    dynamic_fields: fields.success ? fields.data : [],
    skip_inbox: row.skip_inbox, groups, rate_per_second: row.rate_per_second,
    created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString(),
  };
}

async function present(ctx: AppContext, rows: CampaignRow[], includeGroups: boolean): Promise<Campaign[]> {
  const ids = rows.map((r) => r.id);
  const [groups, media] = await Promise.all([repo.groupsOf(ctx.db, ids), repo.mediaOf(ctx.db, ids)]);
  const out: Campaign[] = [];
  for (const row of rows) {
    const g = groups.get(row.id) ?? [];
    const c = toCampaign(row, g, media.get(row.id) ?? []);
    // include=groups: the audience size the groups have now (preview), until the send resolves it.
    if (includeGroups && !row.started) c.preview_count = g.length ? (await countGroupRecipients(ctx, row.company_id, g)).active : 0;
    out.push(c);
  }
  return out;
}

const wantsGroups = (include?: string) => (include ?? '').split(',').map((s) => s.trim()).includes('groups');

/** Loads a campaign the user may access (`roles`), else 404 (another company's id is never revealed). */
async function campaignForUser(ctx: AppContext, userId: number, id: number, roles = READER_ROLES): Promise<CampaignRow> {
  const row = await repo.findById(ctx.db, id);
  if (!row) throw new NotFoundError('Campaign');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, row.company_id, roles), 'Campaign');
  return row;
}

// ---------------------------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------------------------

/**
 * `GET /api/campaigns`: the company's campaigns, page-numbered (size 13 by default), filtered by
 * `filter[search]` (title or text) and `filter[status]` (display status), sorted.
 * @throws ForbiddenError (403) when the user is not a member of `company_id`.
 */
export async function listCampaigns(ctx: AppContext, userId: number, q: CampaignListQuery): Promise<{ data: Campaign[]; meta: { current_page: number; per_page: number; total: number; last_page: number } }> {
  await assertCompanyAccess(ctx, userId, q.company_id, READER_ROLES);
  const { rows, total } = await repo.list(ctx.db, q.company_id, {
    search: q.filter?.search, status: q.filter?.status, sort: q.sort, dir: q.dir, offset: (q.page - 1) * q.size, limit: q.size, now: campaignRuntime.now(),
  });
  return { data: await present(ctx, rows, wantsGroups(q.include)), meta: { current_page: q.page, per_page: q.size, total, last_page: Math.max(1, Math.ceil(total / q.size)) } };
}

/** `GET /api/campaigns/{id}`. @throws NotFoundError (404) for an unknown or another company's campaign. */
export async function getCampaign(ctx: AppContext, userId: number, id: number, include?: string): Promise<Campaign> {
  const row = await campaignForUser(ctx, userId, id);
  return (await present(ctx, [row], wantsGroups(include) || include === undefined))[0]!;
}

// ---------------------------------------------------------------------------------------------
// Create / edit
// ---------------------------------------------------------------------------------------------

export type UploadedFile = { filename: string; mimetype: string; data: Buffer };

function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'file';
  return base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '').slice(-100) || 'file';
}

function parseMergeFields(value: CampaignForm['dynamic_fields']): MergeField[] | null {
  if (value === undefined) return null;
  let raw: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    try { raw = JSON.parse(value); } catch { throw new ValidationError({ dynamic_fields: ['The dynamic fields must be a valid JSON string.'] }); }
  }
  const parsed = z.array(CampaignMergeField).safeParse(raw);
  if (!parsed.success) throw new ValidationError({ dynamic_fields: ['The dynamic fields are invalid.'] });
  return parsed.data;
}

function parseSendAt(value: string | null | undefined): Date | null | undefined | 'invalid' {
  if (value === undefined) return undefined;
  if (value === null || value.trim() === '') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? 'invalid' : d;
}

type Draft = {
  title: string; text: string; unsubscribe_text: string; skip_inbox: boolean; groups: number[]; should_be_sent_at: Date | null;
  state: 'draft' | 'queued'; number_id: number | null; dynamic_fields: MergeField[]; keepMedia: string[]; rate_per_second: number | null;
};

/** Validates the merged values (domain `validateCampaign`, spec 001 §5) and the company's ids. */
async function validateDraft(ctx: AppContext, companyId: number, d: Draft, sendAtInvalid: boolean, mediaCount: number): Promise<void> {
  const settings = await getCompanyMessagingSettings(ctx, companyId);
  const errors: FieldErrors = validateCampaign(
    { title: d.title, text: d.text, unsubscribe_text: d.unsubscribe_text, groups: d.groups, number_id: d.number_id, should_be_sent_at: d.should_be_sent_at, media: Array.from({ length: mediaCount }) },
    { linksEnabled: settings.links_enabled, draft: d.state === 'draft', now: campaignRuntime.now() },
  ) as FieldErrors;
  if (sendAtInvalid) (errors.should_be_sent_at ??= []).splice(0, Infinity, CAMPAIGN_VALIDATION_MESSAGES.sendAtInvalid);
  if (d.number_id !== null && !errors.number_id) {
    try { await getCompanyNumber(ctx, companyId, d.number_id); } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      errors.number_id = ['The selected number id is invalid.'];
    }
  }
  if (d.groups.length && !errors.groups) {
    try { await assertGroupIds(ctx, companyId, d.groups); } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      errors.groups = ['The selected group is invalid.'];
    }
  }
  if (d.rate_per_second !== null && !(d.rate_per_second >= 0 && d.rate_per_second <= 1000)) errors.rate_per_second = ['The rate per second must be between 0 and 1000.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

async function storeMedia(ctx: AppContext, companyId: number, files: UploadedFile[]) {
  const out = [];
  for (const f of files) {
    const key = `campaigns/${companyId}/${randomUUID()}-${safeName(f.filename)}`;
    await ctx.blobs.put(key, f.data);
    out.push({ name: f.filename || safeName(f.filename), url: ctx.blobs.url(key), blob_key: key, content_type: f.mimetype || 'application/octet-stream' });
  }
  return out;
}

/** Enqueues `campaigns.start` (inside `tx`) at the send time, or now. */
async function enqueueStart(ctx: AppContext, row: CampaignRow, tx: DbOrTx): Promise<void> {
  const sendAt = row.should_be_sent_at;
  const delay = sendAt ? sendAt.getTime() - campaignRuntime.now().getTime() : 0;
  await ctx.queue.enqueue(CAMPAIGN_START_JOB, { campaignId: row.id, sendAt: iso(sendAt) }, delay > 0 ? { startAfter: new Date(Date.now() + delay) } : {}, tx);
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
    title: form.title ?? '', text: form.text ?? '', unsubscribe_text: form.unsubscribe_text ?? defaults.unsubscribe_text, skip_inbox: form.skip_inbox ?? defaults.skip_inbox,
    groups: form.groups ?? [], should_be_sent_at: sendAt instanceof Date ? sendAt : null, state: form.state ?? 'draft',
    number_id: typeof form.number_id === 'number' ? form.number_id : null, dynamic_fields: parseMergeFields(form.dynamic_fields) ?? defaults.dynamic_fields,
    keepMedia: [], rate_per_second: form.rate_per_second ?? null,
  };
  await validateDraft(ctx, companyId, d, sendAt === 'invalid', files.length);
  const media = await storeMedia(ctx, companyId, files);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const created = await repo.insert(tx, {
      user_id: userId, company_id: companyId, type: 'sms', title: d.title, text: d.text, unsubscribe_text: d.unsubscribe_text,
      should_be_sent_at: d.should_be_sent_at, state: d.state, number_id: d.number_id, dynamic_fields: JSON.stringify(d.dynamic_fields),
      skip_inbox: d.skip_inbox, rate_per_second: d.rate_per_second,
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
    title: form.title ?? current.title, text: form.text ?? current.text, unsubscribe_text: form.unsubscribe_text ?? current.unsubscribe_text,
    skip_inbox: form.skip_inbox ?? current.skip_inbox, groups: form.groups ?? groups,
    should_be_sent_at: sendAt === undefined ? current.should_be_sent_at : sendAt instanceof Date ? sendAt : null,
    state: form.state ?? (current.state === 'queued' ? 'queued' : 'draft'),
    number_id: form.number_id === undefined ? current.number_id : typeof form.number_id === 'number' ? form.number_id : null,
    dynamic_fields: parseMergeFields(form.dynamic_fields) ?? (current.dynamic_fields as MergeField[]),
    keepMedia: keep, rate_per_second: form.rate_per_second === undefined ? current.rate_per_second : form.rate_per_second,
  };
  await validateDraft(ctx, current.company_id, d, sendAt === 'invalid', keep.length + files.length);
  const media = await storeMedia(ctx, current.company_id, files);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const locked = await repo.find(tx, current.company_id, id, true);
    if (!locked) throw new NotFoundError('Campaign');
    if (locked.started) throw new ValidationError({ state: ['A campaign that has started sending can no longer be edited.'] });
    const updated = (await repo.update(tx, id, {
      title: d.title, text: d.text, unsubscribe_text: d.unsubscribe_text, skip_inbox: d.skip_inbox, should_be_sent_at: d.should_be_sent_at,
      state: d.state, number_id: d.number_id, dynamic_fields: JSON.stringify(d.dynamic_fields), rate_per_second: d.rate_per_second,
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

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/**
 * `GET /api/campaigns/{id}/events`: recipients with their contact, page size 10; `search` matches
 * the contact's name or the number's digits; `status` filters (sent, delivered, undelivered,
 * failed, responded, unsubscribed, skipped, pending).
 */
export async function listCampaignEvents(ctx: AppContext, userId: number, id: number, q: CampaignEventsQuery): Promise<{ data: CampaignEvent[]; meta: { current_page: number; per_page: number; total: number; last_page: number } }> {
  const c = await campaignForUser(ctx, userId, id);
  let contactIds: number[] | undefined;
  let numberLike: string | undefined;
  const search = q.search?.trim();
  if (search) {
    contactIds = await findContactIdsByName(ctx, c.company_id, search);
    const digits = search.replace(/[\s\-().+]/g, '');
    if (/^\d{3,}$/.test(digits)) numberLike = digits;
  }
  const { rows, total } = await repo.events(ctx.db, id, { contactIds, numberLike, status: q.status, offset: (q.page - 1) * q.size, limit: q.size });
  const contacts = await getContactsByIds(ctx, c.company_id, [...new Set(rows.map((r) => r.contact_id))]);
  const data = rows.map((r): CampaignEvent => {
    const contact = contacts.get(r.contact_id);
    return {
      id: r.id, campaign_id: r.campaign_id, contact_id: r.contact_id, number: r.number, state: r.state, error_code: r.error_code,
      sent_at: iso(r.sent_at), delivered_at: iso(r.delivered_at), responded_at: iso(r.responded_at), unsubscribed_at: iso(r.unsubscribed_at),
      contact: contact ? { id: contact.id, name: contact.name, number: contact.number, email: contact.email } : null,
    };
  });
  return { data, meta: { current_page: q.page, per_page: q.size, total, last_page: Math.max(1, Math.ceil(total / q.size)) } };
}

// ---------------------------------------------------------------------------------------------
// Live counters
// ---------------------------------------------------------------------------------------------

function toEvent(row: CampaignRow): CampaignsUpdatedEvent {
  return {
    id: row.id, company_id: row.company_id, state: row.state, status: campaignDisplayStatus(row.state, row.should_be_sent_at, campaignRuntime.now()),
    sent_count: row.sent_count, delivered_count: row.delivered_count, undelivered_count: row.undelivered_count, responded_count: row.responded_count,
    unsubscriber_count: row.unsubscriber_count, skipped_unsubscribed_count: row.skipped_unsubscribed_count, skipped_invalid_count: row.skipped_invalid_count,
    recipients_count: row.recipients_count,
  };
}

function publishCampaign(ctx: AppContext, row: CampaignRow): void {
  ctx.realtime.send(`campaigns.${row.company_id}`, CAMPAIGNS_UPDATED, toEvent(row));
}

/** Recomputes the counters from the ledger, stores them on the campaign and publishes `campaigns updated`. */
export async function refreshCampaignCounters(ctx: AppContext, campaignId: number): Promise<CampaignRow | undefined> {
  const counters = await repo.counters(ctx.db, campaignId);
  const row = await repo.update(ctx.db, campaignId, counters);
  if (row) publishCampaign(ctx, row);
  return row;
}

const pendingRefresh = new WeakMap<AppContext, Map<number, { timer: NodeJS.Timeout; again: boolean }>>();
/** How long the last counters refresh of a campaign took (ms): the next one waits at least 10× that. */
const refreshCost = new Map<number, number>();

/**
 * Throttled `refreshCampaignCounters`: at most one per campaign every `publishIntervalMs` (≤ 4/s) per
 * process, or every 10× the last refresh's duration when that is longer (a 100,000-recipient ledger
 * is not recounted 4 times a second while it is being sent). A call while a refresh is pending marks
 * it to run once more afterwards, so a change committed just after the pending refresh read the
 * ledger is never left out of the counters.
 */
export function scheduleCampaignRefresh(ctx: AppContext, campaignId: number): void {
  let timers = pendingRefresh.get(ctx);
  if (!timers) pendingRefresh.set(ctx, (timers = new Map()));
  const pending = timers.get(campaignId);
  if (pending) { pending.again = true; return; }
  const entry = { timer: null as unknown as NodeJS.Timeout, again: false };
  const wait = Math.max(campaignRuntime.publishIntervalMs, Math.min(5_000, 10 * (refreshCost.get(campaignId) ?? 0)));
  entry.timer = setTimeout(() => {
    const started = performance.now();
    refreshCampaignCounters(ctx, campaignId)
      .catch((e) => ctx.log.warn({ err: e, campaignId }, 'campaign counters refresh failed'))
      .finally(() => {
        refreshCost.set(campaignId, performance.now() - started);
        timers.delete(campaignId);
        if (entry.again) scheduleCampaignRefresh(ctx, campaignId);
      });
  }, wait);
  entry.timer.unref();
  timers.set(campaignId, entry);
}

// ---------------------------------------------------------------------------------------------
// Sending: start job
// ---------------------------------------------------------------------------------------------

const RESOLVE_PAGE = 5_000;
const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * Job `campaigns.start`: resolves recipients (idempotent) and starts dispatch. Ignores a job
 * superseded by an edit (different `sendAt`), a paused/deleted campaign, or one not yet due.
 */
export async function startCampaign(ctx: AppContext, data: { campaignId: number; sendAt?: string | null }): Promise<void> {
  const c = await repo.findById(ctx.db, data.campaignId);
  if (!c || c.state !== 'queued') return;
  if (data.sendAt !== undefined && (data.sendAt ?? null) !== iso(c.should_be_sent_at)) return;
  const now = campaignRuntime.now();
  if (c.should_be_sent_at && c.should_be_sent_at.getTime() > now.getTime() + 1000) {
    await ctx.queue.enqueue(CAMPAIGN_START_JOB, { campaignId: c.id, sendAt: iso(c.should_be_sent_at) }, { startAfter: new Date(Date.now() + c.should_be_sent_at.getTime() - now.getTime()) });
    return;
  }
  if (!c.number_id) {
    const failed = await repo.transition(ctx.db, c.id, ['queued'], { state: 'failed', finished_at: now });
    if (failed) publishCampaign(ctx, failed);
    return;
  }
  if (!c.started) {
    const groups = (await repo.groupsOf(ctx.db, [c.id])).get(c.id) ?? [];
    let after = 0;
    for (;;) {
      const { contacts } = await listGroupRecipients(ctx, c.company_id, groups, { afterContactId: after, limit: RESOLVE_PAGE });
      if (!contacts.length) break;
      await repo.insertRecipients(ctx.db, contacts.map((k) => {
        // A valid contact's number is stored in E.164 already (parsed when saved): not parsed again.
        const e164 = !k.number ? null : !k.is_invalid && E164.test(k.number) ? k.number : parsePhone(k.number);
        const state = k.is_unsubscribed ? 'skipped_unsubscribed' : k.is_invalid || !e164 ? 'skipped_invalid' : 'pending';
        return {
          campaign_id: c.id, company_id: c.company_id, contact_id: k.id, number: e164 ?? k.number ?? '', state,
          merge: JSON.stringify({ name: k.name, first_name: k.first_name, last_name: k.last_name, email: k.email }),
        };
      }));
      after = contacts[contacts.length - 1]!.id;
      if (contacts.length < RESOLVE_PAGE) break;
    }
  }
  const row = await ctx.db.transaction().execute(async (tx) => {
    await repo.update(tx, c.id, { started: true, started_at: c.started_at ?? now });
    return repo.transition(tx, c.id, ['queued'], { state: 'sending' });
  });
  const refreshed = await refreshCampaignCounters(ctx, c.id);
  if (row && refreshed) await enqueueDispatch(ctx, refreshed);
}

async function effectiveRate(ctx: AppContext, c: CampaignRow): Promise<number> {
  if (c.rate_per_second !== null) return c.rate_per_second;
  return (await repo.companyRate(ctx.db, c.company_id)) ?? campaignRuntime.defaultRatePerSecond;
}

/**
 * Enqueues dispatch for every pending recipient: one job per chunk (parallel) at unlimited rate, or
 * a single lane at a limited rate. Idempotent in effect: overlapping jobs only compete for claims.
 */
export async function enqueueDispatch(ctx: AppContext, c: CampaignRow): Promise<void> {
  const rate = await effectiveRate(ctx, c);
  const starts = await repo.chunkStarts(ctx.db, c.id, campaignRuntime.chunkSize);
  if (!starts.length) {
    await finishIfDone(ctx, c.id);
    return;
  }
  if (rate > 0) {
    await enqueueDispatchJob(ctx, { campaignId: c.id, fromRecipientId: starts[0]!, toRecipientId: null });
    return;
  }
  for (let i = 0; i < starts.length; i++) {
    await enqueueDispatchJob(ctx, { campaignId: c.id, fromRecipientId: starts[i]!, toRecipientId: starts[i + 1] ?? null });
  }
}

// ---------------------------------------------------------------------------------------------
// Sending: dispatch job
// ---------------------------------------------------------------------------------------------

/** Token bucket per number (in-process, shared by every dispatch job of this process). */
class TokenBucket {
  private tokens: number;
  private last = Date.now();
  constructor(private rate: number) { this.tokens = Math.min(1, rate); }
  setRate(rate: number) { this.rate = rate; }
  /** Waits until `n` tokens are available (capacity = max(1, rate): at most one second of burst). */
  async take(n: number): Promise<void> {
    for (;;) {
      const now = Date.now();
      const capacity = Math.max(1, this.rate);
      this.tokens = Math.min(capacity, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      if (this.tokens >= n) { this.tokens -= n; return; }
      await new Promise((r) => setTimeout(r, Math.ceil(((n - this.tokens) / this.rate) * 1000)));
    }
  }
}
const buckets = new Map<number, TokenBucket>();
function bucketFor(numberId: number, rate: number): TokenBucket {
  let b = buckets.get(numberId);
  if (!b) buckets.set(numberId, (b = new TokenBucket(rate)));
  b.setRate(rate);
  return b;
}

function statusCallbackFor(ctx: AppContext, recipientId: number): string {
  return ctx.carrier.webhookUrl('campaigns.status', { recipient: recipientId });
}

/**
 * Reconciles claims older than the lease (a worker died between claim and record): found at the
 * carrier → recorded as sent; not found → pending again (sent once more, exactly once); no lookup
 * → `unknown`, never re-sent.
 */
async function reconcileStaleClaims(ctx: AppContext, c: CampaignRow): Promise<void> {
  // A dead worker's claims (platform/queue heartbeats) are stale at once; others after the lease.
  const stale = await repo.staleClaims(ctx.db, c.id, new Date(campaignRuntime.now().getTime() - campaignRuntime.claimLeaseMs), await ctx.queue.liveWorkerIds());
  if (!stale.length) return;
  const lookup = ctx.carrier.findMessageByStatusCallback?.bind(ctx.carrier);
  const found: Array<{ id: number; sid: string; itemId: number | null }> = [];
  const retry: Array<{ id: number; notBefore: Date | null }> = [];
  const unknown: Array<{ id: number; code: number | null; state: 'unknown' }> = [];
  for (const r of stale) {
    if (!lookup) { unknown.push({ id: r.id, code: null, state: 'unknown' }); continue; }
    const m = await lookup(statusCallbackFor(ctx, r.id));
    if (m) found.push({ id: r.id, sid: m.sid, itemId: null });
    else retry.push({ id: r.id, notBefore: null });
  }
  await repo.recordSent(ctx.db, found, campaignRuntime.now());
  await repo.unclaim(ctx.db, retry);
  await repo.recordFailed(ctx.db, unknown);
  ctx.log.warn({ campaignId: c.id, found: found.length, resent: retry.length, unknown: unknown.length }, 'campaign: reconciled stale claims');
}

type Prepared = { row: RecipientRow; message: OutboundMessage };

async function sendBatch(ctx: AppContext, prepared: Prepared[]): Promise<Array<{ sid: string } | { error: { message: string; code: number | null } }>> {
  const carrier = ctx.carrier;
  // Our media URLs are signed for the carrier, which has no session (platform/blob/access.ts).
  const messages = prepared.map((p) => (p.message.mediaUrls.length ? { ...p.message, mediaUrls: p.message.mediaUrls.map((u) => ctx.blobs.carrierUrl(u)) } : p.message));
  if (carrier.sendMessages) return carrier.sendMessages(messages);
  const results: Array<{ sid: string } | { error: { message: string; code: number | null } }> = new Array(prepared.length);
  let next = 0;
  let fatal: unknown = null;
  const worker = async () => {
    while (next < prepared.length && !fatal) {
      const i = next++;
      try {
        results[i] = await carrier.sendMessage(messages[i]!);
      } catch (e) {
        if (e instanceof CarrierError) results[i] = { error: { message: e.message, code: (e as CarrierError & { code?: number }).code ?? null } };
        else fatal = e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(campaignRuntime.sendConcurrency, prepared.length) }, worker));
  if (fatal) {
    // Outcome unknown for the rest: record what we know, leave the others claimed for reconciliation.
    const known = results.map((r, i) => (r ? i : -1)).filter((i) => i >= 0);
    await recordResults(ctx, prepared.filter((_, i) => known.includes(i)), known.map((i) => results[i]!), null);
    throw fatal;
  }
  return results;
}

/** How many conversations of each batch are announced live (the inbox's first page holds 5). */
const LIVE_CONVERSATIONS_PER_BATCH = 5;

/**
 * Records a batch's carrier outcome. Without inbox (skip_inbox, or `c` null for a partial record
 * after a fatal error) the ledger is updated with one statement per outcome. With inbox, ONE short
 * transaction of four batch statements: lock the batch's ledger rows (reading any state a delivery
 * callback already applied), upsert their conversations (`startConversationsBatch`), insert the
 * message items (`addConversationItemsBatch`, delivery state taken from the ledger so an early
 * callback is not lost), and record SIDs and item ids in the ledger. A callback arriving meanwhile
 * waits on the row lock and then finds the item. Live: one bulk `conversation updated` per batch.
 */
async function recordResults(ctx: AppContext, prepared: Prepared[], results: Array<{ sid: string } | { error: { message: string; code: number | null } }>, c: CampaignRow | null): Promise<void> {
  const sent: Array<{ p: Prepared; sid: string }> = [];
  const failed: Array<{ id: number; code: number | null; state: 'failed' }> = [];
  results.forEach((r, i) => {
    const p = prepared[i]!;
    if ('sid' in r) sent.push({ p, sid: r.sid }); else failed.push({ id: p.row.id, code: r.error.code, state: 'failed' });
  });
  const now = campaignRuntime.now();
  await repo.recordFailed(ctx.db, failed);
  if (!c || c.skip_inbox || !sent.length || c.number_id === null) {
    await repo.recordSent(ctx.db, sent.map((x) => ({ id: x.p.row.id, sid: x.sid, itemId: null })), now);
    return;
  }
  const companyId = c.company_id;
  const numberId = c.number_id;
  const conversationIds = await ctx.db.transaction().execute(async (tx) => {
    const states = await repo.lockRecipients(tx, sent.map((x) => x.p.row.id));
    const conversations = await startConversationsBatch(ctx, tx, { companyId, numberId, recipients: sent.map((x) => ({ recipient: x.p.row.number, contactId: x.p.row.contact_id })) });
    const items = await addConversationItemsBatch(ctx, tx, sent.map((x) => {
      const st = states.get(x.p.row.id);
      const final = st && (STATE_RANK[st.state] ?? 0) >= 3 ? (st.state === 'responded' ? 'delivered' : st.state) : 'sent';
      return {
        company_id: companyId, conversation_id: conversations.get(x.p.row.number)!.id, type: 'message', is_inbound: false, is_read: true, body: x.p.message.body,
        media: x.p.message.mediaUrls.map((url) => ({ url, contentType: 'application/octet-stream' })), delivery_state: final,
        error_code: final === 'undelivered' || final === 'failed' ? (st?.error_code ?? null) : null, carrier_sid: x.sid, user_id: c.user_id,
      };
    }));
    await repo.recordSent(tx, sent.map((x, i) => ({ id: x.p.row.id, sid: x.sid, itemId: items[i]!.id })), now);
    return sent.map((x) => conversations.get(x.p.row.number)!.id);
  });
  await publishConversationsUpdated(ctx, companyId, [...new Set(conversationIds)].slice(-LIVE_CONVERSATIONS_PER_BATCH));
}

/** Renders a recipient's message: merge fields filled, the unsubscribe text appended. */
function renderFor(c: CampaignRow, r: RecipientRow): string {
  const merge = (r.merge ?? {}) as Record<string, string | null>;
  const fields = z.array(CampaignMergeField).safeParse(c.dynamic_fields);
  const text = renderMergeFields(c.text, { name: merge.name, first_name: merge.first_name, last_name: merge.last_name, email: merge.email, number: r.number }, fields.success ? fields.data : MERGE_FIELDS);
  return composeCampaignMessage(text, c.unsubscribe_text);
}

/**
 * Job `campaigns.dispatch`: sends the pending recipients with id in [fromRecipientId,
 * toRecipientId) (null = to the end). See the module doc for claims, pause, rate and quiet hours.
 * Continues itself after `sliceMs` so no job runs long.
 */
export async function dispatchChunk(ctx: AppContext, job: { campaignId: number; fromRecipientId: number; toRecipientId?: number | null }): Promise<void> {
  const deadline = Date.now() + campaignRuntime.sliceMs;
  let c = await repo.findById(ctx.db, job.campaignId);
  if (!c || c.state !== 'sending') return;
  await reconcileStaleClaims(ctx, c);
  let number;
  try {
    number = await getCompanyNumber(ctx, c.company_id, c.number_id ?? 0);
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
    const failed = await repo.transition(ctx.db, c.id, ['sending'], { state: 'failed', finished_at: campaignRuntime.now() });
    if (failed) publishCampaign(ctx, failed);
    return;
  }
  const settings = await getCompanyMessagingSettings(ctx, c.company_id);
  // The company's window narrows the law's (docs/quiet-hours.md); off, only the law's applies.
  const companyWindow = settings.quiet_hours_enabled
    ? { start: settings.quiet_hours_start || DEFAULT_QUIET_HOURS.start, end: settings.quiet_hours_end || DEFAULT_QUIET_HOURS.end }
    : null;
  const tz = settings.timezone || 'UTC';
  const mediaUrls = ((await repo.mediaOf(ctx.db, [c.id])).get(c.id) ?? []).map((m) => m.url);
  let from = job.fromRecipientId;
  const to = job.toRecipientId ?? null;

  for (;;) {
    // Pause/delete check before every claim.
    const fresh = await repo.findById(ctx.db, c.id);
    if (!fresh || fresh.state !== 'sending') return;
    c = fresh;
    if (Date.now() > deadline) {
      await enqueueDispatchJob(ctx, { campaignId: c.id, fromRecipientId: from, toRecipientId: to });
      return;
    }
    const rate = await effectiveRate(ctx, c);
    const limit = rate > 0 ? Math.max(1, Math.min(campaignRuntime.batchSize, Math.floor(rate))) : campaignRuntime.batchSize;
    const now = campaignRuntime.now();
    const claimed = await repo.claim(ctx.db, c.id, { from, to }, now, limit, ctx.queue.workerId);
    if (!claimed.length) break;
    from = claimed[claimed.length - 1]!.id + 1;

    // Quiet hours in the recipient's local time: the law of its country/state, narrowed by the company.
    // Numbers of one jurisdiction (same rules and zones) share the answer. No allowed time at all
    // (a company window outside the law's) is looked at again a day later.
    const allowed: RecipientRow[] = [];
    const deferred: Array<{ id: number; notBefore: Date }> = [];
    const windowCache = new Map<string, Date | null>();
    for (const r of claimed) {
      const key = recipientJurisdiction(r.number, tz).key;
      let nextAt = windowCache.get(key);
      if (nextAt === undefined) windowCache.set(key, (nextAt = nextSendTime(r.number, now, { companyWindow, fallbackTz: tz })));
      if (nextAt !== null && nextAt.getTime() <= now.getTime()) allowed.push(r);
      else deferred.push({ id: r.id, notBefore: nextAt ?? new Date(now.getTime() + 24 * 3_600_000) });
    }
    if (deferred.length) {
      await repo.unclaim(ctx.db, deferred);
      const byTime = new Map<number, number[]>();
      for (const d of deferred) (byTime.get(d.notBefore.getTime()) ?? byTime.set(d.notBefore.getTime(), []).get(d.notBefore.getTime())!).push(d.id);
      for (const [t, ids] of byTime) {
        const delay = t - now.getTime();
        await enqueueDispatchJob(ctx, { campaignId: c.id, fromRecipientId: Math.min(...ids), toRecipientId: Math.max(...ids) + 1 }, { startAfter: new Date(Date.now() + Math.max(0, delay) + 1000) });
      }
    }
    if (!allowed.length) continue;
    if (rate > 0) await bucketFor(number.id, rate).take(allowed.length);
    const prepared: Prepared[] = allowed.map((r) => ({
      row: r,
      message: { from: number.number, to: r.number, body: renderFor(c!, r), mediaUrls, statusCallback: statusCallbackFor(ctx, r.id) },
    }));
    if (campaignRuntime.faultHook) await campaignRuntime.faultHook(ctx, 'claimed');
    const results = await sendBatch(ctx, prepared);
    if (campaignRuntime.faultHook) await campaignRuntime.faultHook(ctx, 'sent');
    await recordResults(ctx, prepared, results, c);
    scheduleCampaignRefresh(ctx, c.id);
  }
  await finishIfDone(ctx, c.id);
}

/**
 * Marks the campaign `sent` when no recipient is pending or claimed. Open claims older than a few
 * seconds (a dead worker's) get a reconciliation pass scheduled after their lease.
 */
async function finishIfDone(ctx: AppContext, campaignId: number): Promise<void> {
  const rem = await repo.remaining(ctx.db, campaignId);
  if (rem.pending > 0) return;
  if (rem.open_claims > 0) {
    const oldest = rem.oldest_claim ? new Date(rem.oldest_claim).getTime() : campaignRuntime.now().getTime();
    const age = campaignRuntime.now().getTime() - oldest;
    if (age > 5_000 || age > campaignRuntime.claimLeaseMs) {
      const wait = Math.max(0, campaignRuntime.claimLeaseMs - age) + 500;
      await enqueueDispatchJob(ctx, { campaignId, fromRecipientId: 0, toRecipientId: null }, { startAfter: new Date(Date.now() + wait) });
    }
    return;
  }
  const done = await repo.transition(ctx.db, campaignId, ['sending'], { state: 'sent', finished_at: campaignRuntime.now() });
  if (done) await refreshCampaignCounters(ctx, campaignId);
}

/** Re-runs dispatch for a sending campaign (after a clock change in tests, or an operator's nudge). */
export async function kickCampaign(ctx: AppContext, campaignId: number): Promise<void> {
  const c = await repo.findById(ctx.db, campaignId);
  if (c?.state === 'sending') await enqueueDispatch(ctx, c);
}

// ---------------------------------------------------------------------------------------------
// Carrier callbacks and replies
// ---------------------------------------------------------------------------------------------

/**
 * `POST /webhooks/twilio/campaigns/status?recipient={id}` (inside `handleOnce`'s transaction):
 * moves the recipient's delivery state forward only, records the SID and error code, mirrors the
 * state onto its conversation item, and schedules a counters refresh.
 */
export async function applyCampaignStatus(ctx: AppContext, tx: DbOrTx, p: MessageStatusEvent | null, recipientId: number | null): Promise<WebhookOutcome> {
  const response = ctx.carrier.renderMessaging();
  const sid = p?.sid ?? '';
  if (!recipientId || !sid) return { response };
  const r = await repo.findRecipient(tx, recipientId, true);
  if (!r || (r.carrier_sid && r.carrier_sid !== sid)) {
    ctx.log.warn({ recipientId, sid }, 'campaign status callback for an unknown message ignored');
    return { response };
  }
  const state = p?.state ?? null;
  const code = p?.errorCode ?? null;
  const now = campaignRuntime.now();
  const patch: Parameters<typeof repo.updateRecipient>[2] = {};
  if (!r.carrier_sid) patch.carrier_sid = sid;
  if (state && (STATE_RANK[state] ?? 0) > (STATE_RANK[r.state] ?? 0) && r.state !== 'responded') {
    patch.state = state;
    if (state === 'delivered') patch.delivered_at = now;
    if (state === 'undelivered' || state === 'failed') patch.error_code = Number.isFinite(code) ? code : null;
    if (!r.sent_at) patch.sent_at = now;
  }
  if (Object.keys(patch).length) await repo.updateRecipient(tx, r.id, patch);
  // The item mirrors the ledger (it was created with the ledger's state under its row lock), so it
  // changes only when the ledger's state moved: a 'sent' callback after the record costs no item work.
  if (r.item_id && (patch.state || r.state === 'responded')) {
    const item = await getItemById(ctx, r.item_id, tx, true);
    if (item) await advanceDeliveryState(ctx, tx, item, { carrierSid: sid, state: state ?? undefined, errorCode: Number.isFinite(code) ? code : null });
  }
  return {
    response,
    // The conversation item's state is kept in step, but no `conversation updated` is published per
    // campaign callback: at campaign volume that fan-out would cost more than the send itself.
    afterCommit: () => { scheduleCampaignRefresh(ctx, r.campaign_id); },
  };
}

/**
 * Called by the inbound-message handler (`receiveInboundMessage`) inside its webhook transaction:
 * attributes a reply from `from` to `numberId` to the latest campaign message sent there (within
 * `replyWindowMs`): any reply (a keyword too) sets `responded`, an opt-out keyword (domain
 * `classifyKeyword`: STOP, STOPALL, UNSUBSCRIBE, …) also sets `unsubscribed`; the contact itself is
 * unsubscribed by the messaging module's keyword handling. Idempotent (first times are kept).
 * @returns `skipInbox` true when that campaign asked replies to stay out of the inbox.
 */
export async function recordCampaignReply(ctx: AppContext, input: { companyId: number; numberId: number; from: string; body: string }, tx: DbOrTx = ctx.db): Promise<{ campaignId: number | null; skipInbox: boolean }> {
  const now = campaignRuntime.now();
  const from = parsePhone(input.from) ?? input.from;
  const r = await repo.latestRecipientFor(tx, input.companyId, input.numberId, from, new Date(now.getTime() - campaignRuntime.replyWindowMs));
  if (!r) return { campaignId: null, skipInbox: false };
  const kind = classifyKeyword(input.body);
  const patch: Parameters<typeof repo.updateRecipient>[2] = {};
  if (!r.responded_at) {
    patch.responded_at = now;
    patch.state = 'responded';
  }
  if (kind === 'opt-out' && !r.unsubscribed_at) patch.unsubscribed_at = now;
  if (Object.keys(patch).length) {
    await repo.updateRecipient(tx, r.id, patch);
    scheduleCampaignRefresh(ctx, r.campaign_id);
  }
  return { campaignId: r.campaign_id, skipInbox: r.skip_inbox };
}
