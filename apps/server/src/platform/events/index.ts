/**
 * Domain events: the registry of names and zod payloads (`registry.ts`, one file per family), the
 * outbox bus (`bus.ts`: emit inside the transaction, dispatch after commit, named consumers) and
 * its workers and operators' tools (`outbox.ts`). Import from here.
 */
export * from './registry.js';
export {
  events,
  mergeEmitted,
  emittedAt,
  type AnyEvent,
  type DeliveryCondition,
  type DomainEventHandler,
  type EmitOptions,
  type Emitted,
  type EventMeta,
} from './bus.js';
