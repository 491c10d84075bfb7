/**
 * The shared inbox (spec 001 §3 "Conversation", "Conversation item"; §4 "Conversations"; §7 "Inbox").
 *
 * A conversation is one (business number, outside party) pair; its items are messages, calls,
 * voicemails, faxes and notes. This service owns the read model the web client shows
 * (`Conversation`, `ConversationItem` from @switchboard/contracts), the inbox use cases
 * (list, read/unread, archive/restore) and the write helpers other modules call inside their
 * own transactions (`startConversation`, `addConversationItem`, `advanceDeliveryState`).
 * Live `conversation updated` events go out after commit through `publishConversationUpdated`.
 */
import {
  isRealTimestampText,
  CONVERSATION_UPDATED, COUNTED_ITEM_TYPES, carrierErrorText,
  type BulkUpdateBody, type CompanyItemsQuery, type Conversation, type ConversationItem, type ConversationListQuery,
} from '@switchboard/contracts';
import { CALL_STATUS, CONVERSATION_SEARCH_WINDOW_YEARS, callStatusLabel, looksLikePhone, stripPhoneSearch } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, RowUpdate } from '../../platform/db/schema.js';
import { events, type CallChangedEvent } from '../../platform/events/index.js';
import { GroupCommit } from '../../platform/db/group-commit.js';
import { ForbiddenError, NotFoundError, ValidationError, fieldError } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { findContactByNumber, findContactIdsByName, getContactsByIds } from '../contacts/contacts.service.js';
import { getCompanyNumber, getCompanyNumbers } from '../numbers/numbers.service.js';
import { isPartyBlocked } from '../calls/calls.service.js';
import { containsPattern, conversationsRepository, type ConversationRow, type ItemRow, type Keyset } from './conversations.repository.js';

export type { ConversationRow, ItemRow };

// ---------------------------------------------------------------------------------------------
// Cursors
// ---------------------------------------------------------------------------------------------

/** Opaque cursor: base64url of `[timestamp text, id]`. */
export function encodeCursor(k: Keyset): string {
  return Buffer.from(JSON.stringify([k.ts, k.id])).toString('base64url');
}
/** @throws ValidationError (422 on `cursor`) when the cursor was not made by encodeCursor. */
export function decodeCursor(cursor: string | undefined): Keyset | undefined {
  if (!cursor) return undefined;
  try {
    const [ts, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    // A real date (not only its shape): PostgreSQL refuses e.g. month 13 or 25 o'clock.
    if (typeof ts === 'string' && /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d/.test(ts) && isRealTimestampText(ts) && Number.isSafeInteger(id)) return { ts, id: id as number };
  } catch { /* fall through */ }
  throw new ValidationError({ cursor: ['The cursor is invalid.'] });
}

// ---------------------------------------------------------------------------------------------
// Read model
// ---------------------------------------------------------------------------------------------

/** Delivery-state order; a state never moves to a lower rank (late 'sent' after 'delivered'). */
const DELIVERY_RANK: Record<string, number> = { sending: 0, queued: 1, sent: 2, delivered: 3, undelivered: 3, failed: 3, received: 3 };
export function deliveryRank(state: string | null): number {
  return state === null ? -1 : (DELIVERY_RANK[state] ?? 0);
}

/** A stored item as the client sees it (spec 001 §3 "Conversation item"). */
export function toConversationItem(row: ItemRow): ConversationItem {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    isInbound: row.is_inbound,
    isRead: row.is_read,
    createdAt: row.created_at.toISOString(),
    details: {
      type: row.type,
      content: row.body,
      deliveryState: row.delivery_state,
      errorCode: row.error_code,
      errorText: carrierErrorText(row.error_code),
      media: row.media ?? [],
      callId: row.call_id,
      voicemailId: row.voicemail_id,
      callStatus: row.call_status,
      callStatusLabel: row.call_status === null ? null : callStatusLabel(row.call_status),
      durationS: row.duration_s,
      shouldBeSentAt: row.should_be_sent_at ? row.should_be_sent_at.toISOString() : null,
      userId: row.user_id,
    },
  };
}

