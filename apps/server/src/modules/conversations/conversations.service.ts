/**
 * The shared inbox's use cases over HTTP (spec 001 §3 "Conversation", "Conversation item";
 * §4 "Conversations"; §7 "Inbox"): list and search, threads, read/unread, archive/restore, bulk
 * updates, notes and deletions. A conversation is one (business number, outside party) pair; its
 * items are messages, calls, voicemails, faxes and notes.
 *
 * The module's other faces, one file each: the read model and published queries
 * (conversations.queries.ts), the commands other modules write with (conversations.commands.ts),
 * live `conversation updated` events (conversations.live.ts), calls and voicemails in the thread
 * (conversations.call-items.ts, the `call.changed` subscriber). The module imports only companies,
 * contacts, numbers and blocklist.
 */
import type { BulkUpdateBody, CompanyItemsQuery, Conversation, ConversationItem, ConversationListQuery } from '@switchboard/contracts';
import { CONVERSATION_SEARCH_WINDOW_YEARS, looksLikePhone, stripPhoneSearch } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { ForbiddenError, NotFoundError, fieldError } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { findContactIdsByName } from '../contacts/contacts.service.js';
import { getCompanyNumber } from '../numbers/numbers.service.js';
import { numberScope, scopeIncludes, scopeNumberIds } from '../users/members.service.js';
import { addNote, deleteItem, deleteThreadMessages } from './conversations.commands.js';
import { publishConversationDeleted, publishConversationUpdated, publishManyUpdated } from './conversations.live.js';
import { decodeCursor, encodeCursor, getCompanyConversationRow, toConversationItem, toConversations } from './conversations.queries.js';
import { withVoicemailTexts } from './conversations.hooks.js';
import { containsPattern, conversationsRepository, type ConversationRow } from './conversations.repository.js';

/**
 * The company's conversation `conversationId` if the caller may see it: its business number is in
 * the caller's number scope (a `user` sees the conversations of the numbers assigned to them;
 * docs/permissions.md "Numbers a user sees"). No tenant check: callers check the company first.
 * @throws NotFoundError (404) for another company's id, or a conversation outside the scope.
 */
async function conversationForCaller(ctx: AppContext, userId: number, companyId: number, conversationId: number): Promise<ConversationRow> {
  const row = await getCompanyConversationRow(ctx, companyId, conversationId);
  if (!scopeIncludes(await numberScope(ctx, userId, companyId), row.number_id)) throw new NotFoundError('Conversation');
  return row;
}

/**
 * `GET /companies/{companyId}/conversations`: newest activity first, keyset-paged.
 * Search: a phone-like text (domain `looksLikePhone`) is stripped of spaces, dashes and
 * parentheses and matches the recipient's digits; any other text matches the contact name or a
 * message body. A search only looks at the last 2 years (spec 001 §5). A `user` lists only the
 * conversations of the numbers assigned to them (docs/permissions.md "Numbers a user sees").
 * @throws ForbiddenError (403) without access to the company.
 */
export async function listConversations(
  ctx: AppContext,
  userId: number,
  companyId: number,
  q: ConversationListQuery,
): Promise<{ data: Conversation[]; meta: { next_cursor: string | null; per_page: number } }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const after = decodeCursor(q.cursor);
  // A `user` lists only the conversations of their numbers (none assigned: an empty inbox).
  const numberIds = scopeNumberIds(await numberScope(ctx, userId, companyId), q.numberIds?.length ? q.numberIds : undefined);
  if (numberIds && numberIds.length === 0) return { data: [], meta: { next_cursor: null, per_page: q.perPage } };
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
    companyId,
    isArchived: q.isArchived,
    limit: q.perPage + 1,
    after,
    numberIds,
    types: q.types,
    updatedAfter: q.updatedAfter,
    recipientDigits,
    text,
    since,
  });
  const page = rows.slice(0, q.perPage);
  const last = page[page.length - 1];
  const next = rows.length > q.perPage && last ? encodeCursor({ ts: last.cursor_ts, id: last.id }) : null;
  return { data: await toConversations(ctx, companyId, page), meta: { next_cursor: next, per_page: q.perPage } };
}

/** `GET /companies/{companyId}/conversations/{cid}`. @throws 403 / NotFoundError (404, another company's id). */
export async function getConversation(ctx: AppContext, userId: number, companyId: number, conversationId: number): Promise<Conversation> {
  await assertCompanyAccess(ctx, userId, companyId);
  const row = await conversationForCaller(ctx, userId, companyId, conversationId);
  return (await toConversations(ctx, companyId, [row]))[0]!;
}

