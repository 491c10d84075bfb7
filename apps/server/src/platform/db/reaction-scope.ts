/**
 * Which pool a connection comes from (./db.ts `createDb`): the answers' pool by default, the reactions' pool inside
 * {@link asReaction} (the domain events' consumers, platform/events/bus.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Set while a domain-event consumer runs (see {@link asReaction}). */
const scope = new AsyncLocalStorage<true>();

/**
 * Runs `fn` as a reaction (a domain-event consumer, platform/events/bus.ts): every connection it takes comes from
 * the reactions' pool instead of the answers' pool, so reactions never take the connections that answer callers and
 * carriers (however far behind they are), and their transactions commit with `synchronous_commit` off: a reaction's
 * commit does not wait for the WAL flush. That loses nothing: the delivery is marked done after the reaction
 * committed, and the WAL is one sequence, so a done mark that survives a crash has the reaction's records before it
 * (the dispatch and the workers mark through the answers' pool, with a synchronous commit); a crash that loses the
 * reaction loses its done mark too, and the idempotent consumer runs again.
 */
export function asReaction<T>(fn: () => T): T {
  return scope.run(true, fn);
}

/** Whether the caller runs inside {@link asReaction}. */
export function inReaction(): boolean {
  return scope.getStore() === true;
}

/**
 * Runs `fn` outside any reaction: its connections come from the answers' pool and commit synchronously. For work
 * shared by callers of both kinds (a group commit's batch: one reaction's submit must not make the answers' items in
 * the same batch commit without waiting for the WAL flush).
 */
export function outsideReaction<T>(fn: () => T): T {
  return scope.exit(fn);
}