/** Business numbers by id for one company, in one statement (released numbers show their id with an empty number). */
async function numbersById(ctx: AppContext, companyId: number, ids: number[]): Promise<Map<number, { id: number; number: string }>> {
  const found = new Map((await getCompanyNumbers(ctx, companyId, ids)).map((n) => [n.id, { id: n.id, number: n.number }]));
  return new Map(ids.map((id) => [id, found.get(id) ?? { id, number: '' }]));
}

/**
 * Builds the client's `Conversation` objects for rows of one company: number, contact, latest
 * item and unread count, in a fixed number of queries per page.
 */
export async function toConversations(ctx: AppContext, companyId: number, rows: ConversationRow[]): Promise<Conversation[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [latest, unread, contacts, numbers, blocked] = await Promise.all([
    conversationsRepository.latestItems(ctx.db, ids),
    conversationsRepository.unreadCounts(ctx.db, ids),
    getContactsByIds(ctx, companyId, rows.map((r) => r.contact_id).filter((x): x is number => x !== null)),
    numbersById(ctx, companyId, rows.map((r) => r.number_id)),
    Promise.all(rows.map((r) => isPartyBlocked(ctx, companyId, r.number_id, r.recipient))),
  ]);
  return rows.map((r, i) => {
    const li = latest.get(r.id);
    const contact = r.contact_id !== null ? contacts.get(r.contact_id) : undefined;
    return {
      id: r.id,
      conversationId: r.id,
      lastActivityAt: r.last_activity_at.toISOString(),
      recipient: r.recipient,
      number: numbers.get(r.number_id) ?? { id: r.number_id, number: '' },
      contact: contact ? { id: contact.id, name: contact.name, subscribed: !contact.is_unsubscribed } : null,
      latestItem: li
        ? { type: li.type, details: { content: li.body, deliveryState: li.delivery_state, errorCode: li.error_code, media: li.media ?? [], isInbound: li.is_inbound, createdAt: li.created_at.toISOString() } }
        : null,
      numUnreadItems: unread.get(r.id) ?? 0,
      isArchived: r.is_archived,
      // The outside party is blocked (calls module's blocks, globally or on this number).
      isBlocked: blocked[i] ?? false,
      enhancedCallerId: null,
    };
  });
}

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

// ---------------------------------------------------------------------------------------------
// Write helpers for other modules (run inside the caller's transaction)
// ---------------------------------------------------------------------------------------------

/**
 * Finds or creates the conversation between a business number and an outside party (E.164),
 * matches the company's contact by number, bumps `last_activity_at` and un-archives it.
 * Callers: inbound/outbound messages; the calls module may use it for call items.
 */
export async function startConversation(ctx: AppContext, tx: DbOrTx, input: { companyId: number; numberId: number; recipient: string }): Promise<ConversationRow> {
  const contact = await findContactByNumber(ctx, input.companyId, input.recipient, tx);
  return conversationsRepository.upsertActive(tx, { company_id: input.companyId, number_id: input.numberId, recipient: input.recipient, contact_id: contact?.id ?? null });
}

/** Inserts an item into a conversation (the caller started/bumped the conversation). */
export async function addConversationItem(ctx: AppContext, tx: DbOrTx, row: NewRow<'conversation_items'>): Promise<ItemRow> {
  return conversationsRepository.insertItem(tx, { ...row, media: JSON.stringify(row.media ?? []) });
}

/**
 * Batch form of `startConversation` for one company and business number (campaign dispatch): one
 * statement finds or creates the conversation of every recipient (E.164), bumping and un-archiving
 * them. `contactId` is the caller's known contact for that recipient (an empty contact_id is filled
 * with it; an existing link is kept). Duplicate recipients are upserted once.
 * @returns recipient → conversation row.
 */
