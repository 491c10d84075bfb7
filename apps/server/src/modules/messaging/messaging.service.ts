/**
 * SMS/MMS through the carrier port (spec 001 §5 message length, §7 "Inbox" `POST /message`,
 * `POST /inbox/message/schedule`; docs/messaging.md "Flows"). Messaging decides what is sent and
 * when; every write to the thread goes through the inbox's commands (conversations.commands.ts).
 *
 * - Inbound (the carrier's messaging webhook): `receiveInboundMessage` asks the inbound-reply hook
 *   (campaigns: reply counters, `skip_inbox`), appends the message to the thread of (business
 *   number, sender), answers opt-out/opt-in/help keywords, schedules copying its media into our
 *   blob store (`messages.fetch-media`) and emits `message.received` after commit.
 * - Outbound (`POST /api/message`): `sendMessage` stores the item as `sending` and enqueues
 *   `messages.send` in the same transaction; `deliverMessage` (the job) hands it to the carrier.
 * - Status callbacks (the carrier's status webhook): `applyMessageStatus` moves the delivery state
 *   forward only (domain `advanceDelivery`) and emits `message.status-changed` after commit.
 * Live `conversation updated` events are published after each commit.
 */
import { storeUploads } from '../../platform/blob/upload.js';
import { type ConversationItem, type ScheduleMessageBody, type SendMessageBody } from '@switchboard/contracts';
import {
  DEFAULT_HELP_TEXT,
  MMS_MAX_LENGTH,
  MMS_TOO_LONG,
  OPT_IN_CONFIRMATION,
  OPT_OUT_CONFIRMATION,
  RECIPIENT_UNSUBSCRIBED,
  SMS_MAX_LENGTH,
  SMS_TOO_LONG,
  classifyKeyword,
  formatPhone,
  parsePhone,
  type DeliveryUpdate,
  type KeywordKind,
} from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { ownerOfKey } from '../../platform/blob/access.js';
import { events, type Emitted } from '../../platform/events/index.js';
import type { UploadedFile } from '../../platform/http/multipart.js';
import { ResponseTooLargeError, UnsafeUrlError } from '../../platform/http/safe-fetch.js';
import type { InboundMessageEvent, MessageStatusEvent } from '../../carriers/carrier.events.js';
import { CarrierError, ForbiddenError, NotFoundError, ValidationError, fieldError } from '../../platform/http/errors.js';
import type { WebhookOutcome } from '../../platform/http/webhooks.js';
import { AGENT_ROLES, assertCompanyAccess, getCompanyMessagingSettings } from '../companies/companies.service.js';
import { createContact, findContactByNumber, setContactUnsubscribed } from '../contacts/contacts.service.js';
import {
  ACCOUNT_SUSPENDED_ERROR_CODE,
  appendInboundMessage,
  appendOutboundMessage,
  applyDeliveryUpdate,
  attachMessageMedia,
  cancelScheduledMessage as withdrawScheduledMessage,
  releaseScheduledMessage,
  scheduleOutboundMessage,
  type DeliveryTarget,
  type ItemRow,
} from '../conversations/conversations.commands.js';
import { publishConversationUpdated } from '../conversations/conversations.live.js';
import { findItem, getCompanyConversationRow, getConversationRow, toConversationItem } from '../conversations/conversations.queries.js';
import { findNumberByE164, getCompanyNumber } from '../numbers/numbers.service.js';
import { assertCompanyInService, isCompanyInService } from '../numbers/service-state.js';
import { assertNumberInScope } from '../users/members.service.js';
import { askInboundReplyHooks } from './messaging.hooks.js';

/** An uploaded media file (the shared multipart reader's type). */
export type { UploadedFile };

