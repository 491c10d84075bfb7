/** Shapes of the inbox endpoints (spec 001 §3 "Conversation", "Conversation item"), inferred from packages/contracts. */
import type { Conversation, ConversationItem, CountedItemType, CursorMeta, Infer, LatestItem } from '@switchboard/contracts';

export type { Conversation, ConversationItem };

/** A delivery state word (`DELIVERY_STATES`; the item schema carries it as a string). */
export type DeliveryState = NonNullable<ConversationItem['details']['deliveryState']>;

export type ConversationItemDetails = LatestItem['details'];

/** The item types a conversation can be filtered by (spec 001 §7 `types`). */
export type ItemType = Infer<typeof CountedItemType>;

/** A cursor-paged list answer. */
export interface CursorPage<T> {
  data: T[];
  meta: Infer<typeof CursorMeta>;
}
