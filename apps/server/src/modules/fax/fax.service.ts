/**
 * Faxes (spec 001 activity kind fax and conversation item type fax; spec 002 service type fax 2;
 * docs/fax.md): the company's fax list and one fax, its PDF, and sending a fax from one of the
 * company's fax numbers. Sending stores the PDF (with the optional cover page in front) in the
 * blob store under the company, records the fax (`queued`) and its thread item in one transaction
 * that enqueues `fax.send`; the job hands it to the fax port (fax.jobs.ts). Receiving and status
 * webhooks: fax.webhooks.ts. Reporting queries: fax.reporting.ts.
 */
import { FAX_STATUSES, type Fax, type FaxListQuery, type FaxStatus, type SendFaxFields } from '@switchboard/contracts';
import { SERVICE_TYPES, formatPhone, parsePhone } from '@switchboard/domain';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { createFaxPort } from '../../carriers/carrier.factory.js';
import type { FaxPort } from '../../carriers/fax.port.js';
import { events } from '../../platform/events/index.js';
import { NotFoundError, deniedAsNotFound, fieldError } from '../../platform/http/errors.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import type { UploadedFile } from '../../platform/http/multipart.js';
import { assertCompanyAccess, companyTimeZone, getCompanySummary } from '../companies/companies.service.js';
import { getGeneralSettings } from '../settings/settings.service.js';
import { appendFaxItem } from '../conversations/conversations.commands.js';
import { getCompanyNumber, getCompanyNumbers } from '../numbers/numbers.service.js';
import { coverPagePdf, prependCover, readUploadedPdf } from './fax.pdf.js';
import { faxRepository, type FaxRow } from './fax.repository.js';

/** Job that hands a queued outbound fax to the provider (fax.jobs.ts). */
export const FAX_SEND_JOB = 'fax.send';
/** Job that fetches a received fax's PDF from the provider and stores it (fax.jobs.ts). */
export const FAX_FETCH_JOB = 'fax.fetch';

const ports = new WeakMap<AppContext, FaxPort>();
/** The configured fax provider adapter of this app (created once, before the queue starts: the module's `jobs`). */
export function faxPort(ctx: AppContext): FaxPort {
  let p = ports.get(ctx);
  if (!p) ports.set(ctx, (p = createFaxPort(ctx.config, ctx.queue, ctx.blobs)));
  return p;
}

/** Rank of a status in its direction's order; a status only moves to a higher rank (docs/fax.md "Statuses"). */
export function statusRank(status: string): number {
  if (status === 'queued') return 0;
  if (status === 'sending' || status === 'receiving') return 1;
  return 2; // delivered, received, failed: final
}

/** Whether `s` is a fax status word. */
export function isFaxStatus(s: string): s is FaxStatus {
  return (FAX_STATUSES as readonly string[]).includes(s);
}

/** The thread item's text of a fax: the cover note, else its page count. */
export function itemContent(row: Pick<FaxRow, 'cover_note' | 'pages'>): string {
  if (row.cover_note) return row.cover_note;
  if (row.pages === null) return 'Fax';
  return `Fax, ${row.pages} page${row.pages === 1 ? '' : 's'}`;
}

/** The API view of fax rows (business numbers looked up once per company). */
export async function toFaxes(ctx: AppContext, rows: FaxRow[]): Promise<Fax[]> {
  const byCompany = new Map<number, number[]>();
  for (const r of rows) byCompany.set(r.company_id, [...(byCompany.get(r.company_id) ?? []), r.number_id]);
  const numbers = new Map<number, { id: number; number: string; label: string }>();
  for (const [companyId, ids] of byCompany) for (const n of await getCompanyNumbers(ctx, companyId, ids, { includeReleased: true })) numbers.set(n.id, n);
  return rows.map((r) => {
    const inbound = r.direction === 'inbound';
    const n = numbers.get(r.number_id) ?? { id: r.number_id, number: r.local_number, label: '' };
    return {
      id: r.id,
      company_id: r.company_id,
      number: { id: n.id, number: n.number || r.local_number, label: n.label },
      direction: inbound ? 'inbound' : 'outbound',
      from: inbound ? r.remote : r.local_number,
      to: inbound ? r.local_number : r.remote,
      status: isFaxStatus(r.status) ? r.status : 'failed',
      pages: r.pages,
      error: r.error,
      cover_note: r.cover_note,
      file_url: r.file_key ? `/api/faxes/${r.id}/file` : null,
      file_size: r.file_size,
      conversation_id: r.conversation_id,
      user_id: r.user_id,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
      completed_at: r.completed_at ? r.completed_at.toISOString() : null,
    };
  });
}

