/**
 * The inbox's commands (spec 001 §3 "Conversation", "Conversation item"; §7 "Inbox"): the one way
 * other modules write to a thread. The conversations module owns `conversations` and
 * `conversation_items`; messaging, campaigns, calls (and fax, transcription and tracking to come)
 * call these intentions and never patch rows. A command takes `tx` when its caller owns the
 * transaction (a webhook's `handleOnce`, a job's batch), validates its input, and returns what the
 * caller needs to publish after commit (`publishConversationUpdated` / `publishConversationsUpdated`
 * in conversations.live.ts).
 *
 * Command API
 * - `appendInboundMessage(ctx, tx, {companyId, numberId, from, body, media, carrierSid, originalLength?})` → `{conversation, item}`:
 *   finds or starts the (number, sender) thread, links the sender's contact, bumps it, stores the
 *   message as `received` (read when the sender is blocked); `originalLength` marks a body the
 *   carrier adapter cut to the carrier's limit.
 * - `appendOutboundMessage(ctx, tx, {companyId, numberId, recipient, body, media, userId, contactId?})` → `{conversation, item}`:
 *   a message to send (`sending`); the caller enqueues its delivery in the same `tx`.
 * - `appendOutboundMessages(ctx, tx, {companyId, numberId, userId, messages[]})` → `[{itemId, conversationId}]`:
 *   the batch form for messages already handed to the carrier (campaign dispatch: one upsert of
 *   the threads, one insert of the items, whatever the batch size).
 * - `scheduleOutboundMessage(ctx, tx, {…, sendAt})` → `{conversation, item}`; `releaseScheduledMessage(ctx, tx, itemId)`
 *   at its time (becomes a `sending` message, or `failed` 21610 when the contact opted out);
 *   `cancelScheduledMessage(ctx, tx, itemId)` before it.
 * - `applyDeliveryUpdate(ctx, tx, target, update)` → `{found, updated}`: by carrier SID (with our
 *   item id as fallback) or by item id; the state only moves forward (domain `advanceDelivery`).
 * - `attachMessageMedia(ctx, itemId, media)`: points a message at our copies of its media.
 * - `addNote(ctx, tx, {companyId, conversationId, userId, body})`; `deleteItem`, `deleteThreadMessages`.
 * - Calls, voicemails (and later faxes) in a thread: `recordCallInThread` (conversations.service.ts),
 *   which the `call.changed` subscriber uses.
 */
import { advanceDelivery, codePointLength, isDeliveryState, type DeliveryUpdate } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { ConflictError, NotFoundError, fieldError } from '../../platform/http/errors.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { isPartyBlocked } from '../blocklist/blocklist.service.js';
import { conversationsRepository, type ConversationRow, type ItemRow } from './conversations.repository.js';

/** The stored rows the commands return (read-only for callers: change them through a command). */
export type { ConversationRow, ItemRow };

/** A media attachment: our blob URL (or, for an inbound message before its copy, the carrier's) and its MIME type. */
export type MediaRef = { url: string; contentType: string };

/** Carrier error code stored on a scheduled message whose recipient opted out before its time ("Recipient has opted out"). */
export const OPTED_OUT_ERROR_CODE = 21610;
/** Error code of a scheduled message due while its account is parked or deactivated (carrier code 30002 "Account suspended"). */
export const ACCOUNT_SUSPENDED_ERROR_CODE = 30002;

/** A command was called with input no caller should send (a programming error, answered 500, never 4xx). */
export class InboxCommandError extends Error {
  constructor(command: string, problem: string) {
    super(`${command}: ${problem}`);
    this.name = 'InboxCommandError';
  }
}

function requireId(command: string, name: string, v: unknown): void {
  if (!Number.isSafeInteger(v) || (v as number) <= 0) throw new InboxCommandError(command, `${name} must be a positive integer id`);
}
function requireParty(command: string, name: string, v: unknown): void {
  if (typeof v !== 'string' || v.trim() === '') throw new InboxCommandError(command, `${name} must be a non-empty phone number`);
}
function requireMedia(command: string, media: unknown): void {
  if (!Array.isArray(media) || media.some((m) => !m || typeof (m as MediaRef).url !== 'string' || typeof (m as MediaRef).contentType !== 'string')) {
    throw new InboxCommandError(command, 'media must be a list of {url, contentType}');
  }
}