export async function startConversationsBatch(ctx: AppContext, tx: DbOrTx, input: { companyId: number; numberId: number; recipients: Array<{ recipient: string; contactId: number | null }> }): Promise<Map<string, ConversationRow>> {
  const unique = new Map<string, number | null>();
  for (const r of input.recipients) if (!unique.has(r.recipient) || unique.get(r.recipient) === null) unique.set(r.recipient, r.contactId);
  const rows = await conversationsRepository.upsertActiveMany(tx, [...unique].map(([recipient, contactId]) => ({
    company_id: input.companyId, number_id: input.numberId, recipient, contact_id: contactId,
  })));
  return new Map(rows.map((r) => [r.recipient, r]));
}

/** One item of `addConversationItemsBatch` (message items; `media` as a list, stored as JSON). */
export type BatchItemInput = {
  company_id: number; conversation_id: number; type: string; is_inbound: boolean; is_read: boolean; body: string | null;
  media?: Array<{ url: string; contentType: string }>; delivery_state: string | null; error_code?: number | null; carrier_sid?: string | null; user_id?: number | null;
};

/**
 * Batch form of `addConversationItem`: inserts every row in one statement (the caller started or
 * bumped the conversations, e.g. with `startConversationsBatch`).
 * @returns `{id, carrier_sid}` per row, in input order.
 */
