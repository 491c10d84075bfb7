/**
 * The inbox's live events (spec 001 §7 "Inbox"; docs/architecture.md "the live-event registry"):
 * `conversation updated` on `conversations.{companyId}` with the conversation (list-item shape) and
 * the changed item, or `{id, conversationId, deleted: true}`. Call after commit; nothing is read
 * while no one has the company's inbox open (`Realtime.mayHaveSubscribers`); failures are logged, not thrown.
 */
import { CONVERSATION_UPDATED, type Conversation } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { GroupCommit } from '../../platform/db/group-commit.js';
import { events } from '../../platform/events/index.js';
import { conversationsRepository, type ItemRow } from './conversations.repository.js';
import { findItem, toConversationItem, toConversations } from './conversations.queries.js';

type LiveUpdate = { companyId: number; conversationId: number; item: ItemRow | null };

const liveBatchers = new WeakMap<AppContext, GroupCommit<LiveUpdate, void>>();
/**
 * The context's batcher of single-conversation publishes. Under load many publishes are asked for
 * at once (each inbound text, status callback, read...); building each conversation alone costs
 * one read of the row and five of its list-item parts on the pool, competing with the webhooks'
 * transactions. Batched, the publishes asked during the same turn of the event loop (or while the
 * previous batch was building) share those reads: one round per company per batch. Adds no timer
 * delay (`maxWaitMs` 0); detached, since nothing waits on it inside a transaction.
 */
function liveBatcher(ctx: AppContext): GroupCommit<LiveUpdate, void> {
  let b = liveBatchers.get(ctx);
  if (!b) {
    b = new GroupCommit<LiveUpdate, void>({
      run: async (list) => {
        await publishUpdates(ctx, list);
        return list.map(() => undefined);
      },
      maxWaitMs: 0,
      maxItems: 200,
      concurrency: 1,
      owner: ctx,
      detached: true,
      isolateFailures: false,
    });
    liveBatchers.set(ctx, b);
  }
  return b;
}

/** Builds the conversations of a batch (one bulk read per company) and sends one event per update, in order. */
async function publishUpdates(ctx: AppContext, list: LiveUpdate[]): Promise<void> {
  const byCompany = new Map<number, LiveUpdate[]>();
  for (const u of list) {
    const l = byCompany.get(u.companyId);
    if (l) l.push(u);
    else byCompany.set(u.companyId, [u]);
  }
  for (const [companyId, updates] of byCompany) {
    try {
      const rows = await conversationsRepository.findMany(ctx.db, companyId, [...new Set(updates.map((u) => u.conversationId))]);
      const conversations = new Map((await toConversations(ctx, companyId, rows)).map((c) => [c.id, c]));
      const sent = new Set<number>();
      for (const u of updates) {
        const c = conversations.get(u.conversationId);
        if (!c) continue;
        // Without an item, the conversation as read now says it all: once per batch is enough.
        if (!u.item) {
          if (sent.has(c.id)) continue;
          sent.add(c.id);
        }
        ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { ...c, item: u.item ? toConversationItem(u.item) : null }, c.number.id);
      }
    } catch (e) {
      ctx.log.error({ err: e, companyId }, 'publishing conversation updated failed');
    }
  }
}

/**
 * Publishes `conversation updated` on `conversations.{companyId}` with the conversation (list
 * item shape, as read when the event is built) and the changed item, if any; nothing (not even the
 * reads) while no one can receive it (`Realtime.mayHaveSubscribers`). Publishes asked at the same
 * time are built together (see `liveBatcher`); resolves once this one was sent. Call after commit;
 * failures are logged, not thrown.
 */
export async function publishConversationUpdated(ctx: AppContext, companyId: number, conversationId: number, item?: ItemRow | null): Promise<void> {
  if (!ctx.realtime.mayHaveSubscribers(`conversations.${companyId}`)) return; // nobody has this inbox open
  try {
    await liveBatcher(ctx).submit({ companyId, conversationId, item: item ?? null });
  } catch (e) {
    ctx.log.error({ err: e, conversationId }, 'publishing conversation updated failed');
  }
}