/** Finds or starts the (number, party) thread, linking the company's contact of the party (given, else looked up), bumping and un-archiving it. */
async function openThread(
  ctx: AppContext,
  tx: DbOrTx,
  companyId: number,
  numberId: number,
  party: string,
  contactId?: number | null,
): Promise<ConversationRow> {
  const contact = contactId ?? (await findContactByNumber(ctx, companyId, party, tx))?.id ?? null;
  return conversationsRepository.upsertActive(tx, { company_id: companyId, number_id: numberId, recipient: party, contact_id: contact });
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/**
 * Appends an inbound SMS/MMS to the thread of (business number, sender), inside the caller's
 * transaction: finds or starts the conversation, links the sender's contact when it has none,
 * bumps it (last activity now, un-archived) and stores the message (`received`). A blocked
 * sender's text is kept but arrives read, so it counts as no unread (docs/messaging.md "Blocked callers").
 * @param input.from the sender, E.164. @param input.media the carrier's media URLs (copy them with `attachMessageMedia` later).
 * @param input.originalLength characters received when the carrier adapter cut the body to the
 *   carrier's limit (docs/operations.md "Bounds on outside input"): stored as `body_truncated` with
 *   `body_original_length`, shown as "message truncated"; absent or null when the body is whole.
 * @returns the conversation and the stored item (publish both after commit).
 * @throws InboxCommandError on malformed input.
 */
export async function appendInboundMessage(
  ctx: AppContext,
  tx: DbOrTx,
  input: { companyId: number; numberId: number; from: string; body: string; media: MediaRef[]; carrierSid: string; originalLength?: number | null },
): Promise<{ conversation: ConversationRow; item: ItemRow }> {
  const cmd = 'appendInboundMessage';
  requireId(cmd, 'companyId', input.companyId);
  requireId(cmd, 'numberId', input.numberId);
  requireParty(cmd, 'from', input.from);
  requireMedia(cmd, input.media);
  if (typeof input.body !== 'string') throw new InboxCommandError(cmd, 'body must be a string');
  if (typeof input.carrierSid !== 'string' || !input.carrierSid) throw new InboxCommandError(cmd, 'carrierSid is required');
  const originalLength = input.originalLength ?? null;
  if (originalLength !== null && !(Number.isSafeInteger(originalLength) && originalLength > codePointLength(input.body))) {
    throw new InboxCommandError(cmd, 'originalLength must be an integer above the length of the kept body');
  }
  const conversation = await openThread(ctx, tx, input.companyId, input.numberId, input.from);
  const blocked = await isPartyBlocked(ctx, input.companyId, input.numberId, input.from, tx);
  const item = await conversationsRepository.insertItem(tx, {
    company_id: input.companyId,
    conversation_id: conversation.id,
    type: 'message',
    is_inbound: true,
    is_read: blocked,
    body: input.body,
    media: JSON.stringify(input.media),
    delivery_state: 'received',
    carrier_sid: input.carrierSid,
    body_truncated: originalLength !== null,
    body_original_length: originalLength,
  });
  return { conversation, item };
}

/**
 * Appends an outbound message that is about to be sent (`sending`, read, by `userId` or by no one
 * for an automatic reply) to the thread of (business number, recipient), inside the caller's
 * transaction; finds or starts and bumps the conversation. The caller enqueues its delivery in
 * the same transaction. `contactId` (optional) links that contact when the thread has none.
 * @returns the conversation and the stored item. @throws InboxCommandError on malformed input.
 */
export async function appendOutboundMessage(
  ctx: AppContext,
  tx: DbOrTx,
  input: { companyId: number; numberId: number; recipient: string; body: string; media: MediaRef[]; userId: number | null; contactId?: number | null },
): Promise<{ conversation: ConversationRow; item: ItemRow }> {
  const cmd = 'appendOutboundMessage';
  requireId(cmd, 'companyId', input.companyId);
  requireId(cmd, 'numberId', input.numberId);
  requireParty(cmd, 'recipient', input.recipient);
  requireMedia(cmd, input.media);
  if (typeof input.body !== 'string') throw new InboxCommandError(cmd, 'body must be a string');
  if (input.userId !== null) requireId(cmd, 'userId', input.userId);
  const conversation = await openThread(ctx, tx, input.companyId, input.numberId, input.recipient, input.contactId);
  const item = await conversationsRepository.insertItem(tx, {
    company_id: input.companyId,
    conversation_id: conversation.id,
    type: 'message',
    is_inbound: false,
    is_read: true,
    body: input.body,
    media: JSON.stringify(input.media),
    delivery_state: 'sending',
    user_id: input.userId,
  });
  return { conversation, item };
}

/** One message of {@link appendOutboundMessages}. */
export type OutboundBatchMessage = {
  /** E.164 of the recipient. */
  recipient: string;
  /** The caller's known contact of the recipient (fills an empty link; an existing one is kept). */
  contactId: number | null;
  body: string;
  media: MediaRef[];
  /** The carrier's SID (the message was handed over), or null. */
  carrierSid: string | null;
  /** The delivery state to store (domain `DELIVERY_STATES`, e.g. `sent`, or a final state a callback already reported). */
  state: string;
  errorCode: number | null;
};

/**
 * Batch form of {@link appendOutboundMessage} for messages already handed to the carrier (spec 001
 * §7 "Campaigns": campaign dispatch), for one company and business number, inside the caller's
 * transaction, in two statements whatever the batch size: one upsert finds or starts (and bumps,
 * un-archives) the thread of every distinct recipient, one insert stores every item (outbound,
 * read, by `userId`). Performance matters here: bench/campaign-dispatch.
 * @returns `{itemId, conversationId}` per message, in input order.
 * @throws InboxCommandError on malformed input (an unknown state, an empty recipient).
 */
export async function appendOutboundMessages(
  ctx: AppContext,
  tx: DbOrTx,
  input: { companyId: number; numberId: number; userId: number | null; messages: OutboundBatchMessage[] },
): Promise<Array<{ itemId: number; conversationId: number }>> {
  const cmd = 'appendOutboundMessages';
  requireId(cmd, 'companyId', input.companyId);
  requireId(cmd, 'numberId', input.numberId);
  if (input.userId !== null) requireId(cmd, 'userId', input.userId);
  if (input.messages.length === 0) return [];
  const threads = new Map<string, number | null>();
  for (const m of input.messages) {
    requireParty(cmd, 'recipient', m.recipient);
    if (!isDeliveryState(m.state)) throw new InboxCommandError(cmd, `unknown delivery state ${JSON.stringify(m.state)}`);
    if (!threads.has(m.recipient) || threads.get(m.recipient) === null) threads.set(m.recipient, m.contactId);
  }
  const conversations = await conversationsRepository.upsertActiveMany(
    tx,
    [...threads].map(([recipient, contactId]) => ({
      company_id: input.companyId,
      number_id: input.numberId,
      recipient,
      contact_id: contactId,
    })),
  );
  const byRecipient = new Map(conversations.map((c) => [c.recipient, c.id]));
  const conversationIds = input.messages.map((m) => byRecipient.get(m.recipient)!);
  const items = await conversationsRepository.insertItemsMany(
    tx,
    input.messages.map((m, i) => ({
      company_id: input.companyId,
      conversation_id: conversationIds[i]!,
      type: 'message',
      is_inbound: false,
      is_read: true,
      body: m.body,
      media: JSON.stringify(m.media),
      delivery_state: m.state,
      error_code: m.errorCode,
      carrier_sid: m.carrierSid,
      user_id: input.userId,
    })),
  );
  return items.map((it, i) => ({ itemId: it.id, conversationId: conversationIds[i]! }));
}

/** Where a delivery update goes: the item with this carrier SID (else our item id, when it has no other SID yet), or an item by id. */
export type DeliveryTarget = { carrierSid: string; itemId?: number | null } | { itemId: number };

/**
 * Applies a delivery update to an outbound message, inside the caller's transaction, with the
 * item locked: the carrier SID is recorded once, the state moves forward only and an error code
 * comes with it (domain `advanceDelivery`; a late `sent` never replaces `delivered`).
 * Target `{carrierSid, itemId?}` (a status callback): the item with that SID, else item `itemId`
 * when it is outbound and has no SID or this one (a callback that overtook the storing of the SID).
 * Target `{itemId}`: that item (our own send attempt; a campaign's ledger).
 * @returns `found` (whether the message exists) and `updated` (the row after the change, null when nothing changed; publish it after commit).
 */
export async function applyDeliveryUpdate(
  ctx: AppContext,
  tx: DbOrTx,
  target: DeliveryTarget,
  update: DeliveryUpdate,
): Promise<{ found: boolean; updated: ItemRow | null }> {
  let item: ItemRow | undefined;
  if ('carrierSid' in target) {
    if (!target.carrierSid) throw new InboxCommandError('applyDeliveryUpdate', 'carrierSid is required');
    item = await conversationsRepository.findItemBySid(tx, target.carrierSid, true);
    if (!item && target.itemId) {
      const byId = await conversationsRepository.findItemById(tx, target.itemId, true);
      if (byId && !byId.is_inbound && (byId.carrier_sid === null || byId.carrier_sid === target.carrierSid)) item = byId;
    }
  } else {
    requireId('applyDeliveryUpdate', 'itemId', target.itemId);
    item = await conversationsRepository.findItemById(tx, target.itemId, true);
  }
  if (!item) return { found: false, updated: null };
  const change = advanceDelivery({ state: item.delivery_state, carrierSid: item.carrier_sid, errorCode: item.error_code }, update);
  if (!change) return { found: true, updated: null };
  const updated = await conversationsRepository.updateItem(tx, item.id, {
    ...(change.state !== undefined ? { delivery_state: change.state } : {}),
    ...(change.carrierSid !== undefined ? { carrier_sid: change.carrierSid } : {}),
    ...(change.errorCode !== undefined ? { error_code: change.errorCode } : {}),
  });
  return { found: true, updated: updated ?? null };
}

/**
 * Replaces a message's media list with our copies (the inbound media job, after copying the
 * carrier's files into our blob store). `db`: the caller's transaction, if any.
 * @returns the updated row (publish it), or undefined when the item is gone.
 * @throws InboxCommandError on malformed media.
 */
export async function attachMessageMedia(ctx: AppContext, itemId: number, media: MediaRef[], db: DbOrTx = ctx.db): Promise<ItemRow | undefined> {
  requireId('attachMessageMedia', 'itemId', itemId);
  requireMedia('attachMessageMedia', media);
  return conversationsRepository.updateItem(db, itemId, { media: JSON.stringify(media) });
}

// ---------------------------------------------------------------------------------------------
// Scheduled messages (spec 001 §7 "POST /inbox/message/schedule")
// ---------------------------------------------------------------------------------------------

/**
 * Stores a scheduled message (item type `scheduledmessage`, shown in the thread with its time,
 * no delivery state) in the (number, recipient) thread, inside the caller's transaction, which
 * enqueues the job that releases it at `sendAt`. Starts/bumps the conversation.
 * @returns the conversation and the item. @throws InboxCommandError on malformed input.
 */
export async function scheduleOutboundMessage(
  ctx: AppContext,
  tx: DbOrTx,
  input: { companyId: number; numberId: number; recipient: string; body: string; media: MediaRef[]; userId: number; sendAt: Date },
): Promise<{ conversation: ConversationRow; item: ItemRow }> {
  const cmd = 'scheduleOutboundMessage';
  requireId(cmd, 'companyId', input.companyId);
  requireId(cmd, 'numberId', input.numberId);
  requireParty(cmd, 'recipient', input.recipient);
  requireMedia(cmd, input.media);
  requireId(cmd, 'userId', input.userId);
  if (!(input.sendAt instanceof Date) || Number.isNaN(input.sendAt.getTime())) throw new InboxCommandError(cmd, 'sendAt must be a valid date');
  const conversation = await openThread(ctx, tx, input.companyId, input.numberId, input.recipient);
  const item = await conversationsRepository.insertItem(tx, {
    company_id: input.companyId,
    conversation_id: conversation.id,
    type: 'scheduledmessage',
    is_inbound: false,
    is_read: true,
    body: input.body,
    media: JSON.stringify(input.media),
    delivery_state: null,
    should_be_sent_at: input.sendAt,
    user_id: input.userId,
  });
  return { conversation, item };
}

/**
 * Releases a scheduled message at its time, inside the caller's transaction (item locked): it
 * becomes an ordinary outbound message created now (so it sorts at its send time), `sending` —
 * or `failed` with {@link OPTED_OUT_ERROR_CODE} when the recipient's contact unsubscribed meanwhile
 * (nothing is sent), or with {@link ACCOUNT_SUSPENDED_ERROR_CODE} when `opts.outOfService` (the
 * account is parked or deactivated: docs/accounts.md "Account status") — and its conversation is
 * bumped. An item that is no longer scheduled (released before: a retried job) is returned as it is.
 * @returns `{item, released}`: the item (null when it is gone: cancelled), and whether this call released it.
 */
export async function releaseScheduledMessage(
  ctx: AppContext,
  tx: DbOrTx,
  itemId: number,
  opts: { outOfService?: boolean } = {},
): Promise<{ item: ItemRow | null; released: boolean }> {
  requireId('releaseScheduledMessage', 'itemId', itemId);
  const item = await conversationsRepository.findItemById(tx, itemId, true);
  if (!item || item.type !== 'scheduledmessage') return { item: item ?? null, released: false };
  const conversation = await conversationsRepository.findByIdUnscoped(tx, item.conversation_id);
  if (!conversation) return { item: null, released: false };
  const contact = await findContactByNumber(ctx, item.company_id, conversation.recipient, tx);
  const optedOut = Boolean(contact?.is_unsubscribed);
  const failure = optedOut ? OPTED_OUT_ERROR_CODE : opts.outOfService ? ACCOUNT_SUSPENDED_ERROR_CODE : null;
  const row = await conversationsRepository.updateItem(tx, item.id, {
    type: 'message',
    created_at: new Date(),
    delivery_state: failure !== null ? 'failed' : 'sending',
    ...(failure !== null ? { error_code: failure } : {}),
  });
  await conversationsRepository.upsertActive(tx, {
    company_id: conversation.company_id,
    number_id: conversation.number_id,
    recipient: conversation.recipient,
    contact_id: conversation.contact_id,
  });
  return { item: row ?? null, released: Boolean(row) };
}

/**
 * Cancels a scheduled message that has not gone out (the item is deleted; its job then finds
 * nothing), inside the caller's transaction with the item locked. The caller checked access.
 * @returns the deleted item (its company and conversation, to publish).
 * @throws NotFoundError (404) when the item is gone; ConflictError (409) when it was already sent.
 */
export async function cancelScheduledMessage(ctx: AppContext, tx: DbOrTx, itemId: number): Promise<ItemRow> {
  requireId('cancelScheduledMessage', 'itemId', itemId);
  const locked = await conversationsRepository.findItemById(tx, itemId, true);
  if (!locked) throw new NotFoundError('Scheduled message');
  if (locked.type !== 'scheduledmessage') throw new ConflictError('The message has already been sent.');
  await conversationsRepository.deleteItemById(tx, locked.id);
  return locked;
}

// ---------------------------------------------------------------------------------------------
// Notes and deletions
// ---------------------------------------------------------------------------------------------

/**
 * Adds a note (item type `note`, read, by `userId`) to a company's thread and bumps the
 * conversation, inside the caller's transaction (spec 001 §7 "Inbox" notes).
 * @returns the note item. @throws NotFoundError (404) when the conversation is not the company's;
 *   ValidationError (422 on `body`) when the text is empty.
 */
export async function addNote(
  ctx: AppContext,
  tx: DbOrTx,
  input: { companyId: number; conversationId: number; userId: number; body: string },
): Promise<ItemRow> {
  requireId('addNote', 'userId', input.userId);
  const text = typeof input.body === 'string' ? input.body.trim() : '';
  if (!text) throw fieldError('body', 'The body field is required.');
  const conversation = await conversationsRepository.find(tx, input.companyId, input.conversationId);
  if (!conversation) throw new NotFoundError('Conversation');
  await conversationsRepository.upsertActive(tx, {
    company_id: conversation.company_id,
    number_id: conversation.number_id,
    recipient: conversation.recipient,
    contact_id: conversation.contact_id,
  });
  return conversationsRepository.insertItem(tx, {
    company_id: input.companyId,
    conversation_id: input.conversationId,
    type: 'note',
    is_inbound: false,
    is_read: true,
    body: text,
    media: '[]',
    user_id: input.userId,
  });
}

/**
 * Deletes one item of a company's thread. @returns whether it existed.
 * `db`: the caller's transaction, if any.
 */
export async function deleteItem(ctx: AppContext, input: { companyId: number; conversationId: number; itemId: number }, db: DbOrTx = ctx.db): Promise<boolean> {
  return conversationsRepository.deleteItem(db, input.companyId, input.conversationId, input.itemId);
}

/**
 * Deletes the messages of a company's thread (sent, received and scheduled); calls, voicemails,
 * faxes and notes stay. @returns how many were deleted. `db`: the caller's transaction, if any.
 */
export async function deleteThreadMessages(ctx: AppContext, input: { companyId: number; conversationId: number }, db: DbOrTx = ctx.db): Promise<number> {
  return conversationsRepository.deleteItemsOfTypes(db, input.companyId, input.conversationId, ['message', 'scheduledmessage']);
}

// ---------------------------------------------------------------------------------------------
// Faxes (spec 001 §3 "Conversation item" type fax; docs/fax.md "In the inbox")
// ---------------------------------------------------------------------------------------------

/**
 * Appends a fax (item type `fax`) to the (fax number, other party) thread, inside the caller's
 * transaction: finds or starts and bumps the conversation. `content` is the item's text (the
 * cover note or the page count), `media` the PDF (our blob URL, `application/pdf`; empty until a
 * received fax is fetched), `state` the fax status as the item's delivery state. An inbound fax is
 * unread unless the sender is blocked; an outbound one is read.
 * @returns the conversation and the item (publish after commit). @throws InboxCommandError on malformed input.
 */
export async function appendFaxItem(
  ctx: AppContext,
  tx: DbOrTx,
  input: { companyId: number; numberId: number; party: string; inbound: boolean; content: string; media: MediaRef[]; state: string; userId: number | null },
): Promise<{ conversation: ConversationRow; item: ItemRow }> {
  const cmd = 'appendFaxItem';
  requireId(cmd, 'companyId', input.companyId);
  requireId(cmd, 'numberId', input.numberId);
  requireParty(cmd, 'party', input.party);
  requireMedia(cmd, input.media);
  if (input.userId !== null) requireId(cmd, 'userId', input.userId);
  const conversation = await openThread(ctx, tx, input.companyId, input.numberId, input.party);
  const blocked = input.inbound ? await isPartyBlocked(ctx, input.companyId, input.numberId, input.party, tx) : false;
  const item = await conversationsRepository.insertItem(tx, {
    company_id: input.companyId,
    conversation_id: conversation.id,
    type: 'fax',
    is_inbound: input.inbound,
    is_read: !input.inbound || blocked,
    body: input.content,
    media: JSON.stringify(input.media),
    delivery_state: input.state,
    user_id: input.userId,
  });
  return { conversation, item };
}

/**
 * Updates a fax item (type `fax`) of the thread: its delivery state (the fax status), text, media
 * (the PDF once stored) and error code. `db`: the caller's transaction, if any.
 * @returns the updated row (publish it), or undefined when the item is gone or is no fax.
 */
export async function updateFaxItem(
  ctx: AppContext,
  itemId: number,
  patch: { state?: string; content?: string; media?: MediaRef[] },
  db: DbOrTx = ctx.db,
): Promise<ItemRow | undefined> {
  requireId('updateFaxItem', 'itemId', itemId);
  if (patch.media) requireMedia('updateFaxItem', patch.media);
  const item = await conversationsRepository.findItemById(db, itemId, false);
  if (!item || item.type !== 'fax') return undefined;
  return conversationsRepository.updateItem(db, itemId, {
    ...(patch.state !== undefined ? { delivery_state: patch.state } : {}),
    ...(patch.content !== undefined ? { body: patch.content } : {}),
    ...(patch.media !== undefined ? { media: JSON.stringify(patch.media) } : {}),
  });
}