export async function addConversationItemsBatch(ctx: AppContext, tx: DbOrTx, rows: BatchItemInput[]): Promise<Array<{ id: number; carrier_sid: string | null }>> {
  return conversationsRepository.insertItemsMany(tx, rows.map((r) => ({
    company_id: r.company_id, conversation_id: r.conversation_id, type: r.type, is_inbound: r.is_inbound, is_read: r.is_read, body: r.body,
    media: JSON.stringify(r.media ?? []), delivery_state: r.delivery_state, error_code: r.error_code ?? null, carrier_sid: r.carrier_sid ?? null, user_id: r.user_id ?? null,
  })));
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

/** An item by id (no company scope: for jobs), optionally locked for update. */
export async function getItemById(ctx: AppContext, itemId: number, tx: DbOrTx = ctx.db, lock = false): Promise<ItemRow | undefined> {
  return conversationsRepository.findItemById(tx, itemId, lock);
}
/** An item by carrier message SID, optionally locked for update. */
export async function getItemByCarrierSid(ctx: AppContext, sid: string, tx: DbOrTx = ctx.db, lock = false): Promise<ItemRow | undefined> {
  return conversationsRepository.findItemBySid(tx, sid, lock);
}
/** A conversation by id without company scope (jobs). */
export async function getConversationRow(ctx: AppContext, conversationId: number, tx: DbOrTx = ctx.db): Promise<ConversationRow | undefined> {
  return conversationsRepository.findByIdUnscoped(tx, conversationId);
}
/** A company's conversation row. @throws NotFoundError when it is not the company's. */
export async function getCompanyConversationRow(ctx: AppContext, companyId: number, conversationId: number, tx: DbOrTx = ctx.db): Promise<ConversationRow> {
  const row = await conversationsRepository.find(tx, companyId, conversationId);
  if (!row) throw new NotFoundError('Conversation');
  return row;
}

/**
 * Moves an item's delivery state forward (never backwards: a late 'sent' never replaces
 * 'delivered'), optionally recording the carrier SID and error code. Run with the item locked.
 * @returns the updated row, or null when nothing changed.
 */
export async function advanceDeliveryState(ctx: AppContext, tx: DbOrTx, item: ItemRow, update: { state?: string; carrierSid?: string; errorCode?: number | null }): Promise<ItemRow | null> {
  const patch: { delivery_state?: string; carrier_sid?: string; error_code?: number | null } = {};
  if (update.carrierSid && !item.carrier_sid) patch.carrier_sid = update.carrierSid;
  if (update.state && update.state !== item.delivery_state && deliveryRank(update.state) > deliveryRank(item.delivery_state)) {
    patch.delivery_state = update.state;
    if (update.errorCode !== undefined) patch.error_code = update.errorCode;
  } else if (update.errorCode && item.error_code === null && (item.delivery_state === 'undelivered' || item.delivery_state === 'failed')) {
    patch.error_code = update.errorCode;
  }
  if (Object.keys(patch).length === 0) return null;
  return (await conversationsRepository.updateItem(tx, item.id, patch)) ?? null;
}

/** Replaces an item's media list (media copied into our blob store). */
export async function setItemMedia(ctx: AppContext, itemId: number, media: { url: string; contentType: string }[]): Promise<ItemRow | undefined> {
  return conversationsRepository.updateItem(ctx.db, itemId, { media: JSON.stringify(media) });
}

/** Patches an item (inside the caller's transaction). @returns the updated row. */
export async function updateItemRow(ctx: AppContext, tx: DbOrTx, itemId: number, patch: RowUpdate<'conversation_items'>): Promise<ItemRow | undefined> {
  return conversationsRepository.updateItem(tx, itemId, patch);
}
/** Deletes an item by id (inside the caller's transaction; the caller checked the company). */
export async function deleteItemRow(ctx: AppContext, tx: DbOrTx, itemId: number): Promise<void> {
  await conversationsRepository.deleteItemById(tx, itemId);
}
/** Bumps a conversation's last activity to now and un-archives it. */
export async function bumpConversation(ctx: AppContext, tx: DbOrTx, conversation: ConversationRow): Promise<void> {
  await conversationsRepository.upsertActive(tx, { company_id: conversation.company_id, number_id: conversation.number_id, recipient: conversation.recipient, contact_id: conversation.contact_id });
}

/** Links a conversation to a contact when it has none yet. */
export async function linkConversationContact(ctx: AppContext, tx: DbOrTx, conversationId: number, contactId: number): Promise<void> {
  await conversationsRepository.setContact(tx, conversationId, contactId);
}

// ---------------------------------------------------------------------------------------------
// Inbox use cases (HTTP)
// ---------------------------------------------------------------------------------------------

/**
 * `GET /companies/{companyId}/conversations`: newest activity first, keyset-paged.
 * Search: a phone-like text (domain `looksLikePhone`) is stripped of spaces, dashes and
 * parentheses and matches the recipient's digits; any other text matches the contact name or a
 * message body. A search only looks at the last 2 years (spec 001 §5).
 * @throws ForbiddenError (403) without access to the company.
 */
export async function listConversations(ctx: AppContext, userId: number, companyId: number, q: ConversationListQuery): Promise<{ data: Conversation[]; meta: { next_cursor: string | null; per_page: number } }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const after = decodeCursor(q.cursor);
  const search = q.search?.trim() ?? '';
  let recipientDigits: string | undefined;
  let text: { contactIds: number[]; pattern: string } | undefined;
  let since: Date | undefined;
  if (search) {
    since = new Date();
    since.setFullYear(since.getFullYear() - CONVERSATION_SEARCH_WINDOW_YEARS);
    if (looksLikePhone(search)) recipientDigits = stripPhoneSearch(search).replace(/^\+/, '');
    else text = { contactIds: await findContactIdsByName(ctx, companyId, search), pattern: containsPattern(search) };
  }
  const rows = await conversationsRepository.list(ctx.db, {
    companyId, isArchived: q.isArchived, limit: q.perPage + 1, after,
    numberIds: q.numberIds, types: q.types, updatedAfter: q.updatedAfter, recipientDigits, text, since,
  });
  const page = rows.slice(0, q.perPage);
  const last = page[page.length - 1];
  const next = rows.length > q.perPage && last ? encodeCursor({ ts: last.cursor_ts, id: last.id }) : null;
  return { data: await toConversations(ctx, companyId, page), meta: { next_cursor: next, per_page: q.perPage } };
}

/** `GET /companies/{companyId}/conversations/{cid}`. @throws 403 / NotFoundError (404, another company's id). */
export async function getConversation(ctx: AppContext, userId: number, companyId: number, conversationId: number): Promise<Conversation> {
  await assertCompanyAccess(ctx, userId, companyId);
  const row = await getCompanyConversationRow(ctx, companyId, conversationId);
  return (await toConversations(ctx, companyId, [row]))[0]!;
}

