/**
 * Hot-path batching of the voice webhook (docs/architecture.md "The voice webhook's hot path"):
 * new inbound calls planned from reads (`planInboundCall`, call-flow.ts) are stored by group
 * commit, the calls of the same ~2 ms together with their webhook receipts in one statement.
 */
import type { AppContext } from '../../context.js';
import { GroupCommit } from '../../platform/db/group-commit.js';
import type { ReceiptRow } from '../../platform/http/webhook-receipts.repository.js';
import { contactIdForNumberSql, findContactByNumber } from '../contacts/contacts.service.js';
import { emittedAt, events as domainEvents, type Emitted } from '../../platform/events/index.js';
import { callChangedPayload, recordCallChange, type CallChange } from './call-changes.js';
import type { InboundPlan } from './call-flow.js';
import { callsRepository, type CallRow } from './calls.repository.js';

type InboundStore = { receipt: ReceiptRow; row: InboundPlan['row']; events: InboundPlan['events'] };
type InboundStored = { claimed: boolean; call?: CallRow; emitted?: Emitted };
const inboundStores = new WeakMap<AppContext, GroupCommit<InboundStore, InboundStored>>();
/**
 * The group commit of new inbound calls: up to 64 calls collected for at most 2 ms are stored by
 * one statement (callsRepository.insertManyWithEventsClaiming), up to 4 statements at once. A key repeated within a batch is claimed by its first delivery only; the
 * others answer as repeated deliveries do (the stored answer, no second call).
 */
function inboundStore(ctx: AppContext): GroupCommit<InboundStore, InboundStored> {
  let g = inboundStores.get(ctx);
  if (!g) {
    g = new GroupCommit<InboundStore, InboundStored>({
      maxWaitMs: 2,
      maxItems: 64,
      concurrency: 4,
      owner: ctx,
      run: async (items) => {
        const firstOf = new Map<string, number>();
        const unique: InboundStore[] = [];
        const slot = items.map((it) => {
          let at = firstOf.get(it.receipt.key);
          if (at === undefined) {
            firstOf.set(it.receipt.key, (at = unique.length));
            unique.push(it);
            return at;
          }
          return -1;
        });
        // The calls, their receipts and their `call.changed` events (the outbox) commit together.
        const stored = await ctx.db.transaction().execute(async (tx) => {
          const rows = await callsRepository.insertManyWithEventsClaiming(tx, unique, contactIdForNumberSql);
          const calls = rows.flatMap((r) => (r.call ? [r] : []));
          // Leased to this process: the webhook's after-commit step dispatches them (afterCallChange).
          const emitted = await domainEvents.emitMany(
            tx,
            calls.map((r) => ({ name: 'call.changed' as const, payload: callChangedPayload(r.call!, undefined) })),
            { leaseTo: ctx.queue.workerId },
          );
          // Each call gets its own event and how many deliveries it has (the dispatch knows when it is done).
          return rows.map((r) => {
            const k = calls.indexOf(r);
            return k < 0 ? r : { ...r, emitted: emittedAt(emitted, k) };
          });
        });
        return slot.map((at) => (at < 0 ? { claimed: false } : stored[at]!));
      },
    });
    inboundStores.set(ctx, g);
  }
  return g;
}

/**
 * Stores a planned inbound call together with the webhook delivery's receipt `receipt` in ONE
 * statement, shared with the other new calls of the same ~2 ms (group commit, `inboundStore`);
 * resolves once that statement has committed. undefined when the delivery was already claimed
 * (nothing written). A call whose SID is already stored keeps its row; the events are added to it
 * (as `routeInboundCall` does).
 */
export async function storeInboundCall(
  ctx: AppContext,
  plan: InboundPlan,
  receipt: ReceiptRow,
): Promise<{ call: CallRow; changed: CallChange; emitted?: Emitted } | undefined> {
  const r = await inboundStore(ctx).submit({ receipt, row: plan.row, events: plan.events });
  if (!r.claimed) return undefined;
  if (r.call) return { call: r.call, changed: { companyId: r.call.company_id, id: r.call.id, status: r.call.status }, emitted: r.emitted };
  return ctx.db.transaction().execute(async (tx) => {
    const contactId = plan.row.contact_id ?? (await findContactByNumber(ctx, plan.row.company_id, plan.row.from_number, tx))?.id ?? null;
    const call = await callsRepository.insert(tx, { ...plan.row, contact_id: contactId });
    for (const e of plan.events) await callsRepository.insertEvent(tx, call.id, e.status, e.detail);
    return recordCallChange(tx, { call, changed: { companyId: call.company_id, id: call.id, status: call.status } }, { leaseTo: ctx.queue.workerId });
  });
}
