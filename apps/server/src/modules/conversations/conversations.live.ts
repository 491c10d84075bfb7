/**
 * The inbox's live events (spec 001 §7 "Inbox"; docs/architecture.md "the live-event registry"):
 * `conversation updated` on `conversations.{companyId}` with the conversation (list-item shape) and
 * the changed item, or `{id, conversationId, deleted: true}`. Call after commit; nothing is read
 * while no one has the company's inbox open (`Realtime.mayHaveSubscribers`); failures are logged, not thrown.
 */
import { CONVERSATION_UPDATED, type Conversation } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { conversationsRepository, type ItemRow } from './conversations.repository.js';
import { toConversationItem, toConversations } from './conversations.queries.js';

/**
 * Publishes `conversation updated` on `conversations.{companyId}` with the conversation (list
 * item shape) and the changed item, if any; nothing (not even the reads) while no one can receive
 * it (`Realtime.mayHaveSubscribers`). Call after commit; failures are logged, not thrown.
 */
export async function publishConversationUpdated(ctx: AppContext, companyId: number, conversationId: number, item?: ItemRow | null): Promise<void> {
  if (!ctx.realtime.mayHaveSubscribers(`conversations.${companyId}`)) return; // nobody has this inbox open
  try {
    const row = await conversationsRepository.find(ctx.db, companyId, conversationId);
    if (!row) return;
    const [conversation] = await toConversations(ctx, companyId, [row]);
    ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { ...conversation!, item: item ? toConversationItem(item) : null });
  } catch (e) {
    ctx.log.error({ err: e, conversationId }, 'publishing conversation updated failed');
  }
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
    const [conversations, latest] = await Promise.all([toConversations(ctx, companyId, rows), conversationsRepository.latestItems(ctx.db, rows.map((r) => r.id))]);
    for (const c of conversations.reverse()) {
      const item = latest.get(c.id);
      ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { ...c, item: item ? toConversationItem(item) : null });
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
  ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { id: conversationId, conversationId, deleted: true });
}

/** Publishes `conversation updated` (item null) for many conversations, building them 100 at a time. */
export async function publishManyUpdated(ctx: AppContext, companyId: number, ids: number[]): Promise<Conversation[]> {
  const out: Conversation[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const rows = await conversationsRepository.findMany(ctx.db, companyId, ids.slice(i, i + 100));
    for (const c of await toConversations(ctx, companyId, rows)) {
      ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { ...c, item: null });
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
    if (l) l.push(i); else byCompany.set(i.company_id, [i]);
  }
  for (const [companyId, list] of byCompany) {
    if (!ctx.realtime.mayHaveSubscribers(`conversations.${companyId}`)) continue; // nobody has this inbox open
    try {
      const rows = await conversationsRepository.findMany(ctx.db, companyId, [...new Set(list.map((i) => i.conversation_id))]);
      const conversations = new Map((await toConversations(ctx, companyId, rows)).map((c) => [c.id, c]));
      for (const item of list) {
        const c = conversations.get(item.conversation_id);
        if (c) ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { ...c, item: toConversationItem(item) });
      }
    } catch (e) {
      ctx.log.error({ err: e, companyId }, 'publishing conversation updated failed');
    }
  }
}
