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
}

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
    type: string;
  };
}

/** A cursor-paged list answer. */
export interface CursorPage<T> {
  data: T[];
  meta: { next_cursor: string | null };
}
