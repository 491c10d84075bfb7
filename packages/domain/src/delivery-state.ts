/**
 * Delivery states of a message in the inbox thread (spec 001 §3 "Conversation item",
 * `details.deliveryState`) and the rule that moves them: a state only ever moves forward, so a
 * carrier's late or repeated status callback (a `sent` arriving after `delivered`) never undoes a
 * later one. See docs/messaging.md for the flow (sending → queued → sent → delivered | undelivered | failed).
 */

/** Every delivery state a message item can carry (`received` for inbound messages). */
export const DELIVERY_STATES = ['sending', 'queued', 'sent', 'delivered', 'undelivered', 'failed', 'received'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The final states: nothing moves a message out of them. */
export const FINAL_DELIVERY_STATES: readonly DeliveryState[] = ['delivered', 'undelivered', 'failed', 'received'];

const RANK: Record<DeliveryState, number> = { sending: 0, queued: 1, sent: 2, delivered: 3, undelivered: 3, failed: 3, received: 3 };

/** Whether `state` is one of {@link DELIVERY_STATES}. */
export function isDeliveryState(state: unknown): state is DeliveryState {
  return typeof state === 'string' && (DELIVERY_STATES as readonly string[]).includes(state);
}

/**
 * The rank of a delivery state: -1 for none (null), 0 for an unknown word, then sending 0, queued
 * 1, sent 2 and the final states 3. A state may replace another only when its rank is higher.
 */
export function deliveryRank(state: string | null): number {
  if (state === null) return -1;
  return isDeliveryState(state) ? RANK[state] : 0;
}

/** A message's stored delivery facts. */
export type DeliveryFacts = { state: string | null; carrierSid: string | null; errorCode: number | null };
/** A delivery update from the carrier or our own send attempt (each part optional). */
export type DeliveryUpdate = { state?: string | null; carrierSid?: string | null; errorCode?: number | null };
/** What changes; absent keys stay as they are. */
export type DeliveryChange = { state?: string; carrierSid?: string; errorCode?: number | null };

/**
 * Applies a delivery update to a message's facts (pure):
 * - the carrier SID is recorded when the message has none yet (a stored SID is never replaced);
 * - the state moves only forward ({@link deliveryRank}); with it, the update's error code (when given) is stored;
 * - an error code that arrives after the message already failed (`undelivered`/`failed` without a
 *   code) is stored on its own.
 * @returns the change to store, or null when nothing changes.
 */
export function advanceDelivery(current: DeliveryFacts, update: DeliveryUpdate): DeliveryChange | null {
  const change: DeliveryChange = {};
  if (update.carrierSid && !current.carrierSid) change.carrierSid = update.carrierSid;
  if (update.state && update.state !== current.state && deliveryRank(update.state) > deliveryRank(current.state)) {
    change.state = update.state;
    if (update.errorCode !== undefined) change.errorCode = update.errorCode;
  } else if (update.errorCode && current.errorCode === null && (current.state === 'undelivered' || current.state === 'failed')) {
    change.errorCode = update.errorCode;
  }
  return Object.keys(change).length === 0 ? null : change;
}