/** `GET .../conversations/{cid}/items`: newest first, keyset-paged. */
export async function listConversationItems(
  ctx: AppContext,
  userId: number,
  companyId: number,
  conversationId: number,
  q: { perPage: number; cursor?: string },
): Promise<{ data: ConversationItem[]; meta: { next_cursor: string | null; per_page: number } }> {
  await assertCompanyAccess(ctx, userId, companyId);
  await conversationForCaller(ctx, userId, companyId, conversationId);
  const rows = await conversationsRepository.listItems(ctx.db, conversationId, q.perPage + 1, decodeCursor(q.cursor));
  const page = rows.slice(0, q.perPage);
  const last = page[page.length - 1];
  return {
    data: await withVoicemailTexts(ctx, companyId, page.map(toConversationItem)),
    meta: { next_cursor: rows.length > q.perPage && last ? encodeCursor({ ts: last.cursor_ts, id: last.id }) : null, per_page: q.perPage },
  };
}

/** `PUT .../conversations/{cid}/read-all`: every item read; publishes. @returns the conversation. */
export async function markConversationRead(ctx: AppContext, userId: number, companyId: number, conversationId: number): Promise<Conversation> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  await conversationForCaller(ctx, userId, companyId, conversationId);
  const changed = await conversationsRepository.markAllRead(ctx.db, companyId, conversationId);
  if (changed > 0) await publishConversationUpdated(ctx, companyId, conversationId);
  return getConversation(ctx, userId, companyId, conversationId);
}

/** `PUT .../items/{iid}/read` and `/unread`; publishes. @returns the item. @throws NotFoundError (404). */
export async function setItemRead(
  ctx: AppContext,
  userId: number,
  companyId: number,
  conversationId: number,
  itemId: number,
  read: boolean,
): Promise<ConversationItem> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  await conversationForCaller(ctx, userId, companyId, conversationId);
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
  if (!scopeIncludes(await numberScope(ctx, userId, row.company_id), row.number_id)) throw new NotFoundError('Conversation');
  await assertCompanyAccess(ctx, userId, row.company_id, AGENT_ROLES);
  if (row.is_archived !== archived) {
    await conversationsRepository.setArchived(ctx.db, row.company_id, row.id, archived);
    await publishConversationUpdated(ctx, row.company_id, row.id);
  }
  return getConversation(ctx, userId, row.company_id, row.id);
}

/**
 * `PUT /companies/{companyId}/conversations/bulk-update` {ids, type}: read (every item read),
 * unread (the newest item unread), archive, restore or delete, all or nothing.
 * Publishes `conversation updated` per conversation (deleted ones with `deleted: true`).
 * @returns `{ data: conversations after the change (none for delete), ids }`.
 * @throws 403 without an agent role; NotFoundError (404) when any id is not the company's.
 */
export async function bulkUpdateConversations(
  ctx: AppContext,
  userId: number,
  companyId: number,
  body: BulkUpdateBody,
): Promise<{ data: Conversation[]; ids: number[] }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const ids = [...new Set(body.ids)];
  const scope = await numberScope(ctx, userId, companyId);
  const rows = await ctx.db.transaction().execute(async (tx) => {
    const found = await conversationsRepository.findMany(tx, companyId, ids);
    if (found.length !== ids.length || found.some((r) => !scopeIncludes(scope, r.number_id))) throw new NotFoundError('Conversation');
    switch (body.type) {
      case 'read':
        await conversationsRepository.markReadMany(tx, companyId, ids);
        break;
      case 'unread':
        await conversationsRepository.markLatestUnreadMany(tx, companyId, ids);
        break;
      case 'archive':
        await conversationsRepository.setArchivedMany(tx, companyId, ids, true);
        break;
      case 'restore':
        await conversationsRepository.setArchivedMany(tx, companyId, ids, false);
        break;
      case 'delete':
        await conversationsRepository.deleteMany(tx, companyId, ids);
        break;
    }
    return found;
  });
  if (body.type === 'delete') {
    for (const id of ids) publishConversationDeleted(ctx, companyId, id);
    return { data: [], ids };
  }
  const data = await publishManyUpdated(
    ctx,
    companyId,
    rows.map((r) => r.id),
  );
  return { data, ids };
}

