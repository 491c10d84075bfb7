/**
 * Calls and voicemails (and later faxes) in the inbox thread (spec 001 §3 "Conversation item";
 * docs/messaging.md "Blocked callers"): one item per call in the (number, outside party)
 * conversation, kept in step with the call by the `call.changed` domain event (subscribed in the
 * module's setup, `registerConversationSubscribers`). `recordCallInThread` is the same command
 * for producers that are no call (fax, transcription, tracking).
 */
import { CALL_STATUS } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { GroupCommit } from '../../platform/db/group-commit.js';
import { DOMAIN_EVENTS, events, type CallChangedEvent } from '../../platform/events/index.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { conversationsRepository, type ItemRow } from './conversations.repository.js';
import { InboxCommandError } from './conversations.commands.js';
import { publishItemsChanged, registerConversationLiveUpdates } from './conversations.live.js';

/**
 * Time (ms) `call.changed` events wait to be written to the threads together. Short: the outbox runs a bounded number
 * of deliveries at once, each waiting for its batch (at 50 ms this consumer alone held every dispatch slot, 41 ms of
 * handler time per call in bench/call-routing); under load the concurrent deliveries fill a batch within it.
 */
export const CALL_ITEMS_FLUSH_MS = 5;
/** The most `call.changed` events written to the threads in one transaction. */
export const CALL_ITEMS_FLUSH_MAX = 100;

const callItemBatchers = new WeakMap<AppContext, GroupCommit<CallChangedEvent, void>>();
function callItemBatcher(ctx: AppContext): GroupCommit<CallChangedEvent, void> {
  let b = callItemBatchers.get(ctx);
  if (!b) {
    b = new GroupCommit<CallChangedEvent, void>({
      run: async (list) => {
        await applyCallChanges(ctx, list);
        return list.map(() => undefined);
      },
      maxWaitMs: CALL_ITEMS_FLUSH_MS,
      maxItems: CALL_ITEMS_FLUSH_MAX,
      concurrency: 1,
      owner: ctx,
      reaction: true,
    });
    callItemBatchers.set(ctx, b);
  }
  return b;
}

/**
 * Subscriber of `call.changed`: keeps one thread item per call (type `call`, or `voicemail` once
 * a voicemail exists) in the (number, outside party) conversation, in time order (created at the
 * call's start). First sight: starts/bumps the conversation and inserts the item (inbound calls
 * unread unless connected). Later events update status, length and voicemail; becoming a
 * voicemail marks it unread again. Idempotent (unique call_id); publishes after commit.
 *
 * Takes a round's events together (`consumeBatch`). Coalesced (docs/architecture.md "The voice webhook's hot path";
 * bench/call-routing): the events are queued in-process and written with the others of the next ~`CALL_ITEMS_FLUSH_MS` ms (at most `CALL_ITEMS_FLUSH_MAX`) in one transaction
 * (`applyCallChanges`); batches run one at a time, in arrival order. Resolves once its batch has
 * committed and published; rejects with the error of its own event (a failed batch is retried
 * event by event). A server's `close()` flushes what is queued (platform/db/group-commit.ts).
 */
export async function applyCallsChanged(ctx: AppContext, items: ReadonlyArray<{ payload: CallChangedEvent }>): Promise<void> {
  // A past call recorded after the fact (`history`) opens no thread and counts as no unread item.
  const batcher = callItemBatcher(ctx);
  await Promise.all(items.filter((i) => !i.payload.history).map((i) => batcher.submit(i.payload)));
}

type CallItemState = { type: string; is_read: boolean; voicemail_id: number | null; call_status: number | null; duration_s: number | null };

/** Applies one later event of a call to its item's state (the rules of a `call.changed` update). @returns whether it changed. */
function applyCallEvent(item: CallItemState, e: CallChangedEvent): boolean {
  let changed = false;
  if (item.call_status !== e.status) {
    item.call_status = e.status;
    changed = true;
  }
  if (e.durationS !== undefined && e.durationS !== null && item.duration_s !== e.durationS) {
    item.duration_s = e.durationS;
    changed = true;
  }
  if (e.voicemailId && item.voicemail_id !== e.voicemailId) {
    item.voicemail_id = e.voicemailId;
    item.type = 'voicemail';
    item.is_read = false;
    changed = true;
  }
  return changed;
}

/**
 * Writes a batch of `call.changed` events (in order) to the threads in ONE transaction of batch
 * statements, then publishes `conversation updated` per changed item: lock the calls' existing
 * items; for calls seen first, upsert their conversations by (number, recipient) and insert
 * their items with the state every event of the batch leads to; update the other items to
 * their latest state. The events of one call apply in order, so the latest wins; the result is
 * the same as applying them one by one, except that an item changed back within the batch is not
 * written or published.
 */
