/**
 * Domain events of the messaging family (emitted by the messaging module after commit; others
 * only subscribe, e.g. campaigns' counters). Each entry: event name → zod schema of its payload.
 * See `platform/events/index.ts`. Add an event here before emitting it.
 */
import { z } from 'zod';

const when = z.union([z.date(), z.string()]);
const id = z.number().int();

/** The messaging family: event name → payload schema. */
export const MESSAGE_EVENTS = {
  /**
   * An inbound SMS/MMS to one of our numbers was handled (spec 001 §7 "Inbox"): stored in the
   * inbox, or kept out of it (a reply to a `skip_inbox` campaign: `conversationId`/`itemId` null).
   * Emitted once per carrier message (repeated deliveries of one SID are absorbed before).
   */
  'message.received': z.object({
    companyId: id,
    /** The business number it was sent to. */
    numberId: id,
    /** The thread it was stored in, or null when it was kept out of the inbox. */
    conversationId: id.nullable(),
    /** The stored message item, or null when it was kept out of the inbox. */
    itemId: id.nullable(),
    /** E.164 of the sender (the outside party); the carrier's text when it is no phone number. */
    from: z.string(),
    body: z.string(),
    /** The carrier's message SID. */
    carrierSid: z.string(),
    receivedAt: when,
    /** The opt-out keyword class of the body (domain `classifyKeyword`), or null for an ordinary message. */
    keyword: z.enum(['opt-out', 'opt-in', 'help']).nullable(),
    /** The campaign the inbound-reply hook attributed this reply to, or null. */
    campaignId: id.nullable(),
  }),
  /**
   * A message item's delivery facts changed (state moved forward, carrier SID or error code
   * recorded): our send attempt or the carrier's status callback (docs/messaging.md).
   */
  'message.status-changed': z.object({
    companyId: id,
    conversationId: id,
    itemId: id,
    carrierSid: z.string().nullable(),
    /** The delivery state now (domain `DELIVERY_STATES`). */
    state: z.string().nullable(),
    /** The carrier's error code, when the message failed. */
    errorCode: z.number().int().nullable(),
    /** The campaign the message belongs to, when the item is a campaign's (today campaign items are updated by campaigns' own callback: null). */
    campaignId: id.nullable(),
  }),
} as const;

/** Payload of `message.received`. */
export type MessageReceivedEvent = z.infer<(typeof MESSAGE_EVENTS)['message.received']>;
/** Payload of `message.status-changed`. */
export type MessageStatusChangedEvent = z.infer<(typeof MESSAGE_EVENTS)['message.status-changed']>;