/** Job: hand an outbound item to the carrier (`deliverMessage`). */
export const SEND_MESSAGE_JOB = 'messages.send';
/** Job: copy an inbound item's media into our blob store (`fetchInboundMedia`). */
export const FETCH_MEDIA_JOB = 'messages.fetch-media';
/** Job: release a scheduled message at its time (`sendScheduledMessage`). */
export const SEND_SCHEDULED_JOB = 'messages.send-scheduled';

// ---------------------------------------------------------------------------------------------
// Inbound
// ---------------------------------------------------------------------------------------------

/**
 * Handles one inbound SMS/MMS (the carrier's post parsed by `carrier.parseInboundMessage`) inside
 * `handleOnce`'s transaction (`tx`). A `To` that is not one of our active numbers stores nothing.
 * Answers the carrier's empty messaging response.
 * A parked or deactivated account's message is answered and dropped (logged; an opt-out/opt-in
 * keyword still updates the contact, without a reply): docs/accounts.md "Account status in service".
 * The inbound-reply hook (registered by campaigns) is asked first, in the same transaction: a
 * reply to a campaign sent with `skip_inbox` is not stored in the inbox (no conversation item),
 * but an opt-out/opt-in/help keyword is still honoured and its confirmation goes out through the
 * conversation. In the transaction: `message.received` (with the hook's campaign; the outbox); after commit its dispatch, then the live events.
 */
export async function receiveInboundMessage(ctx: AppContext, tx: DbOrTx, p: InboundMessageEvent): Promise<WebhookOutcome> {
  const response = ctx.carrier.renderMessaging();
  const number = p.to ? await findNumberByE164(ctx, parsePhone(p.to) ?? p.to, tx) : undefined;
  if (!number) {
    ctx.log.warn({ to: p.to, sid: p.sid }, 'inbound message for an unknown number ignored');
    return { response };
  }
  const companyId = number.company_id;
  const from = parsePhone(p.from) ?? p.from.trim();
  const kind = classifyKeyword(p.body);
  if (!(await isCompanyInService(ctx, companyId, tx))) {
    // Parked or deactivated account (docs/accounts.md "Account status"): answered 200, not delivered
    // to the inbox and logged; an opt-out or opt-in keyword is still recorded on the contact (no reply).
    if (kind === 'opt-out' || kind === 'opt-in') await answerKeyword(ctx, tx, { companyId, numberId: number.id, from, kind }, { reply: false });
    ctx.log.warn({ companyId, numberId: number.id, sid: p.sid, keyword: kind }, 'inbound message for an account out of service dropped');
    return { response };
  }
  const media = p.media;
  const receivedAt = new Date();
  const verdict = await askInboundReplyHooks(ctx, tx, { companyId, numberId: number.id, from, body: p.body });
  let item: ItemRow | null = null;
  if (!verdict.skipInbox) {
    // A body the adapter cut to the carrier's limit keeps its received length (shown in the thread).
    const originalLength = p.bodyTruncated ? p.bodyLength : null;
    item = (await appendInboundMessage(ctx, tx, { companyId, numberId: number.id, from, body: p.body, media, carrierSid: p.sid, originalLength })).item;
    if (media.length > 0) await ctx.queue.enqueue(FETCH_MEDIA_JOB, { itemId: item.id }, { singletonKey: `media-${item.id}` }, tx);
  }
  const reply = kind ? await answerKeyword(ctx, tx, { companyId, numberId: number.id, from, kind }) : null;
  // Leased to this process: `afterCommit` below dispatches it.
  const emitted = await events.emit(
    tx,
    'message.received',
    {
      companyId,
      numberId: number.id,
      conversationId: item?.conversation_id ?? null,
      itemId: item?.id ?? null,
      from,
      body: p.body,
      carrierSid: p.sid,
      receivedAt,
      keyword: kind,
      campaignId: verdict.campaignId,
    },
    { leaseTo: ctx.queue.workerId },
  );
  return {
    response,
    afterCommit: async () => {
      // The inbox hears the received text from the `conversations.live` consumer of `message.received`.
      await events.dispatch(ctx, emitted);
      if (reply) await publishConversationUpdated(ctx, companyId, reply.conversation_id, reply);
    },
  };
}

