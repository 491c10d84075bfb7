/**
 * The consumer area's profile, invitations, reviews, support, activity of a number and account deletion
 * (spec 002 "Consumer area"; docs/consumer-area.md).
 * - Invitations: `POST /caddy/invitations {phoneNumber}` texts a link to the app from the product's sender number
 *   (MFA_SMS_FROM) with "Reply STOP to opt out"; limits: INVITES_PER_DAY per account per day, one invitation per
 *   recipient per RECIPIENT_SPACING_DAYS from anyone, never to an account's own number or an existing account, never to
 *   a number that opted out (a STOP reply to the sender, or `optOutInvitations`). A person who signs up with an invited
 *   number shows as joined.
 * - Reviews: one per account (a second POST edits it).
 * - Support: uploads of at most CADDY_UPLOAD_MAX_BYTES of the types CADDY_UPLOAD_TYPES (checked by the bytes' own
 *   signature, not only the declared type), stored in the blob store under `caddy-support/`, served only to operators
 *   (`GET /api/caddy/support/files/{id}`); a customer report carries text and up to 5 files.
 * - Deletion: releases the numbers, deletes the inbox threads of the account's company, its call recordings and
 *   voicemails with their audio (the calls module's `deleteCompanyRecordings`), the account's rows, sessions and
 *   uploads, sets its calling user away, closes its live connections, and records `caddy.account.deleted` in the audit log; the store subscription is not cancelled (the
 *   answer says so).
 */
import { randomUUID } from 'node:crypto';
import {
  CADDY_INVITATIONS_PER_PAGE,
  CADDY_MESSAGES,
  CADDY_PLAN_LIMITS,
  CADDY_UPLOAD_MAX_BYTES,
  CADDY_UPLOAD_TYPES,
  type ConversationItem,
} from '@switchboard/contracts';
import { parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { fieldError, NotFoundError, RateLimitedError } from '../../platform/http/errors.js';
import type { UploadedFile } from '../../platform/http/multipart.js';
import { recordAudit } from '../audit/audit.service.js';
import { deleteConversationMessages, listConversationItems, listConversations } from '../conversations/conversations.service.js';
import { sendMessage } from '../messaging/messaging.service.js';
import { planOf, profileOf, serviceUserId } from './caddy.accounts.js';
import { releaseAllNumbers } from './caddy.numbers.js';
import { caddyRepository, type CaddyAccountRow } from './caddy.repository.js';
import { assertTextAllowed, CADDY_NAMESPACE, caddyChannel } from './caddy.usage.js';
import { callingUserEmail } from './caddy.calling.js';
import { deleteCompanyRecordings } from '../calls/calls.service.js';
import { findUserByEmail, setInAppCallingStatus } from '../users/users.service.js';

/** Invitations an account may send per day. */
export const INVITES_PER_DAY = 10;
/** Days between two invitations to one phone number (from anyone). */
export const RECIPIENT_SPACING_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;

/** `GET /caddy/profile`. */
export function getProfile(account: CaddyAccountRow) {
  return { data: profileOf(account, CADDY_PLAN_LIMITS[planOf(account.plan)].label) };
}

/** `PUT /caddy/profile {name}`. */
export async function updateProfile(ctx: AppContext, account: CaddyAccountRow, input: { name: string }) {
  await caddyRepository.updateAccount(ctx.db, account.id, { name: input.name });
  return { message: CADDY_MESSAGES.profileSaved };
}

function toInvitation(r: { id: number; phone_number: string; joined_account_id: number | null; joined_at: Date | null; created_at: Date }) {
  return {
    id: r.id,
    phoneNumber: r.phone_number,
    status: r.joined_account_id ? ('joined' as const) : ('sent' as const),
    joinedAt: r.joined_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
  };
}

/** The link an invitation carries (the consumer sign-up screen). */
export function invitationLink(ctx: AppContext): string {
  return `${ctx.config.publicUrl.replace(/\/+$/, '')}/caddy/signup`;
}

/**
 * `POST /caddy/invitations {phoneNumber}`: texts an invitation (see the module doc for the limits).
 * @throws ValidationError (422 `phoneNumber`): not a phone number, the caller's own, already a member, opted out,
 *   invited in the last 7 days; RateLimitedError (429) over INVITES_PER_DAY.
 */
export async function invite(ctx: AppContext, account: CaddyAccountRow, phoneNumber: string) {
  const phone = parsePhone(phoneNumber);
  if (!phone) throw fieldError('phoneNumber', 'The phone number is not a valid phone number.');
  const own = await caddyRepository.listNumbers(ctx.db, account.id);
  if (phone === account.phone || own.some((n) => n.number === phone)) throw fieldError('phoneNumber', 'You cannot invite your own number.');
  if (await caddyRepository.findByPhone(ctx.db, phone)) throw fieldError('phoneNumber', 'This person already has an account.');
  if (await caddyRepository.isOptedOut(ctx.db, phone)) throw fieldError('phoneNumber', 'This number asked not to receive invitations.');
  const now = Date.now();
  if ((await caddyRepository.countInvitationsSince(ctx.db, { accountId: account.id }, new Date(now - DAY_MS))) >= INVITES_PER_DAY) {
    throw new RateLimitedError(3600, `You can send ${INVITES_PER_DAY} invitations a day. Try again tomorrow.`);
  }
  if ((await caddyRepository.countInvitationsSince(ctx.db, { phone }, new Date(now - RECIPIENT_SPACING_DAYS * DAY_MS))) > 0) {
    throw fieldError('phoneNumber', `This number was invited in the last ${RECIPIENT_SPACING_DAYS} days.`);
  }
  const row = await caddyRepository.insertInvitation(ctx.db, account.id, phone);
  const who = account.name.trim() || 'A friend';
  await ctx.carrier
    .sendMessage({
      from: ctx.config.mfaSmsFrom,
      to: phone,
      body: `${who} invited you to Caddy, a second phone number for calls and texts: ${invitationLink(ctx)} Reply STOP to opt out.`,
      mediaUrls: [],
      statusCallback: ctx.carrier.webhookUrl('messaging.status', { purpose: 'caddy' }),
    })
    .catch((error: unknown) => ctx.log.warn({ err: error }, 'caddy: invitation text not sent'));
  return { message: CADDY_MESSAGES.invitationSent, data: toInvitation(row) };
}

/** `GET /caddy/invitations?page&perPage` (default page 1, perPage 1000): newest first, with who joined. */
export async function listInvitations(ctx: AppContext, account: CaddyAccountRow, q: { page: number; perPage: number }) {
  const perPage = Math.min(q.perPage, CADDY_INVITATIONS_PER_PAGE);
  const [rows, total] = await Promise.all([
    caddyRepository.listInvitations(ctx.db, account.id, perPage, (q.page - 1) * perPage),
    caddyRepository.countInvitations(ctx.db, account.id),
  ]);
  return { data: rows.map(toInvitation), meta: { current_page: q.page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) } };
}