/** `GET .../conversations/{cid}/items`: newest first, keyset-paged. */
export async function listConversationItems(ctx: AppContext, userId: number, companyId: number, conversationId: number, q: { perPage: number; cursor?: string }): Promise<{ data: ConversationItem[]; meta: { next_cursor: string | null; per_page: number } }> {
  await assertCompanyAccess(ctx, userId, companyId);
  await getCompanyConversationRow(ctx, companyId, conversationId);
  const rows = await conversationsRepository.listItems(ctx.db, conversationId, q.perPage + 1, decodeCursor(q.cursor));
  const page = rows.slice(0, q.perPage);
  const last = page[page.length - 1];
  return {
    data: page.map(toConversationItem),
    meta: { next_cursor: rows.length > q.perPage && last ? encodeCursor({ ts: last.cursor_ts, id: last.id }) : null, per_page: q.perPage },
  };
}

/** `PUT .../conversations/{cid}/read-all`: every item read; publishes. @returns the conversation. */
export async function markConversationRead(ctx: AppContext, userId: number, companyId: number, conversationId: number): Promise<Conversation> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  await getCompanyConversationRow(ctx, companyId, conversationId);
  const changed = await conversationsRepository.markAllRead(ctx.db, companyId, conversationId);
  if (changed > 0) await publishConversationUpdated(ctx, companyId, conversationId);
  return getConversation(ctx, userId, companyId, conversationId);
}

/** `PUT .../items/{iid}/read` and `/unread`; publishes. @returns the item. @throws NotFoundError (404). */
export async function setItemRead(ctx: AppContext, userId: number, companyId: number, conversationId: number, itemId: number, read: boolean): Promise<ConversationItem> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const item = await conversationsRepository.findItem(ctx.db, companyId, conversationId, itemId);
  if (!item) throw new NotFoundError('Conversation item');
  if (item.is_read === read) return toConversationItem(item);
  const updated = (await conversationsRepository.updateItem(ctx.db, item.id, { is_read: read }))!;
  await publishConversationUpdated(ctx, companyId, conversationId, updated);
  return toConversationItem(updated);
}

/**
 * `PUT /inbox/conversations/{id}/archive` and `/restore` (no company in the path): the
 * conversation's company must be one of the caller's, else 404 (its existence is not revealed).
 */
export async function setConversationArchived(ctx: AppContext, userId: number, conversationId: number, archived: boolean): Promise<Conversation> {
  const row = await conversationsRepository.findByIdUnscoped(ctx.db, conversationId);
  if (!row) throw new NotFoundError('Conversation');
  try {
    await assertCompanyAccess(ctx, userId, row.company_id);
  } catch (e) {
    if (e instanceof ForbiddenError) throw new NotFoundError('Conversation');
    throw e;
  }
  await assertCompanyAccess(ctx, userId, row.company_id, AGENT_ROLES);
  if (row.is_archived !== archived) {
    await conversationsRepository.setArchived(ctx.db, row.company_id, row.id, archived);
    await publishConversationUpdated(ctx, row.company_id, row.id);
  }
  return getConversation(ctx, userId, row.company_id, row.id);
}

/** Activity feed source: the company's newest `limit` message items and the total count. */
export async function listMessageActivity(ctx: AppContext, companyId: number, limit: number) {
  const [rows, total] = await Promise.all([
    conversationsRepository.recentMessages(ctx.db, companyId, limit),
    conversationsRepository.countMessages(ctx.db, companyId),
  ]);
  return { rows, total };
}

/**
 * Publishes `conversation updated` for a deleted conversation: `{ id, conversationId, deleted: true }`
 * (the client drops it from its list). Call after commit.
 */
export function publishConversationDeleted(ctx: AppContext, companyId: number, conversationId: number): void {
  ctx.realtime.send(`conversations.${companyId}`, CONVERSATION_UPDATED, { id: conversationId, conversationId, deleted: true });
}