/**
 * `PUT /companies/{companyId}/conversations/read-all-by-type` {type, numbers?}: every unread item of
 * `type` on the given number ids (default: all of the company's numbers) becomes read.
 * @throws 403; ValidationError (422 on `numbers`) when a number id is not one of the company's.
 */
export async function markReadByType(
  ctx: AppContext,
  userId: number,
  companyId: number,
  body: { type: string; numbers?: number[] },
): Promise<{ updated: number; conversationIds: number[] }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const scope = await numberScope(ctx, userId, companyId);
  if (body.numbers) {
    for (const id of new Set(body.numbers)) {
      if (!scopeIncludes(scope, id)) throw fieldError('numbers', 'The selected numbers is invalid.');
      try {
        await getCompanyNumber(ctx, companyId, id);
      } catch (e) {
        if (e instanceof NotFoundError) throw fieldError('numbers', 'The selected numbers is invalid.');
        throw e;
      }
    }
  }
  const r = await conversationsRepository.markReadByType(ctx.db, companyId, body.type, scopeNumberIds(scope, body.numbers));
  await publishManyUpdated(ctx, companyId, r.conversationIds);
  return r;
}

/** `GET .../conversations/{cid}/items/{iid}`. @throws 403 / NotFoundError (404). */
export async function getConversationItem(
  ctx: AppContext,
  userId: number,
  companyId: number,
  conversationId: number,
  itemId: number,
): Promise<ConversationItem> {
  await assertCompanyAccess(ctx, userId, companyId);
  await conversationForCaller(ctx, userId, companyId, conversationId);
  const item = await conversationsRepository.findItem(ctx.db, companyId, conversationId, itemId);
  if (!item) throw new NotFoundError('Conversation item');
  return toConversationItem(item);
}

/** `DELETE .../conversations/{cid}/items/{iid}`; publishes. @throws 403 / NotFoundError (404). */
export async function deleteConversationItem(ctx: AppContext, userId: number, companyId: number, conversationId: number, itemId: number): Promise<void> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  await conversationForCaller(ctx, userId, companyId, conversationId);
  if (!(await deleteItem(ctx, { companyId, conversationId, itemId }))) throw new NotFoundError('Conversation item');
  await publishConversationUpdated(ctx, companyId, conversationId);
}

/**
 * `DELETE .../conversations/{cid}/messages`: deletes the thread's messages (sent, received and
 * scheduled); calls, voicemails and notes stay. Publishes. @returns how many were deleted.
 */
export async function deleteConversationMessages(ctx: AppContext, userId: number, companyId: number, conversationId: number): Promise<{ deleted: number }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  await conversationForCaller(ctx, userId, companyId, conversationId);
  const deleted = await deleteThreadMessages(ctx, { companyId, conversationId });
  await publishConversationUpdated(ctx, companyId, conversationId);
  return { deleted };
}

/** `GET /inbox/conversations/items` {company_id, types[], cursor, perPage}: newest first, keyset-paged. @throws 403; 422 on a bad cursor. */
export async function listCompanyItems(
  ctx: AppContext,
  userId: number,
  q: CompanyItemsQuery,
): Promise<{ data: ConversationItem[]; meta: { next_cursor: string | null; per_page: number } }> {
  await assertCompanyAccess(ctx, userId, q.company_id);
  const numberIds = scopeNumberIds(await numberScope(ctx, userId, q.company_id));
  if (numberIds && numberIds.length === 0) return { data: [], meta: { next_cursor: null, per_page: q.perPage } };
  const rows = await conversationsRepository.listCompanyItems(ctx.db, q.company_id, q.perPage + 1, q.types, decodeCursor(q.cursor), numberIds);
  const page = rows.slice(0, q.perPage);
  const last = page[page.length - 1];
  return {
    data: await withVoicemailTexts(ctx, q.company_id, page.map(toConversationItem)),
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
  await conversationForCaller(ctx, userId, companyId, conversationId);
  const item = await ctx.db.transaction().execute((tx) => addNote(ctx, tx, { companyId, conversationId, userId, body }));
  await publishConversationUpdated(ctx, companyId, conversationId, item);
  return toConversationItem(item);
}

// Published queries, for their readers (activity, notifications, calls, bench/inbox).
export { conversationIdOfCall, decodeCursor, listMessageActivity, unreadCountsByNumber } from './conversations.queries.js';
export {
  countMessagesAndFaxes,
  messageActivityIn,
  messageCountsByBucket,
  messagesPage,
  type ItemScope,
  type MessageForExport,
} from './conversations.reporting.js';