/** Records that `phone` asked for no more invitations (a STOP reply; docs/consumer-area.md "Invitations"). */
export async function optOutInvitations(ctx: AppContext, phone: string): Promise<void> {
  await caddyRepository.optOut(ctx.db, phone);
}

/** `caddy.invitations` on `message.received`: a STOP to the sender number opts the number out, START back in. */
export async function onInboundKeyword(ctx: AppContext, p: { keyword: 'opt-out' | 'opt-in' | 'help' | null; from: string }): Promise<void> {
  const phone = parsePhone(p.from);
  if (!phone) return;
  if (p.keyword === 'opt-out') await caddyRepository.optOut(ctx.db, phone);
  else if (p.keyword === 'opt-in') await caddyRepository.optIn(ctx.db, phone);
}

function toReview(r: { rating: number; comment: string; created_at: Date; updated_at: Date }) {
  return { rating: r.rating, comment: r.comment, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() };
}

/** `GET /caddy/reviews`: the account's review, or null. */
export async function getReview(ctx: AppContext, account: CaddyAccountRow) {
  const r = await caddyRepository.findReview(ctx.db, account.id);
  return { data: r ? toReview(r) : null };
}

/** `POST /caddy/reviews {rating, comment}`: creates the account's one review, or edits it. */
export async function saveReview(ctx: AppContext, account: CaddyAccountRow, input: { rating: number; comment: string }) {
  const r = await caddyRepository.upsertReview(ctx.db, account.id, input.rating, input.comment);
  return { message: CADDY_MESSAGES.reviewSaved, data: toReview(r) };
}

