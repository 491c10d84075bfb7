/**
 * The domain-event registry (architecture: "Reactions travel as typed domain events after
 * commit"). One list of event names with zod payload schemas, assembled from one file per family
 * (`call-events.ts`, `message-events.ts`, ...); the bus (`bus.ts`) is typed from it and validates
 * every payload before running handlers (a malformed payload is a programming error: logged,
 * handlers not run).
 *
 * Modules emit with `events.emitAfterCommit(ctx, name, payload)` after their transaction
 * committed, and subscribe in their module setup (`ModuleEntry.setup` in
 * `<module>/<module>.module.ts`), never in a routes file (docs/architecture.md "Domain events").
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