/** The `fax.changed` payload of a fax row (docs/architecture.md "Domain events"). */
export function faxChanged(row: FaxRow) {
  return {
    faxId: row.id,
    companyId: row.company_id,
    numberId: row.number_id,
    direction: row.direction === 'inbound' ? ('inbound' as const) : ('outbound' as const),
    status: row.status,
    pages: row.pages,
    remote: row.remote,
  };
}

/**
 * `GET /api/companies/{companyId}/faxes`: the company's faxes, newest first, page-numbered.
 * @throws ForbiddenError (403) without access to the company.
 */
export async function listFaxes(ctx: AppContext, userId: number, companyId: number, q: FaxListQuery): Promise<{ data: Fax[]; meta: PageMeta }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const { rows, total } = await faxRepository.listForCompany(
    ctx.db,
    companyId,
    { direction: q.direction, status: q.status, numberId: q.number_id },
    q.per_page,
    (q.page - 1) * q.per_page,
  );
  return { data: await toFaxes(ctx, rows), meta: pageMeta(q.page, q.per_page, total) };
}

/** A fax the user's company owns. @throws NotFoundError (404) for an unknown fax or another company's. */
async function faxForUser(ctx: AppContext, userId: number, id: number): Promise<FaxRow> {
  const row = await faxRepository.find(ctx.db, id);
  if (!row) throw new NotFoundError('Fax');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, row.company_id), 'Fax');
  return row;
}

/** `GET /api/faxes/{id}`. @throws NotFoundError (404) for an unknown fax or another company's. */
export async function getFax(ctx: AppContext, userId: number, id: number): Promise<Fax> {
  return (await toFaxes(ctx, [await faxForUser(ctx, userId, id)]))[0]!;
}

/**
 * `GET /api/faxes/{id}/file`: the fax's PDF as a stream, for members of its company only.
 * @throws NotFoundError (404) for an unknown fax, another company's, or one whose PDF is not stored yet.
 */
export async function faxFile(ctx: AppContext, userId: number, id: number): Promise<{ stream: Readable; size: number | null; filename: string }> {
  const row = await faxForUser(ctx, userId, id);
  const stream = row.file_key ? await ctx.blobs.stream(row.file_key) : null;
  if (!stream) throw new NotFoundError('Fax file');
  return { stream, size: row.file_size, filename: `fax-${row.id}.pdf` };
}

/**
 * `POST /api/companies/{companyId}/faxes` (multipart): sends `file` (a PDF, FAX_MAX_BYTES at most)
 * from the company's fax number `number_id` to `to`, with a cover page in front when `cover_note`
 * is given (pages = 1 + the PDF's pages). The fax is stored `queued` with its thread item; the
 * `fax.send` job hands it to the provider.
 * @returns the fax. @throws ForbiddenError (403); ValidationError (422) on `number_id` (not a fax number
 * of the company), `to` (not a phone number, or the number itself), `file` (missing, not a PDF, too large).
 */