// ---------------------------------------------------------------------------------------------
// Issue 4: bulk update, read by type, items, notes
// ---------------------------------------------------------------------------------------------

/** Publishes `conversation updated` (item null) for many conversations, building them 100 at a time. */
async function publishManyUpdated(ctx: AppContext, companyId: number, ids: number[]): Promise<Conversation[]> {
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
 * `PUT /companies/{companyId}/conversations/bulk-update` {ids, type}: read (every item read),
 * unread (the newest item unread), archive, restore or delete, all or nothing.
 * Publishes `conversation updated` per conversation (deleted ones with `deleted: true`).
 * @returns `{ data: conversations after the change (none for delete), ids }`.
 * @throws 403 without an agent role; NotFoundError (404) when any id is not the company's.
 */
export async function bulkUpdateConversations(ctx: AppContext, userId: number, companyId: number, body: BulkUpdateBody): Promise<{ data: Conversation[]; ids: number[] }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const ids = [...new Set(body.ids)];
  const rows = await ctx.db.transaction().execute(async (tx) => {
    const found = await conversationsRepository.findMany(tx, companyId, ids);
    if (found.length !== ids.length) throw new NotFoundError('Conversation');
    switch (body.type) {
      case 'read': await conversationsRepository.markReadMany(tx, companyId, ids); break;
      case 'unread': await conversationsRepository.markLatestUnreadMany(tx, companyId, ids); break;
      case 'archive': await conversationsRepository.setArchivedMany(tx, companyId, ids, true); break;
      case 'restore': await conversationsRepository.setArchivedMany(tx, companyId, ids, false); break;
      case 'delete': await conversationsRepository.deleteMany(tx, companyId, ids); break;
    }
    return found;
  });
  if (body.type === 'delete') {
    for (const id of ids) publishConversationDeleted(ctx, companyId, id);
    return { data: [], ids };
  }
  const data = await publishManyUpdated(ctx, companyId, rows.map((r) => r.id));
  return { data, ids };
}

/**
 * `PUT /companies/{companyId}/conversations/read-all-by-type` {type, numbers?}: every unread item of
 * `type` on the given number ids (default: all of the company's numbers) becomes read.
 * @throws 403; ValidationError (422 on `numbers`) when a number id is not one of the company's.
 */
export async function markReadByType(ctx: AppContext, userId: number, companyId: number, body: { type: string; numbers?: number[] }): Promise<{ updated: number; conversationIds: number[] }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  if (body.numbers) {
    for (const id of new Set(body.numbers)) {
      try { await getCompanyNumber(ctx, companyId, id); } catch (e) {
        if (e instanceof NotFoundError) throw fieldError('numbers', 'The selected numbers is invalid.');
        throw e;
      }
    }
  }
  const r = await conversationsRepository.markReadByType(ctx.db, companyId, body.type, body.numbers);
  await publishManyUpdated(ctx, companyId, r.conversationIds);
  return r;
}

/** `GET .../conversations/{cid}/items/{iid}`. @throws 403 / NotFoundError (404). */
export async function getConversationItem(ctx: AppContext, userId: number, companyId: number, conversationId: number, itemId: number): Promise<ConversationItem> {
  await assertCompanyAccess(ctx, userId, companyId);
  const item = await conversationsRepository.findItem(ctx.db, companyId, conversationId, itemId);
  if (!item) throw new NotFoundError('Conversation item');
  return toConversationItem(item);
}

/** `DELETE .../conversations/{cid}/items/{iid}`; publishes. @throws 403 / NotFoundError (404). */
export async function deleteConversationItem(ctx: AppContext, userId: number, companyId: number, conversationId: number, itemId: number): Promise<void> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  if (!(await conversationsRepository.deleteItem(ctx.db, companyId, conversationId, itemId))) throw new NotFoundError('Conversation item');
  await publishConversationUpdated(ctx, companyId, conversationId);
}

