/**
 * The domain-event registry (architecture: "Reactions travel as typed domain events after
 * commit"). One list of event names with zod payload schemas, assembled from one file per family
 * (`call-events.ts`, `message-events.ts`, ...); the bus (`bus.ts`) is typed from it and validates
 * every payload before running handlers (a malformed payload is a programming error: logged,
 * handlers not run).
 *
 * Modules emit with `events.emit(tx, name, payload)` inside the transaction of the change (the
 * outbox, `bus.ts`) and dispatch after commit; consumers subscribe in their module setup
 * (`ModuleEntry.setup` in `<module>/<module>.module.ts`), never in a routes file
 * (docs/architecture.md "Domain events"). Each event names its aggregate ({@link aggregateOf}):
 * a consumer sees one aggregate's events in order.
 */
import type { z } from 'zod';
import { CALL_EVENTS } from './call-events.js';
import { CAMPAIGN_EVENTS } from './campaign-events.js';
import { CONTACT_EVENTS } from './contact-events.js';
import { MESSAGE_EVENTS } from './message-events.js';
import { NUMBER_EVENTS } from './number-events.js';
import { TRACKING_EVENTS } from './tracking-events.js';
import { INTELLIGENCE_EVENTS } from './intelligence-events.js';
import { COMPLIANCE_EVENTS } from './compliance-events.js';

/** Every domain event: name → payload schema. */
export const DOMAIN_EVENTS = {
  ...CALL_EVENTS,
  ...MESSAGE_EVENTS,
  ...NUMBER_EVENTS,
  ...TRACKING_EVENTS,
  ...CONTACT_EVENTS,
  ...CAMPAIGN_EVENTS,
  ...INTELLIGENCE_EVENTS,
  ...COMPLIANCE_EVENTS,
} as const;

/** Payload types by event name, inferred from the schemas. */
export type DomainEvents = { [K in keyof typeof DOMAIN_EVENTS]: z.infer<(typeof DOMAIN_EVENTS)[K]> };
export type DomainEventName = keyof DomainEvents;

/** Payload of `call.changed`. */
export type CallChangedEvent = DomainEvents['call.changed'];

/**
 * The aggregate each event describes, as [type, id]: a consumer's deliveries of one aggregate run
 * in event order (a call's status changes), and its per-aggregate sequence is counted from these.
 * Producers change an aggregate under its row lock, so event ids follow commit order per aggregate.
 */
const AGGREGATES: { [K in DomainEventName]: (p: DomainEvents[K]) => [string, string | number] } = {
  'call.changed': (p) => ['call', p.callId],
  'call.annotated': (p) => ['call', p.callId],
  'call.attributed': (p) => ['call', p.callId],
  'message.received': (p) => ['message', p.carrierSid],
  'message.status-changed': (p) => ['message-item', p.itemId],
  'number.batch-finished': (p) => ['number-batch', p.batchId],
  'tracking.pool-exhausted': (p) => ['dni-pool', p.poolId],
  'contact.created': (p) => ['contact', p.contactId],
  'contact.updated': (p) => ['contact', p.contactId],
  'contact.deleted': (p) => ['contact-deletion', p.deletionId],
  'campaign.finished': (p) => ['campaign', p.campaignId],
  // Outcome counts commute: each batch is its own aggregate, so batches of one campaign never wait for each other.
  'campaign.delivery-outcomes': (p) => ['campaign-outcomes', `${p.campaignId}:${p.at}:${p.outcomes[0]?.recipientId ?? 0}`],
  'transcript.changed': (p) => ['transcript', p.transcriptId],
  'fax.changed': (p) => ['fax', p.faxId],
  'caller-id.looked-up': (p) => ['caller-id', `${p.companyId}:${p.e164}`],
  'sms-verification.submitted': (p) => ['sms-campaign', p.campaignId],
};

/** `[aggregate type, aggregate id]` of an event (see AGGREGATES). */
export function aggregateOf<K extends DomainEventName>(name: K, payload: DomainEvents[K]): [string, string] {
  const [type, id] = (AGGREGATES[name] as (p: DomainEvents[K]) => [string, string | number])(payload);
  return [type, String(id)];
}