/**
 * Stores an automatic reply (outbound message, no user) in the (number, party) thread and enqueues
 * its delivery through `messages.send`, inside the caller's transaction, so it shows in the thread.
 * `contactId` links that contact when the thread has none (a contact the keyword just created).
 */
async function queueAutoReply(
  ctx: AppContext,
  tx: DbOrTx,
  to: { companyId: number; numberId: number; recipient: string; contactId?: number },
  body: string,
): Promise<ItemRow> {
  const { item } = await appendOutboundMessage(ctx, tx, { ...to, body, media: [], userId: null });
  await ctx.queue.enqueue(SEND_MESSAGE_JOB, { itemId: item.id }, { singletonKey: `send-${item.id}` }, tx);
  return item;
}

/**
 * Opt-out compliance for an inbound single-word keyword (spec 001 §4 "Sent messages";
 * docs/messaging.md "Opt-outs and compliance"; domain `classifyKeyword`), inside the inbound
 * webhook's transaction:
 * - opt-out (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT): the sender's contact in
 *   this company becomes unsubscribed (created with source `keyword` when there is none) and gets
 *   OPT_OUT_CONFIRMATION;
 * - opt-in (START, YES, UNSTOP): an unsubscribed contact is subscribed again and gets OPT_IN_CONFIRMATION;
 * - help (HELP, INFO): the company's help text, or "{company}: DEFAULT_HELP_TEXT" when it has none.
 * A confirmation goes out only when the subscription actually changed, so a repeated STOP (the same
 * delivery twice, or a second STOP) sends one confirmation, and an ordinary "Yes" from a subscribed
 * person gets no reply. Repeated deliveries of one MessageSid are already absorbed by `handleOnce`.
 * The reply goes to the (number, sender) thread, which is started when the message itself was
 * kept out of the inbox, and linked to the sender's contact (the one created here included).
 * @returns the reply item, or null when nothing is sent.
 */
async function answerKeyword(
  ctx: AppContext,
  tx: DbOrTx,
  input: { companyId: number; numberId: number; from: string; kind: KeywordKind },
  opts: { reply?: boolean } = {},
): Promise<ItemRow | null> {
  const { companyId, numberId, from, kind } = input;
  const reply = opts.reply ?? true;
  if (kind === 'help') {
    if (!reply) return null;
    const company = await getCompanyMessagingSettings(ctx, companyId, tx);
    const text = company.help_text.trim() || `${company.name}: ${DEFAULT_HELP_TEXT}`;
    return queueAutoReply(ctx, tx, { companyId, numberId, recipient: from }, text);
  }
  const unsubscribe = kind === 'opt-out';
  let contact = await findContactByNumber(ctx, companyId, from, tx);
  if (!contact) {
    if (!unsubscribe) return null;
    contact = await createContact(ctx, companyId, { name: formatPhone(from), number: from, source: 'keyword' }, tx);
  }
  if (contact.is_unsubscribed === unsubscribe) return null;
  await setContactUnsubscribed(ctx, companyId, contact.id, unsubscribe, tx);
  if (!reply) return null;
  return queueAutoReply(ctx, tx, { companyId, numberId, recipient: from, contactId: contact.id }, unsubscribe ? OPT_OUT_CONFIRMATION : OPT_IN_CONFIRMATION);
}

function extensionFor(contentType: string, url: string): string {
  const known: Record<string, string> = {
    'image/jpeg': '.jpg',
    'image/jpg': '.jpg',
    'image/png': '.png',
    'image/gif': '.gif',
    'image/webp': '.webp',
    'video/mp4': '.mp4',
    'audio/mpeg': '.mp3',
    'text/vcard': '.vcf',
    'application/pdf': '.pdf',
  };
  const k = known[contentType.toLowerCase()];
  if (k) return k;
  const m = /\.([a-z0-9]{1,5})(?:$|\?)/i.exec(new URL(url, 'http://x').pathname);
  return m ? `.${m[1]!.toLowerCase()}` : '.bin';
}

