/**
 * Campaign payloads (spec 001 §3 "Campaign", §4 states, §7 "Campaigns" calls): the campaign as the
 * server answers it (server fields + the computed display `status`), the list query, the editor's
 * form (multipart or JSON; `_method=PATCH` for edits), the events list and the live event.
 */
import { z } from 'zod';
import { BoolFlag, Id, PageMeta } from './common.js';

const intLike = z.union([z.number(), z.string().trim().regex(/^\d+$/)]).transform((v) => Number(v));

/** A merge field as stored in `dynamic_fields` (spec 001 §3). */
export const CampaignMergeField = z.object({
  name: z.string(),
  tag: z.string(),
  key: z.enum(['firstname', 'lastname', 'phone', 'email']),
  length: z.number().int(),
  enabled: z.boolean(),
});
export type CampaignMergeField = z.infer<typeof CampaignMergeField>;

/** A media item of a campaign (stored in the blob store). */
export const CampaignMediaItem = z.object({ id: z.number().int(), name: z.string(), url: z.string(), content_type: z.string() });

/** A campaign's group as included with `include=groups`. */
export const CampaignGroupRef = z.object({ id: z.number().int() });

/** A campaign: server fields (spec 001 §3), counters and the displayed `status` (spec 001 §4). */
export const Campaign = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  company_id: z.number().int(),
  type: z.string(),
  title: z.string(),
  text: z.string(),
  unsubscribe_text: z.string(),
  should_be_sent_at: z.string().nullable(),
  state: z.string(),
  /** Displayed status: draft | scheduled | in-progress | paused | sent | canceled | failed. */
  status: z.string(),
  sent_count: z.number().int(),
  delivered_count: z.number().int(),
  undelivered_count: z.number().int(),
  responded_count: z.number().int(),
  unsubscriber_count: z.number().int(),
  /** Recipients skipped because they had unsubscribed / had an invalid number (counted at send time). */
  skipped_unsubscribed_count: z.number().int(),
  skipped_invalid_count: z.number().int(),
  /** Recipients resolved at send time (including skipped ones). */
  recipients_count: z.number().int(),
  number_id: z.number().int().nullable(),
  preview_count: z.number().int(),
  preview_credits: z.number().int(),
  started: z.boolean(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Media URLs (MMS). */
  media: z.array(z.string()),
  media_items: z.array(CampaignMediaItem),
  dynamic_fields: z.array(CampaignMergeField),
  skip_inbox: z.boolean(),
  /** Group ids. */
  groups: z.array(z.number().int()),
  /** Messages per second per number; 0 = unlimited; null = the company's setting (default 1). */
  rate_per_second: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Campaign = z.infer<typeof Campaign>;

export const CampaignSort = z.enum(['id', 'title', 'created_at', 'updated_at', 'should_be_sent_at', 'state']);

/** `GET /api/campaigns` query: company_id, page, size (13), include (groups), filter[search|status], sort, dir. */
export const CampaignListQuery = z.object({
  company_id: Id,
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(13),
  include: z.string().optional(),
  filter: z
    .object({
      search: z.string().optional(),
      status: z.enum(['draft', 'scheduled', 'in-progress', 'paused', 'sent', 'canceled', 'failed']).optional(),
    })
    .optional(),
  sort: CampaignSort.default('created_at'),
  dir: z.enum(['asc', 'desc']).default('desc'),
});
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

export const CampaignList = z.object({ data: z.array(Campaign), meta: PageMeta });

/**
 * The editor's form (`POST /api/campaigns`, `POST /api/campaigns/{id}` with `_method=PATCH`), as
 * multipart fields or JSON. `groups[]`, `dynamic_fields` (JSON text), booleans as "1"/"0"/"true"/"false".
 * `media[]` files come as multipart files; `media` may also list already stored URLs to keep.
 */
export const CampaignForm = z.object({
  _method: z.string().optional(),
  company_id: intLike.optional(),
  title: z.string().optional(),
  text: z.string().optional(),
  unsubscribe_text: z.string().optional(),
  skip_inbox: BoolFlag.optional(),
  groups: z.union([z.array(intLike), intLike.transform((v) => [v])]).optional(),
  should_be_sent_at: z.string().nullable().optional(),
  state: z.enum(['draft', 'queued']).optional(),
  number_id: z.union([intLike, z.literal(''), z.null()]).optional(),
  type: z.literal('sms').optional(),
  include: z.string().optional(),
  dynamic_fields: z.union([z.string(), z.array(CampaignMergeField)]).optional(),
  media: z.union([z.array(z.string()), z.string().transform((v) => [v])]).optional(),
  rate_per_second: z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\d+(\.\d+)?$/)
        .transform(Number),
      z.null(),
    ])
    .optional(),
});
export type CampaignForm = z.infer<typeof CampaignForm>;

