/**
 * SMS/MMS through the carrier port (issue 2 "Calls and messages through the carrier port";
 * spec 001 §5 message length, §7 "POST /message").
 *
 * - Inbound (`POST /webhooks/twilio/messaging`): `receiveInboundMessage` continues or starts
 *   the conversation of (business number, sender), stores the message and schedules copying its
 *   media into our blob store (`messages.fetch-media`).
 * - Outbound (`POST /api/message`): `sendMessage` stores the item as `sending` and enqueues
 *   `messages.send` in the same transaction; `deliverMessage` (the job) hands it to the carrier.
 * - Status callbacks (`POST /webhooks/twilio/messaging/status`): `applyMessageStatus` moves the
 *   delivery state forward only (queued → sent → delivered | undelivered | failed).
 * Live `conversation updated` events are published after each commit.
 */
import { randomUUID } from 'node:crypto';
import { type ConversationItem, type SendMessageBody } from '@switchboard/contracts';
import { MMS_MAX_LENGTH, MMS_TOO_LONG, SMS_MAX_LENGTH, SMS_TOO_LONG, parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { CarrierError, NotFoundError, ValidationError, fieldError } from '../../platform/http/errors.js';
import type { WebhookOutcome } from '../../platform/http/webhooks.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { findContactByNumber, setContactUnsubscribed } from '../contacts/contacts.service.js';
import {
  addConversationItem, advanceDeliveryState, getCompanyConversationRow, getConversationRow, getItemByCarrierSid, getItemById,
  publishConversationUpdated, setItemMedia, startConversation, toConversationItem, type ItemRow,
} from '../conversations/conversations.service.js';
import { findNumberByE164, getCompanyNumber } from '../numbers/numbers.service.js';

export const SEND_MESSAGE_JOB = 'messages.send';
export const FETCH_MEDIA_JOB = 'messages.fetch-media';
/** Path of the delivery-status webhook (the carrier posts MessageStatus here). */
export const STATUS_CALLBACK_PATH = '/webhooks/twilio/messaging/status';

/** Carrier opt-out / opt-in keywords (the carrier's standard list); the contact's subscription follows them. */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const OPT_IN = new Set(['START', 'YES', 'UNSTOP']);

export type UploadedFile = { filename: string; mimetype: string; data: Buffer };

/** Carrier MessageStatus → our delivery state (carrier 'sending' is still in flight: our 'sending'). */
export function mapCarrierStatus(status: string): string | null {
  switch (status.toLowerCase()) {
    case 'accepted': case 'scheduled': case 'queued': return 'queued';
    case 'sending': return 'sending';
    case 'sent': return 'sent';
    case 'delivered': case 'read': return 'delivered';
    case 'undelivered': return 'undelivered';
    case 'failed': case 'canceled': return 'failed';
    default: return null;
  }
}

function intOrNull(v: string | undefined): number | null {
  if (v === undefined || v === '') return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : null;
}

// ---------------------------------------------------------------------------------------------
// Inbound
// ---------------------------------------------------------------------------------------------

/**
 * Handles one inbound SMS/MMS webhook inside `handleOnce`'s transaction (`tx`).
 * Twilio form fields: MessageSid, From, To, Body, NumMedia, MediaUrl{i}, MediaContentType{i}.
 * A `To` that is not one of our active numbers stores nothing. Answers an empty MessagingResponse.
 */
export async function receiveInboundMessage(ctx: AppContext, tx: DbOrTx, p: Record<string, string>): Promise<WebhookOutcome> {
  const response = ctx.carrier.renderMessaging();
  const number = p.To ? await findNumberByE164(ctx, parsePhone(p.To) ?? p.To) : undefined;
  if (!number || !p.MessageSid) {
    ctx.log.warn({ to: p.To, sid: p.MessageSid }, 'inbound message for an unknown number ignored');
    return { response };
  }
  const from = parsePhone(p.From ?? '') ?? (p.From ?? '').trim();
  const numMedia = Math.min(intOrNull(p.NumMedia) ?? 0, 10);
  const media: { url: string; contentType: string }[] = [];
  for (let i = 0; i < numMedia; i++) {
    const url = p[`MediaUrl${i}`];
    if (url) media.push({ url, contentType: p[`MediaContentType${i}`] || 'application/octet-stream' });
  }
  const conversation = await startConversation(ctx, tx, { companyId: number.company_id, numberId: number.id, recipient: from });
  const item = await addConversationItem(ctx, tx, {
    company_id: number.company_id,
    conversation_id: conversation.id,
    type: 'message',
    is_inbound: true,
    is_read: false,
    body: p.Body ?? '',
    media,
    delivery_state: 'received',
    carrier_sid: p.MessageSid,
  });
  const keyword = (p.Body ?? '').trim().toUpperCase();
  if (conversation.contact_id !== null && (OPT_OUT.has(keyword) || OPT_IN.has(keyword))) {
    await setContactUnsubscribed(ctx, number.company_id, conversation.contact_id, OPT_OUT.has(keyword), tx);
  }
  if (media.length > 0) await ctx.queue.enqueue(FETCH_MEDIA_JOB, { itemId: item.id }, { singletonKey: `media-${item.id}` }, tx);
  return { response, afterCommit: () => publishConversationUpdated(ctx, number.company_id, conversation.id, item) };
}

function extensionFor(contentType: string, url: string): string {
  const known: Record<string, string> = { 'image/jpeg': '.jpg', 'image/jpg': '.jpg', 'image/png': '.png', 'image/gif': '.gif', 'image/webp': '.webp', 'video/mp4': '.mp4', 'audio/mpeg': '.mp3', 'text/vcard': '.vcf', 'application/pdf': '.pdf' };
  const k = known[contentType.toLowerCase()];
  if (k) return k;
  const m = /\.([a-z0-9]{1,5})(?:$|\?)/i.exec(new URL(url, 'http://x').pathname);
  return m ? `.${m[1]!.toLowerCase()}` : '.bin';
}

/**
 * Job `messages.fetch-media` {itemId}: copies an inbound item's media into our blob store
 * (`mms/{companyId}/in-{itemId}-{i}{ext}`) and points the item at our copies. Idempotent: media
 * already under our `/files/` URL are skipped and keys are deterministic.
 * @throws when a download fails (the queue retries).
 */
export async function fetchInboundMedia(ctx: AppContext, data: { itemId: number }): Promise<void> {
  const item = await getItemById(ctx, data.itemId);
  if (!item || item.media.length === 0) return;
  const ours = `${ctx.config.publicUrl}/files/`;
  let changed = false;
  const media = [];
  for (const [i, m] of item.media.entries()) {
    if (m.url.startsWith(ours)) { media.push(m); continue; }
    const headers: Record<string, string> = {};
    if (ctx.config.carrier === 'twilio' && /(^|\.)twilio\.com$/.test(new URL(m.url).hostname)) {
      headers.authorization = `Basic ${Buffer.from(`${ctx.config.twilioAccountSid}:${ctx.config.twilioAuthToken}`).toString('base64')}`;
    }
    const res = await fetch(m.url, { headers, redirect: 'follow', signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`media download failed: ${res.status} ${m.url}`);
    const key = `mms/${item.company_id}/in-${item.id}-${i}${extensionFor(m.contentType, m.url)}`;
    await ctx.blobs.put(key, Buffer.from(await res.arrayBuffer()));
    media.push({ url: ctx.blobs.url(key), contentType: res.headers.get('content-type')?.split(';')[0] || m.contentType });
    changed = true;
  }
  if (!changed) return;
  const updated = await setItemMedia(ctx, item.id, media);
  if (updated) await publishConversationUpdated(ctx, item.company_id, item.conversation_id, updated);
}

// ---------------------------------------------------------------------------------------------
// Outbound
// ---------------------------------------------------------------------------------------------

function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'file';
  return base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '').slice(-100) || 'file';
}

