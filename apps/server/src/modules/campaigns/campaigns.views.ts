/**
 * Campaigns as the API and the live feed show them (spec 001 §3 Campaign, §4 display status, §7
 * "Campaigns" reads): presenters, the access check of one campaign, the reads (list, one, the
 * recipient events) and the `campaigns updated` live event.
 */
import {
  type Campaign,
  type CampaignEvent,
  type CampaignEventsQuery,
  type CampaignListQuery,
  type CampaignsUpdatedEvent,
  CampaignMergeField,
} from '@switchboard/contracts';
import { campaignDisplayStatus } from '@switchboard/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { NotFoundError, deniedAsNotFound } from '../../platform/http/errors.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import { READER_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { findContactIdsByName, getContactsByIds } from '../contacts/contacts.service.js';
import { countGroupRecipients } from '../contacts/groups.service.js';
import { activeNumbersOf } from '../numbers/numbers.reporting.js';
import { sendingStates } from '../sms-verification/sms-verification.service.js';
import { campaignsRepository as repo, type CampaignRow, type MediaRow } from './campaigns.repository.js';
import { CAMPAIGNS_UPDATED, campaignRuntime, iso } from './campaigns.runtime.js';

/** The API's campaign (spec 001 §3 Campaign) from its row, groups and media; `status` is the display status at `now`. */
function toCampaign(row: CampaignRow, groups: number[], media: MediaRow[], now = campaignRuntime.now()): Campaign {
  const fields = z.array(CampaignMergeField).safeParse(row.dynamic_fields);
  return {
    id: row.id,
    user_id: row.user_id,
    company_id: row.company_id,
    type: row.type,
    title: row.title,
    text: row.text,
    unsubscribe_text: row.unsubscribe_text,
    should_be_sent_at: iso(row.should_be_sent_at),
    state: row.state,
    status: campaignDisplayStatus(row.state, row.should_be_sent_at, now),
    sent_count: row.sent_count,
    delivered_count: row.delivered_count,
    undelivered_count: row.undelivered_count,
    responded_count: row.responded_count,
    unsubscriber_count: row.unsubscriber_count,
    skipped_unsubscribed_count: row.skipped_unsubscribed_count,
    skipped_invalid_count: row.skipped_invalid_count,
    recipients_count: row.recipients_count,
    number_id: row.number_id,
    preview_count: row.preview_count,
    preview_credits: row.preview_credits,
    started: row.started,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    media: media.map((m) => m.url),
    media_items: media.map((m) => ({ id: m.id, name: m.name, url: m.url, content_type: m.content_type })),
    dynamic_fields: fields.success ? fields.data : [],
    skip_inbox: row.skip_inbox,
    groups,
    rate_per_second: row.rate_per_second,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Presents campaign rows (one query each for groups and media). `includeGroups`: an unstarted
 * campaign's `preview_count` is the audience its groups have now.
 */
export async function present(ctx: AppContext, rows: CampaignRow[], includeGroups: boolean): Promise<Campaign[]> {
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

/** Whether an `include` query (comma-separated) asks for `groups`. */
export const wantsGroups = (include?: string): boolean =>
  (include ?? '')
    .split(',')
    .map((s) => s.trim())
    .includes('groups');

/**
 * Loads a campaign the user may access (`roles`), else 404 (another company's id is never revealed).
 * @throws NotFoundError (404) for an unknown campaign or one of a company the user may not access.
 */
export async function campaignForUser(ctx: AppContext, userId: number, id: number, roles = READER_ROLES): Promise<CampaignRow> {
  const row = await repo.findById(ctx.db, id);
  if (!row) throw new NotFoundError('Campaign');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, row.company_id, roles), 'Campaign');
  return row;
}

/**
 * `GET /api/campaigns`: the company's campaigns, page-numbered (size 13 by default), filtered by
 * `filter[search]` (title or text) and `filter[status]` (display status), sorted.
 * @throws ForbiddenError (403) when the user is not a member of `company_id`.
 */
export async function listCampaigns(ctx: AppContext, userId: number, q: CampaignListQuery): Promise<{ data: Campaign[]; meta: PageMeta }> {
  await assertCompanyAccess(ctx, userId, q.company_id, READER_ROLES);
  const { rows, total } = await repo.list(ctx.db, q.company_id, {
    search: q.filter?.search,
    status: q.filter?.status,
    sort: q.sort,
    dir: q.dir,
    offset: (q.page - 1) * q.size,
    limit: q.size,
    now: campaignRuntime.now(),
  });
  return { data: await present(ctx, rows, wantsGroups(q.include)), meta: pageMeta(q.page, q.size, total) };
}

/** `GET /api/campaigns/{id}`. @throws NotFoundError (404) for an unknown or another company's campaign. */
export async function getCampaign(ctx: AppContext, userId: number, id: number, include?: string): Promise<Campaign> {
  const row = await campaignForUser(ctx, userId, id);
  return (await present(ctx, [row], wantsGroups(include) || include === undefined))[0]!;
}

/**
 * `GET /api/campaigns/{id}/events`: recipients with their contact, page size 10; `search` matches
 * the contact's name or the number's digits; `status` filters (sent, delivered, undelivered,
 * failed, responded, unsubscribed, skipped, pending).
 */
export async function listCampaignEvents(
  ctx: AppContext,
  userId: number,
  id: number,
  q: CampaignEventsQuery,
): Promise<{ data: CampaignEvent[]; meta: PageMeta }> {
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
      id: r.id,
      campaign_id: r.campaign_id,
      contact_id: r.contact_id,
      number: r.number,
      state: r.state,
      error_code: r.error_code,
      sent_at: iso(r.sent_at),
      delivered_at: iso(r.delivered_at),
      responded_at: iso(r.responded_at),
      unsubscribed_at: iso(r.unsubscribed_at),
      contact: contact ? { id: contact.id, name: contact.name, number: contact.number, email: contact.email } : null,
    };
  });
  return { data, meta: pageMeta(q.page, q.size, total) };
}

/** The `campaigns updated` live payload: state, display status and counters. */
function toEvent(row: CampaignRow): CampaignsUpdatedEvent {
  return {
    id: row.id,
    company_id: row.company_id,
    state: row.state,
    status: campaignDisplayStatus(row.state, row.should_be_sent_at, campaignRuntime.now()),
    sent_count: row.sent_count,
    delivered_count: row.delivered_count,
    undelivered_count: row.undelivered_count,
    responded_count: row.responded_count,
    unsubscriber_count: row.unsubscriber_count,
    skipped_unsubscribed_count: row.skipped_unsubscribed_count,
    skipped_invalid_count: row.skipped_invalid_count,
    recipients_count: row.recipients_count,
  };
}

/** Publishes `campaigns updated` on `campaigns.{companyId}` (live; call after commit). */
export function publishCampaign(ctx: AppContext, row: CampaignRow): void {
  ctx.realtime.send(`campaigns.${row.company_id}`, CAMPAIGNS_UPDATED, toEvent(row));
}

/**
 * `GET /api/campaigns/sending-numbers?company_id=` (campaigns.read): the company's active numbers with their SMS
 * verification state and whether a campaign may be sent from each now (sms-verification's sending rules), so the
 * editor marks a number a send would be refused from before the send is confirmed (docs/campaigns.md "Sending numbers").
 */
export async function listSendingNumbers(ctx: AppContext, companyId: number) {
  const numbers = await activeNumbersOf(ctx, [companyId]);
  return { data: await sendingStates(ctx, companyId, numbers) };
}