/** The type of a file by its first bytes (null: none of the allowed types). */
export function sniffType(data: Buffer): (typeof CADDY_UPLOAD_TYPES)[number] | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => data[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (starts([0x25, 0x50, 0x44, 0x46])) return 'application/pdf';
  // Plain text: valid UTF-8 without NUL bytes.
  if (!data.includes(0) && Buffer.from(data.toString('utf8'), 'utf8').equals(data)) return 'text/plain';
  return null;
}

/**
 * Stores one support file. @throws ValidationError (422 `file`): none, too large, or a type not allowed.
 */
export async function storeSupportFile(ctx: AppContext, account: CaddyAccountRow, file: UploadedFile | undefined, field = 'file') {
  if (!file) throw fieldError(field, 'Choose a file to upload.');
  if (file.data.length > CADDY_UPLOAD_MAX_BYTES) throw fieldError(field, 'The file may not be greater than 10 MB.');
  const type = sniffType(file.data);
  if (!type) throw fieldError(field, 'The file must be an image (PNG, JPEG, GIF, WebP), a PDF or a text file.');
  const key = `caddy-support/${account.id}/${randomUUID()}`;
  await ctx.blobs.put(key, file.data);
  const row = await caddyRepository.insertFile(ctx.db, {
    account_id: account.id,
    blob_key: key,
    filename: file.filename.slice(0, 200) || 'file',
    content_type: type,
    size: file.data.length,
  });
  return { id: row.id, filename: row.filename, contentType: row.content_type, size: row.size };
}

/** `POST /caddy/support/upload-file` (multipart `file`). */
export async function uploadSupportFile(ctx: AppContext, account: CaddyAccountRow, file: UploadedFile | undefined) {
  return { message: CADDY_MESSAGES.fileUploaded, data: await storeSupportFile(ctx, account, file) };
}

/**
 * `POST /caddy/support/customer-report` (multipart: subject, message, email?, files[], fileIds[]): records the report
 * with its files (new ones and earlier uploads of the account) and e-mails support.
 * @throws ValidationError (422) on a file (see storeSupportFile) or an unknown file id.
 */
export async function customerReport(
  ctx: AppContext,
  account: CaddyAccountRow,
  input: { subject: string; message: string; email?: string; fileIds: string[] },
  files: UploadedFile[],
) {
  if (files.length + input.fileIds.length > 5) throw fieldError('files', 'Attach at most 5 files.');
  const earlier = await caddyRepository.findFiles(ctx.db, account.id, input.fileIds);
  if (earlier.length !== input.fileIds.length) throw fieldError('fileIds', 'A file id is not one of your uploads.');
  const stored: Array<{ id: string }> = [];
  for (const [i, f] of files.entries()) stored.push(await storeSupportFile(ctx, account, f, `files.${i}`));
  const email = input.email ?? account.email;
  const id = await ctx.db.transaction().execute(async (tx) => {
    const reportId = await caddyRepository.insertReport(tx, { account_id: account.id, email: email ?? null, subject: input.subject, message: input.message });
    await caddyRepository.attachFiles(tx, [...input.fileIds, ...stored.map((s) => s.id)], reportId);
    await ctx.mailer.send(
      {
        to: ctx.config.supportEmail,
        subject: `Consumer report #${reportId}: ${input.subject}`,
        text: `Account ${account.id} (${email ?? account.phone ?? 'no contact'}) wrote:\n\n${input.message}\n\nFiles: ${stored.length + earlier.length} (operators: GET /api/caddy/support/files/{id})`,
      },
      tx,
    );
    return reportId;
  });
  return { message: CADDY_MESSAGES.reportSent, data: { id, files: stored.length + earlier.length } };
}

/** An uploaded support file for an operator. @throws NotFoundError (404). */
export async function supportFile(ctx: AppContext, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFoundError('File');
  const row = await caddyRepository.findFile(ctx.db, id);
  const data = row ? await ctx.blobs.get(row.blob_key) : null;
  if (!row || !data) throw new NotFoundError('File');
  return { filename: row.filename, contentType: row.content_type, data };
}