/**
 * Job `messages.fetch-media` {itemId}: copies an inbound item's media into our blob store
 * (`derivedKey(companyId, 'mms', in-{itemId}-{i})`) and points the item at our copies. Idempotent:
 * media already under the company's own `/files/` URL are skipped and keys are deterministic.
 * Downloads go through the carrier (`carrier.downloadMedia`: its auth, the server-side fetch guard
 * platform/http/safe-fetch.ts); a URL the guard refuses (private address, other scheme, too large) is dropped from the item, not retried.
 * @throws when a download fails otherwise (the queue retries).
 */
export async function fetchInboundMedia(ctx: AppContext, data: { itemId: number }): Promise<void> {
  const item = await findItem(ctx, data.itemId);
  if (!item || item.media.length === 0) return;
  let changed = false;
  const media = [];
  for (const [i, m] of item.media.entries()) {
    const ownKey = ctx.blobs.keyOf(m.url);
    if (ownKey && ownerOfKey(ownKey) === item.company_id) {
      media.push(m);
      continue;
    }
    let res;
    try {
      res = await ctx.carrier.downloadMedia(m.url);
    } catch (e) {
      if (!(e instanceof UnsafeUrlError || e instanceof ResponseTooLargeError)) throw e;
      ctx.log.warn({ err: e, itemId: item.id }, 'inbound media refused');
      changed = true;
      continue;
    }
    const key = ctx.blobs.derivedKey(item.company_id, 'mms', `in-${item.id}-${i}`, extensionFor(m.contentType, m.url));
    await ctx.blobs.put(key, res.data);
    media.push({ url: ctx.blobs.url(key), contentType: res.contentType || m.contentType });
    changed = true;
  }
  if (!changed) return;
  const updated = await attachMessageMedia(ctx, item.id, media);
  if (updated) await publishConversationUpdated(ctx, item.company_id, item.conversation_id, updated);
}

// ---------------------------------------------------------------------------------------------
// Outbound
// ---------------------------------------------------------------------------------------------

type PreparedOutbound = { companyId: number; numberId: number; recipient: string; content: string; media: { url: string; contentType: string }[] };

/**
 * Validates an outbound message (`POST /message`, `POST /inbox/message/schedule`) and stores its
 * uploaded media. `extraErrors` (e.g. on `shouldBeSentAt`) are reported with the others.
 * @throws 403 without an agent role; 404 for another company's conversation; ValidationError (422).
 */
async function prepareOutbound(
  ctx: AppContext,
  userId: number,
  input: SendMessageBody,
  files: UploadedFile[],
  extraErrors: Record<string, string[]> = {},
): Promise<PreparedOutbound> {
  const companyId = input.company_id;
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  await assertCompanyInService(ctx, companyId, 'message');

  let numberId = input.number_id;
  let recipient: string | null = null;
  if (input.conversation_id) {
    const conversation = await getCompanyConversationRow(ctx, companyId, input.conversation_id);
    await assertNumberInScope(ctx, userId, companyId, conversation.number_id);
    numberId = conversation.number_id;
    recipient = conversation.recipient;
  }
  const errors: Record<string, string[]> = { ...extraErrors };
  if (!recipient) {
    if (!input.to?.trim()) errors.to = ['The to field is required.'];
    else {
      recipient = parsePhone(input.to);
      if (!recipient) errors.to = ['The to must be a valid phone number.'];
    }
  }
  if (!numberId) errors.number_id = ['The number id field is required.'];
  const content = input.content ?? '';
  const isMms = files.length > 0;
  if (!content.trim() && !isMms) errors.content = ['The content field is required when no media is attached.'];
  else if (isMms ? content.length > MMS_MAX_LENGTH : content.length > SMS_MAX_LENGTH) errors.content = [isMms ? MMS_TOO_LONG : SMS_TOO_LONG];
  if (Object.keys(errors).length) throw new ValidationError(errors);

  let number;
  try {
    number = await getCompanyNumber(ctx, companyId, numberId!);
  } catch (e) {
    if (e instanceof NotFoundError) throw fieldError('number_id', 'The selected number id is invalid.');
    throw e;
  }
  // A `user` sends only from the numbers assigned to them (docs/permissions.md "Numbers a user sees").
  await assertNumberInScope(ctx, userId, companyId, number.id);
  const contact = await findContactByNumber(ctx, companyId, recipient!);
  if (contact?.is_unsubscribed) throw fieldError('to', RECIPIENT_UNSUBSCRIBED);

  const media = (await storeUploads(ctx.blobs, companyId, 'mms', files)).map((u) => ({ url: u.url, contentType: u.contentType }));
  return { companyId, numberId: number.id, recipient: recipient!, content, media };
}