/**
 * `DELETE .../conversations/{cid}/messages`: deletes the thread's messages (sent, received and
 * scheduled); calls, voicemails and notes stay. Publishes. @returns how many were deleted.
 */
export async function deleteConversationMessages(ctx: AppContext, userId: number, companyId: number, conversationId: number): Promise<{ deleted: number }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  await getCompanyConversationRow(ctx, companyId, conversationId);
  const deleted = await conversationsRepository.deleteItemsOfTypes(ctx.db, companyId, conversationId, ['message', 'scheduledmessage']);
  await publishConversationUpdated(ctx, companyId, conversationId);
  return { deleted };
}

/** `GET /inbox/conversations/items` {company_id, types[], cursor, perPage}: newest first, keyset-paged. @throws 403; 422 on a bad cursor. */
export async function listCompanyItems(ctx: AppContext, userId: number, q: CompanyItemsQuery): Promise<{ data: ConversationItem[]; meta: { next_cursor: string | null; per_page: number } }> {
  await assertCompanyAccess(ctx, userId, q.company_id);
  const rows = await conversationsRepository.listCompanyItems(ctx.db, q.company_id, q.perPage + 1, q.types, decodeCursor(q.cursor));
  const page = rows.slice(0, q.perPage);
  const last = page[page.length - 1];
  return {
    data: page.map(toConversationItem),
    meta: { next_cursor: rows.length > q.perPage && last ? encodeCursor({ ts: last.cursor_ts, id: last.id }) : null, per_page: q.perPage },
  };
}

/**
 * `POST /companies/{companyId}/conversations/{cid}/notes` {body}: a note (item type `note`, read,
 * by the caller) in the thread; bumps the conversation. Publishes.
 * @throws 403; 404; ValidationError (422 on `body`) when empty.
 */
export async function addConversationNote(ctx: AppContext, userId: number, companyId: number, conversationId: number, body: string): Promise<ConversationItem> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const text = body.trim();
  if (!text) throw fieldError('body', 'The body field is required.');
  const item = await ctx.db.transaction().execute(async (tx) => {
    const conversation = await getCompanyConversationRow(ctx, companyId, conversationId, tx);
    await bumpConversation(ctx, tx, conversation);
    return addConversationItem(ctx, tx, { company_id: companyId, conversation_id: conversationId, type: 'note', is_inbound: false, is_read: true, body: text, media: [], user_id: userId });
  });
  await publishConversationUpdated(ctx, companyId, conversationId, item);
  return toConversationItem(item);
}

/** The conversation holding the thread item of call `callId`, or null (a blocked caller's call has none). */
export async function conversationIdOfCall(ctx: AppContext, callId: number): Promise<number | null> {
  return (await conversationsRepository.findItemByCall(ctx.db, callId))?.conversation_id ?? null;
}

/** Unread item counts of the company per business number and type (message, call, voicemail, fax). For notifications. */
export async function unreadCountsByNumber(ctx: AppContext, companyId: number): Promise<Array<{ number_id: number; type: string; n: number }>> {
  return conversationsRepository.unreadCountsByNumber(ctx.db, companyId, COUNTED_ITEM_TYPES);
}

// ---------------------------------------------------------------------------------------------
// Calls and voicemails in the thread (domain event `call.changed`)
// ---------------------------------------------------------------------------------------------

/** Time (ms) `call.changed` events wait to be written to the threads together, and the most written at once. */
export const CALL_ITEMS_FLUSH_MS = 50;
export const CALL_ITEMS_FLUSH_MAX = 100;