/** The recent calls and texts of one of the account's numbers (newest first, at most 50). @throws NotFoundError (404). */
export async function numberActivity(ctx: AppContext, account: CaddyAccountRow, caddyNumberId: number) {
  const n = (await caddyRepository.listNumbers(ctx.db, account.id)).find((r) => r.id === caddyNumberId);
  if (!n) throw new NotFoundError('Number');
  const owner = await serviceUserId(ctx);
  const threads = await listConversations(ctx, owner, account.company_id, { perPage: 20, isArchived: false, numberIds: [n.number_id] });
  const items: Array<{ item: ConversationItem; other: string }> = [];
  for (const t of threads.data) {
    const page = await listConversationItems(ctx, owner, account.company_id, t.id, { perPage: 20 });
    for (const item of page.data) items.push({ item, other: t.recipient });
  }
  items.sort((a, b) => b.item.createdAt.localeCompare(a.item.createdAt));
  return {
    data: items
      .filter(({ item }) => ['message', 'call', 'voicemail', 'sms', 'mms'].includes(item.details.type))
      .slice(0, 50)
      .map(({ item, other }) => ({
        id: item.id,
        kind: item.details.type === 'call' ? ('call' as const) : item.details.type === 'voicemail' ? ('voicemail' as const) : ('message' as const),
        direction: item.isInbound ? ('inbound' as const) : ('outbound' as const),
        otherParty: other,
        body: item.details.content,
        durationS: item.details.durationS,
        at: item.createdAt,
      })),
  };
}

/**
 * Sends a text from one of the account's active numbers through the product's messaging (the same path as the inbox).
 * @throws NotFoundError (404); ValidationError (422): an inactive number, the plan's texts used up (a clear message).
 */
export async function sendText(ctx: AppContext, account: CaddyAccountRow, caddyNumberId: number, input: { to: string; body: string }) {
  const n = (await caddyRepository.listNumbers(ctx.db, account.id)).find((r) => r.id === caddyNumberId);
  if (!n) throw new NotFoundError('Number');
  if (!n.is_active) throw fieldError('to', 'This number is inactive. Activate it to send texts.');
  await assertTextAllowed(ctx, account);
  const item = await sendMessage(
    ctx,
    await serviceUserId(ctx),
    { company_id: account.company_id, number_id: n.number_id, to: input.to, content: input.body },
    [],
  );
  return { message: 'Your text was sent.', data: { id: item.id } };
}

/**
 * `DELETE /caddy/accounts`: deletes the account (see the module doc). The audit entry is written before the rows go.
 */
export async function deleteAccount(ctx: AppContext, account: CaddyAccountRow, request: { ip: string; userAgent: string | null }) {
  const released = await releaseAllNumbers(ctx, account.id);
  const owner = await serviceUserId(ctx);
  let threads = 0;
  for (let round = 0; round < 50; round++) {
    const page = await listConversations(ctx, owner, account.company_id, { perPage: 100, isArchived: false });
    const archived = await listConversations(ctx, owner, account.company_id, { perPage: 100, isArchived: true });
    const all = [...page.data, ...archived.data];
    let removed = 0;
    for (const c of all) removed += (await deleteConversationMessages(ctx, owner, account.company_id, c.id)).deleted;
    threads += all.length;
    if (removed === 0 || (!page.meta.next_cursor && !archived.meta.next_cursor)) break;
  }
  // Call recordings and voicemails of the account's company, with their audio (the calls module owns them).
  const recordings = await deleteCompanyRecordings(ctx, account.company_id);
  const callingUser = await findUserByEmail(ctx, callingUserEmail(account.id));
  if (callingUser) await setInAppCallingStatus(ctx, callingUser.id, 'away');
  const files = await caddyRepository.filesOfAccount(ctx.db, account.id);
  for (const f of files) await ctx.blobs.delete(f.blob_key);
  await ctx.db.transaction().execute(async (tx) => {
    await recordAudit(
      ctx,
      {
        company_id: account.company_id,
        actor_kind: 'system',
        actor_user_id: null,
        actor_name: `Consumer account ${account.id}`,
        api_key_id: null,
        operator_user_id: null,
        action: 'caddy.account.deleted',
        entity_type: 'caddy_account',
        entity_id: String(account.id),
        method: 'DELETE',
        path: '/api/caddy/accounts',
        status_code: 200,
        outcome: 'success',
        changes: {
          numbersReleased: released,
          threadsCleared: threads,
          recordingsDeleted: recordings.recordings,
          voicemailsDeleted: recordings.voicemails,
          files: files.length,
          storeSubscription: account.subscription_status,
        },
        ip: request.ip,
        user_agent: request.userAgent,
      },
      tx,
    );
    await caddyRepository.deleteAccount(tx, account.id);
  });
  ctx.realtime.disconnectIn(CADDY_NAMESPACE, caddyChannel(account.id));
  return { message: CADDY_MESSAGES.accountDeleted };
}
