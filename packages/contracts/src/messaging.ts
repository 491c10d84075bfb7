/**
 * Messaging, inbox and activity payloads (spec 001 §3 "Conversation", "Conversation item",
 * "Activity item kinds"; §7 "Inbox", "GET /activity"; spec 002 "POST /message").
 *
 * Shapes the web client reads:
 * - `Conversation` (inbox list item, GET one conversation, and the `conversation updated` event);
 * - `ConversationItem` (thread items, the 201 answer of `POST /api/message`);
 * - `ActivityItem` (the merged activity feed).
 */
import { z } from 'zod';
import { Id, Timestamp } from './common.js';
import { CallReportFilters } from './analytics.js';
import { EnhancedCallerId } from './caller-id.js';

// ---------------------------------------------------------------------------------------------
// Carrier error codes
// ---------------------------------------------------------------------------------------------

/**
 * Common carrier (Twilio-dialect) message error codes in words. Lives here until
 * `packages/domain` takes it over (the domain package belongs to another engineer).
 */
export const CARRIER_ERROR_TEXT: Readonly<Record<number, string>> = {
  30001: 'Queue overflow',
  30002: 'Account suspended',
  30003: 'Unreachable destination handset',
  30004: 'Message blocked',
  30005: 'Unknown destination handset',
  30006: 'Landline or unreachable carrier',
  30007: 'Message filtered (carrier violation)',
  30008: 'Unknown error',
  30010: 'Message price exceeds max price',
  21211: 'Invalid destination number',
  21408: 'Permission to send to this region is not enabled',
  21610: 'Recipient has opted out',
  21614: 'Destination is not a mobile number',
};

/** The words for a carrier error code; null when there is no code, a generic text for unknown codes. */
export function carrierErrorText(code: number | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  return CARRIER_ERROR_TEXT[code] ?? `Carrier error ${code}`;
}

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** Delivery states of a conversation item (outbound: sending → queued → sent → delivered | undelivered | failed; inbound: received). */
export const DELIVERY_STATES = ['sending', 'queued', 'sent', 'delivered', 'undelivered', 'failed', 'received'] as const;
export const DeliveryState = z.enum(DELIVERY_STATES);
export type DeliveryState = z.infer<typeof DeliveryState>;

/** One MMS attachment: absolute URL (served by us at /files/...) and MIME type. */
export const MediaItem = z.object({ url: z.string(), contentType: z.string() });
export type MediaItem = z.infer<typeof MediaItem>;

/** Conversation item types (spec 001 §3 latestItem types, plus note). */
export const ConversationItemType = z.string();

/** Query arrays arrive as bracket arrays (`types[]=a&types[]=b`), a single value or a comma list. */
function toArray(v: unknown): unknown {
  if (v === undefined || v === null || v === '') return undefined;
  if (Array.isArray(v)) return v;
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>);
  return String(v)
    .split(',')
    .filter((s) => s !== '');
}
const flag = (def: boolean) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? def : v),
    z.union([z.boolean(), z.enum(['1', '0', 'true', 'false'])]).transform((v) => v === true || v === '1' || v === 'true'),
  );

// ---------------------------------------------------------------------------------------------
// Conversation items and conversations
// ---------------------------------------------------------------------------------------------

/**
 * A thread item (spec 001 §3 "Conversation item"): `id, isInbound, createdAt, details`.
 * `details.errorText` is `errorCode` in words (CARRIER_ERROR_TEXT). `conversationId` is our addition.
 */
export const ConversationItem = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  isInbound: z.boolean(),
  isRead: z.boolean(),
  createdAt: Timestamp,
  details: z.object({
    type: z.string(),
    content: z.string().nullable(),
    deliveryState: z.string().nullable(),
    errorCode: z.number().int().nullable(),
    errorText: z.string().nullable(),
    media: z.array(MediaItem),
    /** Call and voicemail items: the call, its voicemail, its CALL_STATUS code and label, its length in seconds. */
    callId: z.number().int().nullable(),
    voicemailId: z.number().int().nullable(),
    callStatus: z.number().int().nullable(),
    callStatusLabel: z.string().nullable(),
    durationS: z.number().int().nullable(),
    /** Scheduled messages: when the message goes out (ISO). */
    shouldBeSentAt: Timestamp.nullable(),
    /** Outbound messages and notes: the user who wrote them. */
    userId: z.number().int().nullable(),
    /**
     * Inbound messages: the body was longer than the carrier's limit (1,600 characters) and was cut
     * to it (docs/messaging.md "Long messages"); `originalLength` is then the characters received.
     */
    truncated: z.boolean().optional(),
    originalLength: z.number().int().nullable().optional(),
    /** Voicemail items in item pages: the voicemail's transcript (`loading`, then `complete` with its text, or `failed`), null when it has none. */
    transcript: z
      .object({ state: z.enum(['loading', 'complete', 'failed']), text: z.string() })
      .nullable()
      .optional(),
  }),
});
export type ConversationItem = z.infer<typeof ConversationItem>;