/**
 * `POST /api/message`: validates, stores the outbound item (`sending`) and enqueues its delivery
 * in one transaction, then publishes `conversation updated`.
 * Recipient: `conversation_id` (the conversation's number and party), or `number_id` + `to`.
 * @returns the stored item (201).
 * @throws ForbiddenError (403) without an agent role in the company; NotFoundError (404) for
 *   another company's conversation; ValidationError (422) on `content` (empty without media, over
 *   1000 characters: "Max 1000 characters per SMS"/"...MMS"), `to` (invalid or unsubscribed
 *   contact), `number_id` (missing or not the company's).
 */
export async function sendMessage(ctx: AppContext, userId: number, input: SendMessageBody, files: UploadedFile[]): Promise<ConversationItem> {
  const companyId = input.company_id;
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);

  let numberId = input.number_id;
  let recipient: string | null = null;
  if (input.conversation_id) {
    const conversation = await getCompanyConversationRow(ctx, companyId, input.conversation_id);
    numberId = conversation.number_id;
    recipient = conversation.recipient;
  }
  const errors: Record<string, string[]> = {};
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
  const contact = await findContactByNumber(ctx, companyId, recipient!);
  if (contact?.is_unsubscribed) throw fieldError('to', 'This contact has unsubscribed and cannot receive messages.');

  const media: { url: string; contentType: string }[] = [];
  for (const f of files) {
    const key = `mms/${companyId}/${randomUUID()}-${safeName(f.filename)}`;
    await ctx.blobs.put(key, f.data);
    media.push({ url: ctx.blobs.url(key), contentType: f.mimetype || 'application/octet-stream' });
  }

  const { item } = await ctx.db.transaction().execute(async (tx) => {
    const conversation = await startConversation(ctx, tx, { companyId, numberId: number.id, recipient: recipient! });
    const row = await addConversationItem(ctx, tx, {
      company_id: companyId,
      conversation_id: conversation.id,
      type: 'message',
      is_inbound: false,
      is_read: true,
      body: content,
      media,
      delivery_state: 'sending',
      user_id: userId,
    });
    await ctx.queue.enqueue(SEND_MESSAGE_JOB, { itemId: row.id }, { singletonKey: `send-${row.id}` }, tx);
    return { item: row };
  });
  await publishConversationUpdated(ctx, companyId, item.conversation_id, item);
  return toConversationItem(item);
}

