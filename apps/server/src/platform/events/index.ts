/**
 * Domain events: the registry of names and zod payloads (`registry.ts`, one file per family) and
 * the in-process bus (`bus.ts`). Import from here.
 */
export * from './registry.js';
export { events, type DomainEventHandler } from './bus.js';
