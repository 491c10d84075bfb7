/**
 * A tiny in-process, typed domain-event bus: one module announces that something changed, other
 * modules react, without the announcing module importing them.
 *
 * - `events.on(name, handler)`: subscribe. Handlers take `(ctx, payload)`; registering the same
 *   handler function twice is a no-op (several servers in one process share this module).
 * - `events.emitAfterCommit(ctx, name, payload)`: call AFTER the transaction that made the change
 *   committed. Runs every handler, in registration order, awaiting each; a handler's error is
 *   logged with `ctx.log` and never thrown to the emitter. In-process only: a crash between the
 *   commit and the handler loses the reaction, so handlers must be idempotent upserts that the
 *   next event of the same object repairs.
 */
import type { AppContext } from '../../context.js';
import { DOMAIN_EVENTS, type DomainEventName, type DomainEvents } from './registry.js';

export type DomainEventHandler<K extends DomainEventName> = (ctx: AppContext, payload: DomainEvents[K]) => void | Promise<void>;

class EventBus {
  private readonly handlers = new Map<DomainEventName, Set<DomainEventHandler<any>>>();

  /** Subscribes `handler` to `name` (idempotent per handler function). @returns an unsubscribe function. */
  on<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void {
    let set = this.handlers.get(name);
    if (!set) this.handlers.set(name, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  /** Runs the handlers of `name` with `payload` (call after commit); errors are logged, not thrown. */
  async emitAfterCommit<K extends DomainEventName>(ctx: AppContext, name: K, payload: DomainEvents[K]): Promise<void> {
    const checked = DOMAIN_EVENTS[name].safeParse(payload);
    if (!checked.success) {
      ctx.log.error({ event: name, issues: checked.error.issues }, 'domain event payload does not match its schema; handlers not run');
      return;
    }
    for (const handler of [...(this.handlers.get(name) ?? [])]) {
      try {
        await handler(ctx, payload);
      } catch (e) {
        ctx.log.error({ err: e, event: name }, 'domain event handler failed');
      }
    }
  }
}

/** The process-wide bus. */
export const events = new EventBus();