/** Locks the item, applies a delivery update, and publishes after commit when something changed. */
async function updateDelivery(ctx: AppContext, itemId: number, update: { state?: string; carrierSid?: string; errorCode?: number | null }): Promise<ItemRow | null> {
  const updated = await ctx.db.transaction().execute(async (tx) => {
    const locked = await getItemById(ctx, itemId, tx, true);
    return locked ? advanceDeliveryState(ctx, tx, locked, update) : null;
  });
  if (updated) await publishConversationUpdated(ctx, updated.company_id, updated.conversation_id, updated);
  return updated;
}

/**
 * Job `messages.send` {itemId}: hands an outbound item to the carrier. Skips items already
 * handed over (carrier SID stored) or no longer `sending`. The status callback URL carries the
 * item id so callbacks that overtake the SID's storage still find the item.
 * A CarrierError marks the item `failed` with the carrier's code; other errors are thrown (retry).
 */
export async function deliverMessage(ctx: AppContext, data: { itemId: number }): Promise<void> {
  const item = await getItemById(ctx, data.itemId);
  if (!item || item.carrier_sid || item.delivery_state !== 'sending' || item.is_inbound) return;
  const conversation = await getConversationRow(ctx, item.conversation_id);
  if (!conversation) return;
  let from: string;
  try {
    from = (await getCompanyNumber(ctx, conversation.company_id, conversation.number_id)).number;
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
    await updateDelivery(ctx, item.id, { state: 'failed' });
    return;
  }
  try {
    const res = await ctx.carrier.sendMessage({
      from,
      to: conversation.recipient,
      body: item.body ?? '',
      mediaUrls: item.media.map((m) => m.url),
      statusCallback: `${ctx.config.publicUrl}${STATUS_CALLBACK_PATH}?item=${item.id}`,
    });
    await updateDelivery(ctx, item.id, { carrierSid: res.sid, state: mapCarrierStatus(res.status) ?? 'queued' });
  } catch (e) {
    if (!(e instanceof CarrierError)) throw e;
    ctx.log.warn({ err: e, itemId: item.id }, 'carrier refused message');
    await updateDelivery(ctx, item.id, { state: 'failed', errorCode: e.code ?? null });
  }
}

/**
 * Status callback inside `handleOnce`'s transaction: MessageSid, MessageStatus, ErrorCode and our
 * `item` query parameter. Moves the state forward only; unknown messages change nothing.
 */
export async function applyMessageStatus(ctx: AppContext, tx: DbOrTx, p: Record<string, string>, itemIdParam: number | null): Promise<WebhookOutcome> {
  const response = ctx.carrier.renderMessaging();
  const sid = p.MessageSid ?? p.SmsSid;
  if (!sid) return { response };
  let item = await getItemByCarrierSid(ctx, sid, tx, true);
  if (!item && itemIdParam) {
    const byId = await getItemById(ctx, itemIdParam, tx, true);
    if (byId && !byId.is_inbound && (byId.carrier_sid === null || byId.carrier_sid === sid)) item = byId;
  }
  if (!item) {
    ctx.log.warn({ sid }, 'status callback for an unknown message ignored');
    return { response };
  }
  const state = mapCarrierStatus(p.MessageStatus ?? p.SmsStatus ?? '');
  const updated = await advanceDeliveryState(ctx, tx, item, { carrierSid: sid, state: state ?? undefined, errorCode: intOrNull(p.ErrorCode) });
  if (!updated) return { response };
  return { response, afterCommit: () => publishConversationUpdated(ctx, updated.company_id, updated.conversation_id, updated) };
}