/**
 * `POST /api/message`: validates, stores the outbound item (`sending`) and enqueues its delivery
 * in one transaction, then publishes `conversation updated`.
 * Recipient: `conversation_id` (the conversation's number and party), or `number_id` + `to`.
 * @returns the stored item (201).
 * @throws ForbiddenError (403) without an agent role in the company, or from a number not assigned
 *   to a `user` (docs/permissions.md "Numbers a user sees"); AppError 422 `{message}` when the account
 *   is parked or deactivated (numbers/service-state.ts); NotFoundError (404) for
 *   another company's conversation; ValidationError (422) on `content` (empty without media, over
 *   1000 characters: "Max 1000 characters per SMS"/"...MMS"), `to` (invalid, or an unsubscribed
 *   contact: domain RECIPIENT_UNSUBSCRIBED), `number_id` (missing or not the company's).
 */
export async function sendMessage(ctx: AppContext, userId: number, input: SendMessageBody, files: UploadedFile[]): Promise<ConversationItem> {
  const out = await prepareOutbound(ctx, userId, input, files);
  const item = await ctx.db.transaction().execute(async (tx) => {
    const { item: row } = await appendOutboundMessage(ctx, tx, {
      companyId: out.companyId,
      numberId: out.numberId,
      recipient: out.recipient,
      body: out.content,
      media: out.media,
      userId,
    });
    await ctx.queue.enqueue(SEND_MESSAGE_JOB, { itemId: row.id }, { singletonKey: `send-${row.id}` }, tx);
    return row;
  });
  await publishConversationUpdated(ctx, out.companyId, item.conversation_id, item);
  return toConversationItem(item);
}

/**
 * `POST /api/inbox/message/schedule`: the checks of `POST /message` plus `shouldBeSentAt` (ISO,
 * in the future). Stores an item of type `scheduledmessage` (shown in the thread with its time)
 * and enqueues `messages.send-scheduled` with `startAfter` = that time, in one transaction.
 * @returns the stored item (201). @throws as sendMessage; 422 on `shouldBeSentAt`.
 */
export async function scheduleMessage(ctx: AppContext, userId: number, input: ScheduleMessageBody, files: UploadedFile[]): Promise<ConversationItem> {
  const at = new Date(input.shouldBeSentAt);
  const errors: Record<string, string[]> = {};
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d\d-\d\d/.test(input.shouldBeSentAt.trim()))
    errors.shouldBeSentAt = ['The should be sent at is not a valid date.'];
  else if (at.getTime() <= Date.now()) errors.shouldBeSentAt = ['The should be sent at must be a date after now.'];
  const out = await prepareOutbound(ctx, userId, input, files, errors);
  const item = await ctx.db.transaction().execute(async (tx) => {
    const { item: row } = await scheduleOutboundMessage(ctx, tx, {
      companyId: out.companyId,
      numberId: out.numberId,
      recipient: out.recipient,
      body: out.content,
      media: out.media,
      userId,
      sendAt: at,
    });
    await ctx.queue.enqueue(SEND_SCHEDULED_JOB, { itemId: row.id }, { singletonKey: `scheduled-${row.id}`, startAfter: at }, tx);
    return row;
  });
  await publishConversationUpdated(ctx, out.companyId, item.conversation_id, item);
  return toConversationItem(item);
}

