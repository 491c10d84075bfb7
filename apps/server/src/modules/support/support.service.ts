/**
 * Support tickets (spec 002 "Support": `POST /contact/support-ticket/{companyId}`, multipart: message,
 * callback_number, callback_requested, attachments, page_url; docs/workspace.md "Support"). A ticket is stored, its
 * attachments kept in the company's blob space, and it is mailed (in the same transaction, through the mail outbox)
 * to the support address of the company's tenant (`tenant` module; the default tenant's otherwise), listing the
 * attachments with links valid 7 days. Any active member may send one; each sees their own tickets.
 */
import { SUPPORT_ATTACHMENTS_MAX, SUPPORT_TICKET_SENT, SupportTicketFields, type SupportTicket } from '@switchboard/contracts';
import { parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { EMAIL_URL_TTL_MS } from '../../platform/blob.js';
import { storeUploads } from '../../platform/blob/upload.js';
import { ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import type { MultipartForm } from '../../platform/http/multipart.js';
import { assertCompanyAccess, getCompanySummary } from '../companies/companies.service.js';
import { tenantSupportAddress } from '../tenant/tenant.service.js';
import { findUser } from '../users/users.service.js';
import { supportRepository as repo, type SupportTicketRow } from './support.repository.js';

/** Largest attachment, in bytes (10 MB). */
export const SUPPORT_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

function dto(ctx: AppContext, r: SupportTicketRow): SupportTicket {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    message: r.message,
    callbackRequested: r.callback_requested,
    callbackNumber: r.callback_number,
    pageUrl: r.page_url,
    attachments: r.attachments.map((a) => ({ name: a.name, contentType: a.contentType, size: a.size, url: ctx.blobs.url(a.key) })),
    sentTo: r.sent_to,
    createdAt: r.created_at.toISOString(),
  };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** A page address as sent by the app: an http(s) URL or an app path. */
function cleanPageUrl(v: string | undefined): string | null | false {
  if (!v) return null;
  if (v.startsWith('/')) return v;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : false;
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw error;
  }
}

/**
 * `POST /contact/support-ticket/{companyId}`: validates the form (message required; a callback number, a valid phone
 * number, required when a callback is requested; at most {@link SUPPORT_ATTACHMENTS_MAX} attachments of
 * {@link SUPPORT_ATTACHMENT_MAX_BYTES}), stores the attachments and the ticket and mails it.
 * @throws ForbiddenError 403 outside the company, ValidationError 422 with field errors.
 */
export async function createSupportTicket(
  ctx: AppContext,
  userId: number,
  companyId: number,
  form: MultipartForm,
  userAgent: string | undefined,
): Promise<{ message: string; data: SupportTicket }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const raw = {
    message: first(form.fields.message) ?? '',
    callback_requested: first(form.fields.callback_requested),
    callback_number: first(form.fields.callback_number),
    page_url: first(form.fields.page_url),
  };
  const parsed = SupportTicketFields.safeParse(raw);
  const errors: FieldErrors = {};
  if (!parsed.success) for (const i of parsed.error.issues) (errors[String(i.path[0] ?? 'message')] ??= []).push(i.message);
  const f = parsed.success ? parsed.data : null;
  // The callback and page rules are checked whatever else failed, so every field's error shows at once.
  const wantsCallback = f ? f.callback_requested : ['1', 'true', 'on'].includes(String(raw.callback_requested ?? '').toLowerCase());
  const numberText = raw.callback_number?.trim() ?? '';
  let callback: string | null = null;
  if (numberText) {
    callback = parsePhone(numberText);
    if (!callback && !errors.callback_number) (errors.callback_number ??= []).push('The callback number must be a valid phone number.');
  } else if (wantsCallback) (errors.callback_number ??= []).push('The callback number is required when you ask for a call back.');
  const page = cleanPageUrl(raw.page_url?.trim());
  if (page === false && !errors.page_url) (errors.page_url ??= []).push('The page URL must be an http(s) address.');
  const files = form.files.filter((x) => x.field === 'attachments');
  if (files.length > SUPPORT_ATTACHMENTS_MAX) (errors.attachments ??= []).push(`Attach at most ${SUPPORT_ATTACHMENTS_MAX} files.`);
  if (files.some((x) => x.data.length > SUPPORT_ATTACHMENT_MAX_BYTES)) (errors.attachments ??= []).push('Each file may be at most 10 MB.');
  if (Object.keys(errors).length || !f) throw new ValidationError(errors);

  const [company, user, to] = await Promise.all([getCompanySummary(ctx, userId, companyId), findUser(ctx, userId), tenantSupportAddress(ctx, companyId)]);
  const stored = await storeUploads(ctx.blobs, companyId, 'support', files);
  const attachments = stored.map((s, i) => ({ key: s.key, name: s.name, contentType: s.contentType, size: files[i]!.data.length }));
  const row = await ctx.db.transaction().execute(async (tx) => {
    const t = await repo.insert(tx, {
      company_id: companyId,
      user_id: userId,
      message: f.message,
      callback_number: callback,
      callback_requested: f.callback_requested,
      page_url: page === false ? null : page,
      attachments: JSON.stringify(attachments),
      sent_to: to.email,
      user_agent: userAgent?.slice(0, 500) ?? null,
    });
    const who = user ? `${[user.first_name, user.last_name].filter(Boolean).join(' ')} <${user.email}>` : `user ${userId}`;
    const lines = [
      `Support request #${t.id} from ${who}`,
      `Company: ${company.name} (id ${companyId})`,
      `Page: ${page ?? 'not given'}`,
      `Call back: ${f.callback_requested ? `yes, at ${callback}` : callback ? `no (number given: ${callback})` : 'no'}`,
      '',
      f.message,
      '',
      attachments.length ? `Attachments (${attachments.length}):` : 'Attachments: none',
      ...attachments.map((a) => `- ${a.name} (${a.contentType}, ${a.size} bytes): ${ctx.blobs.signedUrl(a.key, EMAIL_URL_TTL_MS)}`),
    ];
    await ctx.mailer.send(
      { to: to.email, subject: `[${to.tenantName} support] #${t.id} ${company.name}: ${f.message.slice(0, 60).replace(/\s+/g, ' ')}`, text: lines.join('\n') },
      tx,
    );
    return t;
  });
  return { message: SUPPORT_TICKET_SENT, data: dto(ctx, row) };
}

/** `GET /contact/support-tickets?companyId`: the caller's tickets in the company, newest first (50). @throws 403. */
export async function listMySupportTickets(ctx: AppContext, userId: number, companyId: number): Promise<{ data: SupportTicket[] }> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: (await repo.listMine(ctx.db, companyId, userId, 50)).map((r) => dto(ctx, r)) };
}