/** A campaign event: one recipient and what happened to its message, with the contact (spec 001 §3). */
export const CampaignEvent = z.object({
  id: z.number().int(),
  campaign_id: z.number().int(),
  contact_id: z.number().int(),
  number: z.string(),
  /** pending | sending | sent | delivered | undelivered | failed | unknown | skipped_unsubscribed | skipped_invalid | responded */
  state: z.string(),
  error_code: z.number().int().nullable(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  responded_at: z.string().nullable(),
  unsubscribed_at: z.string().nullable(),
  contact: z.object({ id: z.number().int(), name: z.string(), number: z.string().nullable(), email: z.string().nullable() }).nullable(),
});
export type CampaignEvent = z.infer<typeof CampaignEvent>;

/** `GET /api/campaigns/{id}/events`: search (name or number), status flag, page, size (10). */
export const CampaignEventsQuery = z.object({
  search: z.string().optional(),
  status: z.enum(['pending', 'sent', 'delivered', 'undelivered', 'failed', 'responded', 'unsubscribed', 'skipped']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
});
export type CampaignEventsQuery = z.infer<typeof CampaignEventsQuery>;
export const CampaignEventList = z.object({ data: z.array(CampaignEvent), meta: PageMeta });

/** `POST /api/campaigns/{id}/pause` query (`include`). */
export const CampaignIncludeQuery = z.object({ include: z.string().optional() });

/** Live event `campaigns updated` on `campaigns.{companyId}`: the campaign's state and counters. */
export const CampaignsUpdatedEvent = Campaign.pick({
  id: true,
  company_id: true,
  state: true,
  status: true,
  sent_count: true,
  delivered_count: true,
  undelivered_count: true,
  responded_count: true,
  unsubscriber_count: true,
  skipped_unsubscribed_count: true,
  skipped_invalid_count: true,
  recipients_count: true,
});
export type CampaignsUpdatedEvent = z.infer<typeof CampaignsUpdatedEvent>;

/** Job payloads. */
export const CampaignStartJob = z.object({ campaignId: z.number().int(), sendAt: z.string().nullable().optional() });
export const CampaignDispatchJob = z.object({
  campaignId: z.number().int(),
  fromRecipientId: z.number().int(),
  toRecipientId: z.number().int().nullable().optional(),
});
export type CampaignDispatchJob = z.infer<typeof CampaignDispatchJob>;

/**
 * `GET /api/campaigns/sending-numbers?company_id=` (docs/sms-verification.md "Sending rules"; docs/campaigns.md): each
 * of the company's numbers with its SMS verification state and whether a campaign may be sent from it now, so the
 * editor marks the numbers a send would be refused from before anyone confirms. `message` says why not (null when allowed).
 */
export const CampaignSendingNumber = z.object({
  number_id: z.number().int(),
  number: z.string(),
  verification: z.enum(['verified', 'pending', 'unverified']),
  allowed: z.boolean(),
  message: z.string().nullable(),
});
export const CampaignSendingNumbers = z.object({ data: z.array(CampaignSendingNumber) });
export const CampaignSendingNumbersQuery = z.object({ company_id: z.coerce.number().int().positive() });