/**
 * `conversation updated` for a received text and for a message's delivery change, as a consumer of the recorded
 * `message.received` and `message.status-changed` (`conversations.live`; one announcement per change): the
 * conversation with the item, read after commit; nothing while nobody has the company's inbox open. Called by the
 * module's setup.
 */
export function registerConversationLiveUpdates(): void {
  const publishItem = async (ctx: AppContext, e: { companyId: number; conversationId: number | null; itemId: number | null }) => {
    if (e.conversationId === null || e.itemId === null || !ctx.realtime.mayHaveSubscribers(`conversations.${e.companyId}`)) return;
    await publishConversationUpdated(ctx, e.companyId, e.conversationId, (await findItem(ctx, e.itemId)) ?? null);
  };
  events.consume('conversations.live', 'message.received', publishItem);
  events.consume('conversations.live', 'message.status-changed', publishItem);
}

/**
 * Publishes `conversation updated` for several conversations of a company with one bulk read (a
 * batch of campaign messages): the conversations as list items, each with its newest item;
 * nothing while no one can receive it. Call after commit; failures are logged, not thrown.
 */
export async function publishConversationsUpdated(ctx: AppContext, companyId: number, conversationIds: number[]): Promise<void> {
  if (conversationIds.length === 0 || !ctx.realtime.mayHaveSubscribers(`conversations.${companyId}`)) return;
  try {
    const rows = await conversationsRepository.findMany(ctx.db, companyId, [...new Set(conversationIds)]);
    const [conversations, latest] = await Promise.all([
      toConversations(ctx, companyId, rows),
      conversationsRepository.latestItems(
        ctx.db,
        rows.map((r) => r.id),
      ),
    ]);
    for (const c of conversations.reverse()) {
      const item = latest.get(c.id);
      ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { ...c, item: item ? toConversationItem(item) : null }, c.number.id);
    }
  } catch (e) {
    ctx.log.error({ err: e, companyId }, 'publishing conversations updated failed');
  }
}

/**
 * Publishes `conversation updated` for a deleted conversation: `{ id, conversationId, deleted: true }`
 * (the client drops it from its list). Call after commit.
 */
export function publishConversationDeleted(ctx: AppContext, companyId: number, conversationId: number): void {
  ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { id: conversationId, conversationId, deleted: true }, 'all');
}

/** Publishes `conversation updated` (item null) for many conversations, building them 100 at a time. */
export async function publishManyUpdated(ctx: AppContext, companyId: number, ids: number[]): Promise<Conversation[]> {
  const out: Conversation[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const rows = await conversationsRepository.findMany(ctx.db, companyId, ids.slice(i, i + 100));
    for (const c of await toConversations(ctx, companyId, rows)) {
      ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { ...c, item: null }, c.number.id);
      out.push(c);
    }
  }
  return out;
}

/**
 * Publishes `conversation updated` once per changed item (with that item), building each
 * company's conversations with one bulk read. Call after commit; failures are logged, not thrown.
 */
export async function publishItemsChanged(ctx: AppContext, items: ItemRow[]): Promise<void> {
  const byCompany = new Map<number, ItemRow[]>();
  for (const i of items) {
    const l = byCompany.get(i.company_id);
    if (l) l.push(i);
    else byCompany.set(i.company_id, [i]);
  }
  for (const [companyId, list] of byCompany) {
    if (!ctx.realtime.mayHaveSubscribers(`conversations.${companyId}`)) continue; // nobody has this inbox open
    try {
      const rows = await conversationsRepository.findMany(ctx.db, companyId, [...new Set(list.map((i) => i.conversation_id))]);
      const conversations = new Map((await toConversations(ctx, companyId, rows)).map((c) => [c.id, c]));
      for (const item of list) {
        const c = conversations.get(item.conversation_id);
        if (c) ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { ...c, item: toConversationItem(item) }, c.number.id);
      }
    } catch (e) {
      ctx.log.error({ err: e, companyId }, 'publishing conversation updated failed');
    }
  }
}
