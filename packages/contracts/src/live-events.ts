/**
 * The live channels and their events (foundation §7 "Live channels"; spec 001 §7 "Live channels
 * and events"): one registry that both ends read. The server publishes only a registered
 * (channel, event, payload) triple (`Realtime.send`); the web subscribes by channel AND event with
 * the payload type inferred from here (`apps/web/src/lib/realtime.ts`).
 *
 * Channels are private and keyed by an id: `conversations.{companyId}`, `company.{companyId}`,
 * `campaigns.{companyId}`, `bulk-purchase.{companyId}`, `user.{userId}`. On the wire every event
 * is emitted as `(event, payload, channel)`: Socket.IO listeners that read only the payload keep
 * working, and a client can tell which channel an event came on.
 */
import { z } from 'zod';
import { CampaignsUpdatedEvent } from './campaigns.js';
import { CONTACT_IMPORT_COMPLETED, CONTACT_IMPORT_PROGRESS, ContactImportCompletedEvent, ContactImportProgressEvent } from './contacts.js';
import { IN_APP_CALLING_EVENT, InAppCallingEvent } from './in-app-calling.js';
import { OUTBOUND_CALL_EVENT, OutboundCallEvent } from './outbound-calls.js';
import { CONVERSATION_UPDATED, ConversationDeletedEvent, ConversationUpdatedEvent } from './messaging.js';
import { BatchCompletedEvent, BatchProgressEvent, PortUpdatedEvent } from './numbers-admin.js';
import { ALERTS_COMPANY_EVENTS } from './alerts.js';
import { BILLING_USAGE_UPDATED, BillingUsageUpdatedEvent } from './billing.js';
import { MARKETPLACE_UPDATED, MarketplaceUpdatedEvent } from './marketplace.js';
import { ANALYTICS_COMPANY_EVENTS, ANALYTICS_USER_EVENTS } from './analytics.js';
import { TRACKING_COMPANY_EVENTS } from './tracking.js';
import { SMS_VERIFICATION_UPDATED, SmsVerificationUpdatedEvent } from './sms-verification.js';
import { TRANSCRIPT_UPDATED, TranscriptUpdatedEvent } from './transcription.js';

/**
 * `call updated` on `company.{companyId}`: a call changed (`status`: its new CALL_STATUS code) or
 * got a note (`note: true`); readers refetch the call.
 */
export const CallUpdatedEvent = z.object({
  id: z.number().int(),
  status: z.number().int().optional(),
  note: z.literal(true).optional(),
});
export type CallUpdatedEvent = z.infer<typeof CallUpdatedEvent>;

/** `conversation updated`: the conversation with the item that changed, or a deleted conversation's id. */
export const ConversationLiveEvent = z.union([ConversationUpdatedEvent, ConversationDeletedEvent]);
export type ConversationLiveEvent = z.infer<typeof ConversationLiveEvent>;

/** Every channel kind with every event it carries and the event's payload schema. */
export const LIVE_EVENTS = {
  conversations: {
    [CONVERSATION_UPDATED]: ConversationLiveEvent,
  },
  company: {
    'call updated': CallUpdatedEvent,
    'port updated': PortUpdatedEvent,
    [CONTACT_IMPORT_PROGRESS]: ContactImportProgressEvent,
    [CONTACT_IMPORT_COMPLETED]: ContactImportCompletedEvent,
    'release progress': BatchProgressEvent,
    'release completed': BatchCompletedEvent,
    'number update progress': BatchProgressEvent,
    'number update completed': BatchCompletedEvent,
    ...TRACKING_COMPANY_EVENTS,
    ...ANALYTICS_COMPANY_EVENTS,
    ...ALERTS_COMPANY_EVENTS,
    [BILLING_USAGE_UPDATED]: BillingUsageUpdatedEvent,
    [MARKETPLACE_UPDATED]: MarketplaceUpdatedEvent,
    [SMS_VERIFICATION_UPDATED]: SmsVerificationUpdatedEvent,
    [TRANSCRIPT_UPDATED]: TranscriptUpdatedEvent,
  },
  'bulk-purchase': {
    'bulk purchase progress': BatchProgressEvent,
    'bulk purchase finished': BatchCompletedEvent,
  },
  campaigns: {
    'campaigns updated': CampaignsUpdatedEvent,
  },
  user: {
    [IN_APP_CALLING_EVENT]: InAppCallingEvent,
    [OUTBOUND_CALL_EVENT]: OutboundCallEvent,
    ...ANALYTICS_USER_EVENTS,
  },
} as const satisfies Record<string, Record<string, z.ZodType>>;

/** A channel kind: the part of a channel name before the id. */
export type LiveChannelKind = keyof typeof LIVE_EVENTS;
export const LIVE_CHANNEL_KINDS = Object.keys(LIVE_EVENTS) as LiveChannelKind[];

/** A channel name: `{kind}.{id}`. */
export type LiveChannel<K extends LiveChannelKind = LiveChannelKind> = `${K}.${number}`;

/** Channel names a socket may ask to join (the server still checks membership). */
export const LIVE_CHANNEL_PATTERN = new RegExp(`^(${LIVE_CHANNEL_KINDS.map((k) => k.replace(/[-]/g, '\\-')).join('|')})\\.(\\d+)$`);

/** The events of a channel kind. */
export type LiveEventName<K extends LiveChannelKind> = keyof (typeof LIVE_EVENTS)[K] & string;

/** The payload of `event` on a channel of kind `K`, as the server sends it. */
export type LivePayload<K extends LiveChannelKind, E extends LiveEventName<K>> = z.infer<(typeof LIVE_EVENTS)[K][E] & z.ZodType>;

/** The channel kind of a channel name type (`'company.5'`-like → `'company'`). */
export type LiveChannelKindOf<C extends string> = C extends `${infer K extends LiveChannelKind}.${number}` ? K : never;

/** The channel name of kind `kind` for `id` (a company id, or a user id for `user`). */
export function liveChannel<K extends LiveChannelKind>(kind: K, id: number): LiveChannel<K> {
  return `${kind}.${id}`;
}

/** The kind of a channel name, or null when the name is not a live channel. */
export function liveChannelKind(channel: string): LiveChannelKind | null {
  const m = LIVE_CHANNEL_PATTERN.exec(channel);
  return m ? (m[1] as LiveChannelKind) : null;
}