const callItemBatchers = new WeakMap<AppContext, GroupCommit<CallChangedEvent, void>>();
function callItemBatcher(ctx: AppContext): GroupCommit<CallChangedEvent, void> {
  let b = callItemBatchers.get(ctx);
  if (!b) {
    b = new GroupCommit<CallChangedEvent, void>({
      run: async (list) => { await applyCallChanges(ctx, list); return list.map(() => undefined); },
      maxWaitMs: CALL_ITEMS_FLUSH_MS, maxItems: CALL_ITEMS_FLUSH_MAX, concurrency: 1, owner: ctx,
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
 * Coalesced (issue 3 bench): the event is queued in-process and written with the others of the
 * next ~`CALL_ITEMS_FLUSH_MS` ms (at most `CALL_ITEMS_FLUSH_MAX`) in one transaction
 * (`applyCallChanges`); batches run one at a time, in arrival order. Resolves once its batch has
 * committed and published; rejects with the error of its own event (a failed batch is retried
 * event by event). A server's `close()` flushes what is queued (platform/db/group-commit.ts).
 */
export async function applyCallChanged(ctx: AppContext, e: CallChangedEvent): Promise<void> {
  await callItemBatcher(ctx).submit(e);
}

type CallItemState = { type: string; is_read: boolean; voicemail_id: number | null; call_status: number | null; duration_s: number | null };

/** Applies one later event of a call to its item's state (the rules of a `call.changed` update). @returns whether it changed. */
function applyCallEvent(item: CallItemState, e: CallChangedEvent): boolean {
  let changed = false;
  if (item.call_status !== e.status) { item.call_status = e.status; changed = true; }
  if (e.durationS !== undefined && e.durationS !== null && item.duration_s !== e.durationS) { item.duration_s = e.durationS; changed = true; }
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
    if (l) l.push(e); else byCall.set(e.callId, [e]);
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
        if (!had || had.contact_id === null) parties.set(k, { company_id: first!.companyId, number_id: first!.numberId, recipient: first!.from, contact_id: contactId });
      }
      const conversations = await conversationsRepository.upsertActiveMany(tx, [...parties.values()]);
      const convOf = new Map(conversations.map((c) => [`${c.number_id} ${c.recipient}`, c]));
      const rows = fresh.map(([callId, events]) => {
        const [first, ...rest] = events as [CallChangedEvent, ...CallChangedEvent[]];
        const inbound = (first.direction ?? 'inbound') === 'inbound';
        const state: CallItemState = {
          type: first.voicemailId ? 'voicemail' : 'call', is_read: !inbound || first.status === CALL_STATUS.CONNECTED,
          voicemail_id: first.voicemailId ?? null, call_status: first.status, duration_s: first.durationS ?? null,
        };
        for (const e of rest) applyCallEvent(state, e);
        return {
          ...state, call_status: state.call_status!, company_id: first.companyId, conversation_id: convOf.get(`${first.numberId} ${first.from}`)!.id,
          is_inbound: inbound, call_id: callId, created_at: first.startedAt ? new Date(first.startedAt) : null,
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
      const state: CallItemState = { type: item.type, is_read: item.is_read, voicemail_id: item.voicemail_id, call_status: item.call_status, duration_s: item.duration_s };
      for (const e of events) applyCallEvent(state, e);
      if (state.type !== item.type || state.is_read !== item.is_read || state.voicemail_id !== item.voicemail_id || state.call_status !== item.call_status || state.duration_s !== item.duration_s) {
        updates.push({ id: item.id, ...state });
      }
    }
    out.push(...(await conversationsRepository.updateCallItemsMany(tx, updates)));
    return out;
  });
  await publishItemsChanged(ctx, changed);
}

/**
 * Publishes `conversation updated` once per changed item (with that item), building each
 * company's conversations with one bulk read. Call after commit; failures are logged, not thrown.
 */
async function publishItemsChanged(ctx: AppContext, items: ItemRow[]): Promise<void> {
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

/** Subscribes the inbox to the domain events it reacts to (idempotent; called at module registration). */
export function registerConversationSubscribers(): void {
  events.on('call.changed', applyCallChanged);
}

/**
 * Records a call, voicemail (and later a fax) in its (number, outside party) thread: the command
 * behind the `call.changed` subscriber, for producers that are no call (fax, transcription,
 * tracking). Same rules and batching as {@link applyCallChanged}; resolves once written and published.
 */
export async function recordCallInThread(ctx: AppContext, entry: CallChangedEvent): Promise<void> {
  await callItemBatcher(ctx).submit(entry);
}