export async function sendFax(ctx: AppContext, userId: number, companyId: number, fields: SendFaxFields, file: UploadedFile | undefined): Promise<Fax> {
  await assertCompanyAccess(ctx, userId, companyId);
  let number;
  try {
    number = await getCompanyNumber(ctx, companyId, fields.number_id);
  } catch (error) {
    if (error instanceof NotFoundError) throw fieldError('number_id', 'The selected number id is invalid.');
    throw error;
  }
  if (number.service_type !== SERVICE_TYPES.fax) throw fieldError('number_id', 'The number is not a fax number.');
  const to = parsePhone(fields.to);
  if (!to) throw fieldError('to', 'The to is not a valid phone number.');
  if (to === number.number) throw fieldError('to', 'A fax cannot be sent to its own number.');
  const { doc, pages: documentPages } = await readUploadedPdf(file);
  const note = fields.cover_note?.trim() || null;
  let bytes: Uint8Array = file!.data;
  let pages = documentPages;
  if (note) {
    pages = documentPages + 1;
    const [company, timeZone, display] = await Promise.all([
      getCompanySummary(ctx, userId, companyId),
      companyTimeZone(ctx, companyId),
      getGeneralSettings(ctx, companyId),
    ]);
    const cover = await coverPagePdf({
      from: number.number,
      to,
      fromLabel: number.label === formatPhone(number.number) ? '' : number.label,
      company: company.name,
      pages,
      note,
      at: new Date(),
      timeZone,
      dateFormat: display.date_format,
      timeFormat: display.time_format,
    });
    bytes = await prependCover(cover, doc);
  }
  const key = ctx.blobs.newKey(companyId, 'fax', '.pdf');
  await ctx.blobs.put(key, bytes);
  const port = faxPort(ctx);
  const { fax, emitted } = await ctx.db.transaction().execute(async (tx) => {
    const inserted = await faxRepository.insert(tx, {
      company_id: companyId,
      number_id: number.id,
      direction: 'outbound',
      local_number: number.number,
      remote: to,
      status: 'queued',
      pages,
      file_key: key,
      file_size: bytes.length,
      cover_note: note,
      provider: port.name,
      user_id: userId,
    });
    const thread = await appendFaxItem(ctx, tx, {
      companyId,
      numberId: number.id,
      party: to,
      inbound: false,
      content: itemContent(inserted),
      media: [{ url: ctx.blobs.url(key), contentType: 'application/pdf' }],
      state: 'queued',
      userId,
    });
    const linked = (await faxRepository.update(tx, inserted.id, { conversation_id: thread.conversation.id, item_id: thread.item.id }))!;
    await ctx.queue.enqueue(FAX_SEND_JOB, { faxId: inserted.id }, { singletonKey: `fax-send-${inserted.id}`, retryLimit: 5, retryDelay: 10 }, tx);
    return { fax: linked, item: thread.item, emitted: await events.emit(tx, 'fax.changed', faxChanged(linked)) };
  });
  await events.dispatch(ctx, emitted); // its `fax.live` consumer sends the thread's live update
  return (await toFaxes(ctx, [fax]))[0]!;
}

/**
 * The Phone simulator's fax machine (docs/fax.md "Sandbox"): sends `pdf` from `from` to the
 * company fax number `to` through the simulated provider, which calls our fax webhook.
 * @throws ValidationError 422 on `file` (not a PDF) or on `to` (not a fax number); Error when the provider cannot simulate.
 */
export async function simulateInboundFax(
  ctx: AppContext,
  input: { from: string; to: { id: number; company_id: number; number: string }; file: UploadedFile | undefined },
): Promise<{ fax_id: string; webhook_status: number }> {
  await readUploadedPdf(input.file);
  const number = await getCompanyNumber(ctx, input.to.company_id, input.to.id);
  if (number.service_type !== SERVICE_TYPES.fax) throw fieldError('to', 'The number is not a fax number.');
  const port = faxPort(ctx);
  if (!port.simulateInbound) throw new Error('The fax provider cannot simulate faxes.');
  const r = await port.simulateInbound({ from: input.from, to: number.number, pdf: input.file!.data });
  return { fax_id: r.faxId, webhook_status: r.webhookStatus };
}