/** latestItem of a conversation (spec 001 §3): a type plus details. */
export const LatestItem = z.object({
  type: z.string(),
  details: z.object({
    content: z.string().nullable(),
    deliveryState: z.string().nullable(),
    errorCode: z.number().int().nullable(),
    media: z.array(MediaItem),
    isInbound: z.boolean(),
    createdAt: Timestamp,
  }),
});
export type LatestItem = z.infer<typeof LatestItem>;

/** An inbox conversation (spec 001 §3 "Conversation"). `conversationId` is `id` (a number, as on items and events). */
export const Conversation = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  lastActivityAt: Timestamp,
  recipient: z.string(),
  number: z.object({ id: z.number().int(), number: z.string() }),
  contact: z.object({ id: z.number().int(), name: z.string(), subscribed: z.boolean() }).nullable(),
  latestItem: LatestItem.nullable(),
  numUnreadItems: z.number().int(),
  isArchived: z.boolean(),
  isBlocked: z.boolean(),
  enhancedCallerId: EnhancedCallerId.nullable(),
});
export type Conversation = z.infer<typeof Conversation>;

/**
 * Live event `conversation updated` on `conversations.{companyId}`: the conversation (same shape
 * as a list item) plus `item`, the item that changed (new message or new delivery state), when one did.
 */
export const ConversationUpdatedEvent = Conversation.extend({ item: ConversationItem.nullable().optional() });
export type ConversationUpdatedEvent = z.infer<typeof ConversationUpdatedEvent>;
export const CONVERSATION_UPDATED = 'conversation updated';

/** Cursor-paged meta: `next_cursor` is opaque; null on the last page. */
export const CursorMeta = z.object({ next_cursor: z.string().nullable(), per_page: z.number().int() });

export const ConversationParams = z.object({ companyId: Id, cid: Id });
export const ConversationItemParams = z.object({ companyId: Id, cid: Id, iid: Id });