/**
 * `DELETE /api/inbox/message/schedule/{id}`: cancels a scheduled message that has not gone out
 * (the item is deleted; its job then finds nothing). Publishes.
 * @throws NotFoundError (404) when it is no scheduled message of the caller's companies;
 *   403 without an agent role; ConflictError (409) when it was already sent.
 */
export async function cancelScheduledMessage(ctx: AppContext, userId: number, itemId: number): Promise<void> {
  const found = await findItem(ctx, itemId);
  if (!found || (found.type !== 'scheduledmessage' && found.should_be_sent_at === null)) throw new NotFoundError('Scheduled message');
  try {
    await assertCompanyAccess(ctx, userId, found.company_id);
  } catch (e) {
    if (e instanceof ForbiddenError) throw new NotFoundError('Scheduled message');
    throw e;
  }
  await assertCompanyAccess(ctx, userId, found.company_id, AGENT_ROLES);
  await ctx.db.transaction().execute((tx) => withdrawScheduledMessage(ctx, tx, itemId));
  await publishConversationUpdated(ctx, found.company_id, found.conversation_id);
}

/**
 * Job `messages.send-scheduled` {itemId} (runs at `shouldBeSentAt`): turns the scheduled item into
 * an ordinary outbound message (`sending`, created now, so it sorts at its send time) and hands it
 * to the carrier through `deliverMessage`. When the contact unsubscribed meanwhile, the item becomes
 * `failed` with 21610 (Recipient has opted out) and nothing is sent; when the account is parked or
 * deactivated, `failed` with 30002 (Account suspended). Idempotent: a cancelled item is
 * gone; a converted one is only delivered while still `sending` without carrier SID.
 */
export async function sendScheduledMessage(ctx: AppContext, data: { itemId: number }): Promise<void> {
  const scheduled = await findItem(ctx, data.itemId);
  if (!scheduled) return;
  // Due while the account is parked or deactivated: the item fails with 30002 "Account suspended" (nothing is sent).
  const outOfService = !(await isCompanyInService(ctx, scheduled.company_id));
  const converted = (await ctx.db.transaction().execute((tx) => releaseScheduledMessage(ctx, tx, data.itemId, { outOfService }))).item;
  if (!converted) return;
  if (converted.type === 'message' && converted.delivery_state === 'sending' && !converted.carrier_sid) {
    await publishConversationUpdated(ctx, converted.company_id, converted.conversation_id, converted);
    await deliverMessage(ctx, { itemId: converted.id });
  } else if (converted.delivery_state === 'failed') {
    await publishConversationUpdated(ctx, converted.company_id, converted.conversation_id, converted);
  }
}

/**
 * Inside the delivery update's transaction: records `message.status-changed` (campaign counters and other reactions;
 * the outbox), leased to this process: both callers dispatch it after commit (`announceDelivery`).
 */
function recordDelivery(ctx: AppContext, tx: DbOrTx, updated: ItemRow): Promise<Emitted> {
  return events.emit(
    tx,
    'message.status-changed',
    {
      companyId: updated.company_id,
      conversationId: updated.conversation_id,
      itemId: updated.id,
      carrierSid: updated.carrier_sid,
      state: updated.delivery_state,
      errorCode: updated.error_code,
      campaignId: null,
    },
    { leaseTo: ctx.queue.workerId },
  );
}

/** After a delivery update committed: dispatches its `message.status-changed` (its `conversations.live` consumer sends `conversation updated`). */
async function announceDelivery(ctx: AppContext, _updated: ItemRow, emitted: Emitted): Promise<void> {
  await events.dispatch(ctx, emitted);
}