export async function applyCallChanges(ctx: AppContext, list: CallChangedEvent[]): Promise<void> {
  if (list.length === 0) return;
  const byCall = new Map<number, CallChangedEvent[]>();
  for (const e of list) {
    const l = byCall.get(e.callId);
    if (l) l.push(e);
    else byCall.set(e.callId, [e]);
  }
  const changed = await ctx.db.transaction().execute(async (tx) => {
    const out: ItemRow[] = [];
    const existing = new Map((await conversationsRepository.findItemsByCalls(tx, [...byCall.keys()], true)).map((i) => [i.call_id!, i]));
    // A blocked caller's rejected call stays in the call log (Activity, status 13 Blocked) and
    // never starts or bumps a conversation nor counts as unread (docs/messaging.md "Blocked callers").
    const fresh = [...byCall].filter(([callId, events]) => !existing.has(callId) && !events.every((e) => e.status === CALL_STATUS.BLOCKED));
    let raced: number[] = [];
    if (fresh.length > 0) {
      // Conversations of the calls seen first, one upsert; the contact the calls module matched, else a lookup.
      const parties = new Map<string, { company_id: number; number_id: number; recipient: string; contact_id: number | null }>();
      for (const [, [first]] of fresh) {
        const k = `${first!.numberId} ${first!.from}`;
        let contactId = first!.contactId;
        if (contactId === undefined) contactId = parties.get(k)?.contact_id ?? (await findContactByNumber(ctx, first!.companyId, first!.from, tx))?.id ?? null;
        const had = parties.get(k);
        if (!had || had.contact_id === null)
          parties.set(k, { company_id: first!.companyId, number_id: first!.numberId, recipient: first!.from, contact_id: contactId });
      }
      const conversations = await conversationsRepository.upsertActiveMany(tx, [...parties.values()]);
      const convOf = new Map(conversations.map((c) => [`${c.number_id} ${c.recipient}`, c]));
      const rows = fresh.map(([callId, events]) => {
        const [first, ...rest] = events as [CallChangedEvent, ...CallChangedEvent[]];
        const inbound = (first.direction ?? 'inbound') === 'inbound';
        const state: CallItemState = {
          type: first.voicemailId ? 'voicemail' : 'call',
          is_read: !inbound || first.status === CALL_STATUS.CONNECTED,
          voicemail_id: first.voicemailId ?? null,
          call_status: first.status,
          duration_s: first.durationS ?? null,
        };
        for (const e of rest) applyCallEvent(state, e);
        return {
          ...state,
          call_status: state.call_status!,
          company_id: first.companyId,
          conversation_id: convOf.get(`${first.numberId} ${first.from}`)!.id,
          is_inbound: inbound,
          call_id: callId,
          created_at: first.startedAt ? new Date(first.startedAt) : null,
        };
      });
      const inserted = await conversationsRepository.insertCallItemsMany(tx, rows);
      const insertedIds = new Set(inserted.map((i) => i.call_id));
      out.push(...inserted);
      // Items another transaction inserted meanwhile take every event as an update.
      raced = fresh.map(([callId]) => callId).filter((id) => !insertedIds.has(id));
      for (const i of await conversationsRepository.findItemsByCalls(tx, raced, true)) existing.set(i.call_id!, i);
    }
    const updates: Array<CallItemState & { id: number }> = [];
    for (const [callId, item] of existing) {
      const events = byCall.get(callId)!;
      const state: CallItemState = {
        type: item.type,
        is_read: item.is_read,
        voicemail_id: item.voicemail_id,
        call_status: item.call_status,
        duration_s: item.duration_s,
      };
      for (const e of events) applyCallEvent(state, e);
      if (
        state.type !== item.type ||
        state.is_read !== item.is_read ||
        state.voicemail_id !== item.voicemail_id ||
        state.call_status !== item.call_status ||
        state.duration_s !== item.duration_s
      ) {
        updates.push({ id: item.id, ...state });
      }
    }
    out.push(...(await conversationsRepository.updateCallItemsMany(tx, updates)));
    return out;
  });
  await publishItemsChanged(ctx, changed);
}

/** Subscribes the inbox to the domain events it reacts to (idempotent; called at module registration). */
export function registerConversationSubscribers(): void {
  events.consumeBatch('conversations.call-items', 'call.changed', applyCallsChanged);
  registerConversationLiveUpdates();
}

/**
 * Records a call, voicemail (and later a fax) in its (number, outside party) thread: the command
 * behind the `call.changed` subscriber, for producers that are no call (fax, transcription,
 * tracking). Same rules and batching as {@link applyCallsChanged}; resolves once written and published.
 * @throws InboxCommandError when the entry does not match the `call.changed` payload schema.
 */
export async function recordCallInThread(ctx: AppContext, entry: CallChangedEvent): Promise<void> {
  const checked = DOMAIN_EVENTS['call.changed'].safeParse(entry);
  if (!checked.success) throw new InboxCommandError('recordCallInThread', checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  await callItemBatcher(ctx).submit(entry);
}
