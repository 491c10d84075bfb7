/**
 * The inbox's read model and published queries (spec 001 §3 "Conversation", "Conversation item"):
 * the client's `Conversation` / `ConversationItem` shapes, the keyset cursors, and the read-only
 * query functions other modules use (activity, notifications, calls). Writes are in
 * conversations.commands.ts; live events in conversations.live.ts.
 */
import { COUNTED_ITEM_TYPES, carrierErrorText, isRealTimestampText, type Conversation, type ConversationItem } from '@switchboard/contracts';
import { callStatusLabel } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { declaredAccess } from '../../platform/http/access.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { blockedParties } from '../blocklist/blocklist.service.js';
import { getContactsByIds } from '../contacts/contacts.service.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { cachedCallerIds, listCallerId } from '../caller-id/caller-id.service.js';
import { numberScope, scopeIncludes } from '../users/members.service.js';
import { conversationsRepository, type ConversationRow, type ItemRow, type Keyset } from './conversations.repository.js';

/** The stored rows and keyset positions the queries return (read-only for callers). */
export type { ConversationRow, ItemRow, Keyset };

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
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch (e) {
    // Not JSON: the same 422 as a well-formed cursor of the wrong shape.
    if (!(e instanceof SyntaxError)) throw e;
  }
  if (Array.isArray(parsed) && parsed.length === 2) {
    const [ts, id] = parsed as [unknown, unknown];
    // A real date (not only its shape): PostgreSQL refuses e.g. month 13 or 25 o'clock.
    if (typeof ts === 'string' && /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d/.test(ts) && isRealTimestampText(ts) && Number.isSafeInteger(id))
      return { ts, id: id as number };
  }
  throw new ValidationError({ cursor: ['The cursor is invalid.'] });
}

// ---------------------------------------------------------------------------------------------
// Read model
// ---------------------------------------------------------------------------------------------

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
      truncated: row.body_truncated ?? false,
      originalLength: row.body_truncated ? row.body_original_length : null,
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
 * item, unread count and whether the party is blocked, in a fixed number of queries per page
 * (one per kind, not one per row: the live-event fan-out builds these for every change).
 */
export async function toConversations(ctx: AppContext, companyId: number, rows: ConversationRow[]): Promise<Conversation[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [{ latest, unread }, contacts, numbers, blocked, callerIds] = await Promise.all([
    conversationsRepository.latestAndUnread(ctx.db, ids),
    getContactsByIds(
      ctx,
      companyId,
      rows.map((r) => r.contact_id).filter((x): x is number => x !== null),
    ),
    numbersById(
      ctx,
      companyId,
      rows.map((r) => r.number_id),
    ),
    blockedParties(
      ctx,
      companyId,
      rows.map((r) => ({ numberId: r.number_id, party: r.recipient })),
    ),
    cachedCallerIds(
      ctx,
      rows.map((r) => r.recipient),
    ),
  ]);
  return rows.map((r) => {
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
        ? {
            type: li.type,
            details: {
              content: li.body,
              deliveryState: li.delivery_state,
              errorCode: li.error_code,
              media: li.media ?? [],
              isInbound: li.is_inbound,
              createdAt: li.created_at.toISOString(),
            },
          }
        : null,
      numUnreadItems: unread.get(r.id) ?? 0,
      isArchived: r.is_archived,
      // The outside party is blocked (the blocklist module's blocks, globally or on this number).
      isBlocked: blocked.has(`${r.number_id}:${r.recipient}`),
      // The cached caller-name lookup (docs/caller-id.md), the contact's name first; null when never looked up.
      enhancedCallerId: listCallerId(callerIds, r.recipient, contact ? { id: contact.id, name: contact.name } : null),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Lookups (no company scope: jobs and webhooks) and published queries
// ---------------------------------------------------------------------------------------------

/**
 * An item by id without company scope (jobs: delivery, media copy; the scheduled-message
 * cancel's access check reads its company from it). `db`: the caller's transaction, if any.
 * @returns the row, or undefined when it is gone.
 */
export async function findItem(ctx: AppContext, itemId: number, db: DbOrTx = ctx.db): Promise<ItemRow | undefined> {
  return conversationsRepository.findItemById(db, itemId);
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

/** Activity feed source: the company's newest `limit` message items and the total count. */
export async function listMessageActivity(ctx: AppContext, companyId: number, limit: number) {
  const [rows, total] = await Promise.all([
    conversationsRepository.recentMessages(ctx.db, companyId, limit),
    conversationsRepository.countMessages(ctx.db, companyId),
  ]);
  return { rows, total };
}

/** The conversation holding the thread item of call `callId`, or null (a blocked caller's call has none). */
export async function conversationIdOfCall(ctx: AppContext, callId: number): Promise<number | null> {
  return (await conversationsRepository.findItemByCall(ctx.db, callId))?.conversation_id ?? null;
}

/**
 * Unread item counts of the company per business number and type (message, call, voicemail, fax),
 * for notifications. Counted only on the numbers `userId` may see (a `user`: their assigned
 * numbers; docs/permissions.md "Numbers a user sees"); without `userId`, the running request's
 * caller (`declaredAccess`), and outside a request every number.
 */
export async function unreadCountsByNumber(
  ctx: AppContext,
  companyId: number,
  userId: number | undefined = declaredAccess()?.userId,
): Promise<Array<{ number_id: number; type: string; n: number }>> {
  const rows = await conversationsRepository.unreadCountsByNumber(ctx.db, companyId, COUNTED_ITEM_TYPES);
  if (userId === undefined) return rows;
  const scope = await numberScope(ctx, userId, companyId);
  return rows.filter((r) => scopeIncludes(scope, r.number_id));
}