/** Applies a delivery update to an item in a transaction of its own (the inbox's `applyDeliveryUpdate`) and announces it after commit when something changed. */
async function updateDelivery(ctx: AppContext, target: DeliveryTarget, update: DeliveryUpdate): Promise<ItemRow | null> {
  const { updated, emitted } = await ctx.db.transaction().execute(async (tx) => {
    const r = await applyDeliveryUpdate(ctx, tx, target, update);
    return { updated: r.updated, emitted: r.updated ? await recordDelivery(ctx, tx, r.updated) : undefined };
  });
  if (updated && emitted) await announceDelivery(ctx, updated, emitted);
  return updated;
}

/**
 * Job `messages.send` {itemId}: hands an outbound item to the carrier. Skips items already
 * handed over (carrier SID stored) or no longer `sending`; an item of an account parked or
 * deactivated meanwhile fails with 30002 "Account suspended" (nothing is sent). The status callback URL carries the
 * item id so callbacks that overtake the SID's storage still find the item.
 * A CarrierError marks the item `failed` with the carrier's code; other errors are thrown (retry).
 */
export async function deliverMessage(ctx: AppContext, data: { itemId: number }): Promise<void> {
  const item = await findItem(ctx, data.itemId);
  if (!item || item.carrier_sid || item.delivery_state !== 'sending' || item.is_inbound) return;
  const conversation = await getConversationRow(ctx, item.conversation_id);
  if (!conversation) return;
  if (!(await isCompanyInService(ctx, conversation.company_id))) {
    // Parked or deactivated since it was queued (docs/accounts.md "Account status"): nothing goes out.
    await updateDelivery(ctx, { itemId: item.id }, { state: 'failed', errorCode: ACCOUNT_SUSPENDED_ERROR_CODE });
    return;
  }
  let from: string;
  try {
    from = (await getCompanyNumber(ctx, conversation.company_id, conversation.number_id)).number;
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
    await updateDelivery(ctx, { itemId: item.id }, { state: 'failed' });
    return;
  }
  try {
    const res = await ctx.carrier.sendMessage({
      from,
      to: conversation.recipient,
      body: item.body ?? '',
      mediaUrls: item.media.map((m) => ctx.blobs.carrierUrl(m.url)), // signed: the carrier has no session
      statusCallback: ctx.carrier.webhookUrl('messaging.status', { item: item.id }),
    });
    await updateDelivery(ctx, { itemId: item.id }, { carrierSid: res.sid, state: ctx.carrier.messageState(res.status) ?? 'queued' });
  } catch (e) {
    if (!(e instanceof CarrierError)) throw e;
    ctx.log.warn({ err: e, itemId: item.id }, 'carrier refused message');
    await updateDelivery(ctx, { itemId: item.id }, { state: 'failed', errorCode: e.code ?? null });
  }
}

/**
 * Status callback (parsed by `carrier.parseMessageStatus`) inside `handleOnce`'s transaction, with
 * our `item` query parameter. Moves the state forward only; unknown messages change nothing.
 */
export async function applyMessageStatus(ctx: AppContext, tx: DbOrTx, p: MessageStatusEvent, itemIdParam: number | null): Promise<WebhookOutcome> {
  const response = ctx.carrier.renderMessaging();
  const { found, updated } = await applyDeliveryUpdate(
    ctx,
    tx,
    { carrierSid: p.sid, itemId: itemIdParam },
    { carrierSid: p.sid, state: p.state ?? undefined, errorCode: p.errorCode },
  );
  if (!found) {
    ctx.log.warn({ sid: p.sid }, 'status callback for an unknown message ignored');
    return { response };
  }
  if (!updated) return { response };
  const emitted = await recordDelivery(ctx, tx, updated);
  return { response, afterCommit: () => announceDelivery(ctx, updated, emitted) };
}