/** `GET /companies/{companyId}/conversations` query (spec 001 §7 "Inbox"). */
export const ConversationListQuery = z.object({
  perPage: z.coerce.number().int().min(1).max(100).default(5),
  cursor: z.string().optional(),
  isArchived: flag(false),
  search: z.string().max(200).optional(),
  types: z.preprocess(toArray, z.array(z.string()).optional()),
  numberIds: z.preprocess(toArray, z.array(Id).optional()),
  updatedAfter: z.coerce.date().optional(),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;
export const ConversationList = z.object({ data: z.array(Conversation), meta: CursorMeta });

/** `GET .../conversations/{cid}/items` query: newest first. */
export const ConversationItemsQuery = z.object({
  perPage: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
});
export const ConversationItemList = z.object({ data: z.array(ConversationItem), meta: CursorMeta });

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

/**
 * `POST /api/message` (multipart or JSON). Recipient: `to`, or `conversation_id` (then
 * `number_id` and `to` default to the conversation's). `media[]` files only in multipart.
 * Length and emptiness rules are checked by the server (422 on `content`).
 */
export const SendMessageBody = z.object({
  company_id: Id,
  number_id: Id.optional(),
  to: z.string().max(40).optional(),
  conversation_id: Id.optional(),
  content: z.string().optional().default(''),
});
export type SendMessageBody = z.infer<typeof SendMessageBody>;

/**
 * `POST /api/inbox/message/schedule` (multipart or JSON): the fields of `POST /message` plus
 * `shouldBeSentAt` (ISO-8601, must be in the future; checked by the server, 422).
 */
export const ScheduleMessageBody = SendMessageBody.extend({
  shouldBeSentAt: z.string({ error: 'The should be sent at field is required.' }).min(1, 'The should be sent at field is required.').max(64),
});
export type ScheduleMessageBody = z.infer<typeof ScheduleMessageBody>;

/** Job payloads. */
export const SendMessageJob = z.object({ itemId: z.number().int() });
export const FetchMediaJob = z.object({ itemId: z.number().int() });
export const SendScheduledMessageJob = z.object({ itemId: z.number().int() });

// ---------------------------------------------------------------------------------------------
// Inbox bulk calls, items across conversations, notes
// ---------------------------------------------------------------------------------------------

export const BULK_UPDATE_TYPES = ['read', 'unread', 'archive', 'restore', 'delete'] as const;
/** `PUT /companies/{id}/conversations/bulk-update`: every id must be one of the company's conversations (else 404). */
export const BulkUpdateBody = z.object({
  ids: z.array(Id).min(1, 'The ids field is required.').max(500),
  type: z.enum(BULK_UPDATE_TYPES, { error: 'The selected type is invalid.' }),
});
export type BulkUpdateBody = z.infer<typeof BulkUpdateBody>;
/** Answer of bulk-update: the conversations after the change (none after `delete`) and the ids changed. */
export const BulkUpdateResult = z.object({ data: z.array(Conversation), ids: z.array(z.number().int()) });

/** Item types counted and read by type (spec 001 §4 "all by type"; 002 notification counts). */
export const COUNTED_ITEM_TYPES = ['message', 'call', 'voicemail', 'fax'] as const;
export const CountedItemType = z.enum(COUNTED_ITEM_TYPES, { error: 'The selected type is invalid.' });
/** `PUT /companies/{id}/conversations/read-all-by-type`: `numbers` are number ids (default: every number of the company). */
export const ReadAllByTypeBody = z.object({
  type: CountedItemType,
  numbers: z.array(Id).max(500).optional(),
});
export const ReadAllByTypeResult = z.object({ updated: z.number().int(), conversationIds: z.array(z.number().int()) });

/** `GET /api/inbox/conversations/items`: items of every conversation of the company, newest first. */
export const CompanyItemsQuery = z.object({
  company_id: Id,
  types: z.preprocess(toArray, z.array(z.string().max(32)).max(10).optional()),
  cursor: z.string().optional(),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
});
export type CompanyItemsQuery = z.infer<typeof CompanyItemsQuery>;

/** `POST /companies/{id}/conversations/{cid}/notes`. */
export const ConversationNoteBody = z.object({
  body: z.string({ error: 'The body field is required.' }).max(5000, 'The body may not be greater than 5000 characters.'),
});

/** Live `conversation updated` after a conversation was deleted: only its id and `deleted: true`. */
export const ConversationDeletedEvent = z.object({ id: z.number().int(), conversationId: z.number().int(), deleted: z.literal(true) });

// ---------------------------------------------------------------------------------------------
// Notification counts and blocks (spec 002 "Messages and notifications")
// ---------------------------------------------------------------------------------------------

/** Channel types a notification block mutes; sms mutes message items. */
export const NOTIFICATION_CHANNEL_TYPES = ['sms', 'call', 'voicemail', 'fax'] as const;
export const NotificationChannelType = z.enum(NOTIFICATION_CHANNEL_TYPES, { error: 'The selected channel type is invalid.' });
/** `POST` / `DELETE /companies/{companyId}/notificationBlocks`: `number_id` or `number_ids[]`, and `channel_types[]`. */
export const NotificationBlocksBody = z.object({
  number_id: Id.optional(),
  number_ids: z.array(Id).max(500).optional(),
  channel_types: z.array(NotificationChannelType).min(1, 'The channel types field is required.'),
});
export type NotificationBlocksBody = z.infer<typeof NotificationBlocksBody>;
/** The caller's blocks in a company, one entry per blocked number. */
export const NotificationBlockList = z.object({
  data: z.array(z.object({ number_id: z.number().int(), hasNotificationBlocks: z.boolean(), channel_types: z.array(NotificationChannelType) })),
});
/** Unread counts of the caller's company, muted channels excluded. */
export const NotificationCounts = z.object({
  message: z.number().int(),
  call: z.number().int(),
  voicemail: z.number().int(),
  fax: z.number().int(),
  total: z.number().int(),
});
/** `GET .../notificationCountsByNumber`: `{data: [...]}`, the envelope of every other list. */
export const NumberNotificationCounts = z.object({
  number_id: z.number().int(),
  message: z.number().int(),
  call: z.number().int(),
  voicemail: z.number().int(),
  fax: z.number().int(),
});
export const NotificationCountsByNumber = z.object({ data: z.array(NumberNotificationCounts) });

// ---------------------------------------------------------------------------------------------
// Activity
// ---------------------------------------------------------------------------------------------

/**
 * Activity filter (spec 001 §7 "GET /activity"): type flags (calls, voicemails, messages, faxes on, notes
 * off; `trackingmatch` on: call-tracking visits matched to a call), `dniSessionId` (only the items of one
 * tracked visit) and the report filters of `GET /analytics/calls` (CallReportFilters: a call filter keeps
 * only calls and voicemails that match; messages are kept only by dates, number_ids and companies; notes
 * only by dates).
 */
export const ActivityFilter = CallReportFilters.extend({
  calls: flag(true),
  voicemails: flag(true),
  messages: flag(true),
  faxes: flag(true),
  notes: flag(false),
  trackingmatch: flag(true),
  dniSessionId: z.union([z.number().int().positive(), z.string().min(1).max(100)]).optional(),
});
export type ActivityFilter = z.infer<typeof ActivityFilter>;

/** `GET /activity` query: `filter` is a JSON-encoded object or a bracket object (`filter[calls]=0`). */
export const ActivityQuery = z.object({
  company: Id,
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  tz: z.string().max(64).optional(),
  filter: z.preprocess((v) => {
    if (v === undefined || v === null || v === '') return {};
    if (typeof v === 'string') {
      try {
        return JSON.parse(v);
      } catch (error) {
        if (error instanceof SyntaxError) return v; // not JSON: left for the schema to refuse (422)
        throw error;
      }
    }
    return v;
  }, ActivityFilter.loose()),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

/** One feed entry; `id` is kind-prefixed (`call-12`, `voicemail-3`, `message-9`). */
export const ActivityItem = z.object({
  id: z.string(),
  kind: z.enum(['call', 'voicemail', 'message', 'fax', 'note', 'trackingmatch']),
  created_at: Timestamp,
  /** The business number; `label` its label ('' when none). */
  number: z.object({ id: z.number().int(), number: z.string(), label: z.string().optional() }),
  /** Calls and voicemails: the call's id (its detail at /calls/{id}). */
  call_id: z.number().int().optional(),
  from: z.string(),
  to: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  status_label: z.string().nullable().optional(),
  duration_s: z.number().nullable().optional(),
  content: z.string().nullable().optional(),
  delivery_state: z.string().nullable().optional(),
  error_code: z.number().int().nullable().optional(),
  media: z.array(MediaItem).optional(),
  recording_url: z.string().nullable().optional(),
  is_read: z.boolean().optional(),
  contact: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  conversation_id: z.number().int().nullable().optional(),
  /** Calls and messages: the party's cached caller-name lookup, the contact's name first (docs/caller-id.md); null when never looked up. */
  enhanced_caller_id: EnhancedCallerId.nullable().optional(),
  /** Calls: reporting fields (the reporting store; absent until the call's facts are built). */
  answer_status: z.enum(['none', 'answered', 'missed', 'voicemail', 'blocked']).optional(),
  is_first_contact: z.boolean().nullable().optional(),
  traffic_source: z.string().nullable().optional(),
  /**
   * note (spec 001 §3 "Note": model_type, model_id, body; the body is `content`): the note and who wrote it (null when
   * that user is gone). A note on a call also carries the call's `call_id`, number, parties and contact.
   */
  note: z
    .object({
      id: z.number().int(),
      model_type: z.string(),
      model_id: z.number().int(),
      user_id: z.number().int().nullable(),
      user_name: z.string().nullable(),
      updated_at: Timestamp,
    })
    .optional(),
  /** trackingmatch: the tracked visit matched to a call (spec 001 §3 "Activity item kinds"). */
  tracking: z
    .object({
      session_id: z.union([z.number().int(), z.string()]),
      pool_id: z.number().int().nullable().optional(),
      traffic_source: z.string().nullable().optional(),
      source: z.string().nullable().optional(),
      medium: z.string().nullable().optional(),
      campaign: z.string().nullable().optional(),
      keyword: z.string().nullable().optional(),
      landing_page: z.string().nullable().optional(),
      referrer: z.string().nullable().optional(),
    })
    .optional(),
});
export type ActivityItem = z.infer<typeof ActivityItem>;
export const ActivityList = z.object({
  data: z.array(ActivityItem),
  meta: z.object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
    /** The first-page progress rule (spec 001 §7): false when page is 1 and per_page is 10. */
    show_progress: z.boolean().optional(),
  }),
});
