/** Shapes of the inbox endpoints (spec 001 §3 "Conversation", "Conversation item"). */

export type DeliveryState = 'sending' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'received' | string;

export interface ConversationItemDetails {
  content: string | null;
  deliveryState: DeliveryState | null;
  isInbound: boolean;
  createdAt: string;
}

export interface Conversation {
  id: number;
  lastActivityAt: string;
  /** The outside party's number, E.164. */
  recipient: string;
  number: { id: number; number: string };
  contact: { id: number; name: string; subscribed: boolean } | null;
  latestItem: { type: string; details: ConversationItemDetails } | null;
  numUnreadItems: number;
  isArchived: boolean;
  /** The outside party is blocked (their texts arrive read; their calls start no conversation). */
  isBlocked?: boolean;
  /** Set on the live event of a deleted conversation. */
  deleted?: boolean;
}

/** The item types a conversation can be filtered by (spec 001 §7 `types`). */
export type ItemType = 'message' | 'call' | 'voicemail' | 'fax';

export interface ConversationItem {
  id: number | string;
  isInbound: boolean;
  createdAt: string;
  details: {
    content: string | null;
    deliveryState: DeliveryState | null;
    errorCode: string | number | null;
    errorText: string | null;
    media: Array<{ url: string; contentType?: string; content_type?: string } | string> | null;
    /** message | scheduledmessage | call | voicemail | fax | note */
    type: string;
    callId?: number | null;
    voicemailId?: number | null;
    callStatus?: number | null;
    callStatusLabel?: string | null;
    durationS?: number | null;
    /** When a scheduled message goes out (type scheduledmessage). */
    shouldBeSentAt?: string | null;
    userId?: number | null;
  };
}

/** A cursor-paged list answer. */
export interface CursorPage<T> {
  data: T[];
  meta: { next_cursor: string | null };
}
