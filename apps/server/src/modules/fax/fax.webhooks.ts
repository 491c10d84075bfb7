/**
 * The fax provider's webhooks and the fax jobs (docs/fax.md "Webhooks", "Receiving"). The route
 * (fax.routes.ts) verifies the signature over the raw body through the fax port and handles each
 * event once (`handleOnce`, key `fax:{provider}:{event id}`):
 * - an outbound fax's progress moves its status forward only (queued → sending → delivered |
 *   failed, with the pages transmitted or the provider's reason), and its thread item with it;
 * - a fax received on one of our numbers is recorded `receiving` and `fax.fetch` fetches its PDF,
 *   stores it under the company (blob store), counts its pages (pdf-lib), marks it `received` and
 *   puts it in the (number, sender) thread.
 * Each change emits `fax.changed` and publishes the thread after commit.
 */
import { parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { FaxWebhookEvent } from '../../carriers/fax.port.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { events, type DomainEvents, type Emitted } from '../../platform/events/index.js';
import { AppError, CarrierError } from '../../platform/http/errors.js';
import type { WebhookOutcome } from '../../platform/http/webhooks.js';
import { CARRIER_URL_TTL_MS } from '../../platform/blob/access.js';
import { isLastAttempt, type JobHandler } from '../../platform/queue.js';
import { appendFaxItem, updateFaxItem, type ItemRow } from '../conversations/conversations.commands.js';
import { publishConversationUpdated } from '../conversations/conversations.live.js';
import { findItem } from '../conversations/conversations.queries.js';
import { findNumberByE164 } from '../numbers/numbers.service.js';
import { countPages } from './fax.pdf.js';
import { faxRepository, type FaxRow } from './fax.repository.js';
import { FAX_FETCH_JOB, FAX_SEND_JOB, faxChanged, faxPort, itemContent, statusRank } from './fax.service.js';

const OK = { contentType: 'application/json', body: '{"received":true}' };

/** Inside the change's transaction: records `fax.changed` (the outbox). */
function record(tx: DbOrTx, fax: FaxRow): Promise<Emitted> {
  return events.emit(tx, 'fax.changed', faxChanged(fax));
}

/** After commit: dispatches `fax.changed` (its `fax.live` consumer sends the thread's live update). */
async function announce(ctx: AppContext, _fax: FaxRow, _item: ItemRow | null | undefined, emitted: Emitted): Promise<void> {
  await events.dispatch(ctx, emitted);
}

/**
 * `conversation updated` of a fax's thread item as a consumer of the recorded `fax.changed` (`fax.live`; one
 * announcement per change): the fax's item as committed. Registered by the module's setup.
 */
export async function onFaxChangedLive(ctx: AppContext, e: DomainEvents['fax.changed']): Promise<void> {
  const fax = await faxRepository.find(ctx.db, e.faxId);
  if (!fax?.item_id || !fax.conversation_id) return;
  const item = await findItem(ctx, fax.item_id);
  if (item) await publishConversationUpdated(ctx, fax.company_id, item.conversation_id, item);
}

/**
 * Applies one verified provider event inside the webhook's transaction (see the file comment).
 * An outbound event for a fax we do not know (yet) answers 409 and is not recorded, so the
 * provider delivers it again.
 */
export async function applyFaxEvent(ctx: AppContext, tx: DbOrTx, e: FaxWebhookEvent): Promise<WebhookOutcome> {
  const port = faxPort(ctx);
  if (e.direction === 'inbound') {
    let fax = await faxRepository.findByProviderId(tx, port.name, e.faxId, true);
    if (!fax) {
      const to = parsePhone(e.to) ?? e.to;
      const number = await findNumberByE164(ctx, to, tx);
      if (!number) {
        ctx.log.warn({ to: e.to, faxId: e.faxId }, 'fax for an unknown number ignored');
        return { response: OK };
      }
      fax = await faxRepository.insert(tx, {
        company_id: number.company_id,
        number_id: number.id,
        direction: 'inbound',
        local_number: number.number,
        remote: parsePhone(e.from) ?? e.from,
        status: 'receiving',
        pages: e.pages,
        provider: port.name,
        provider_fax_id: e.faxId,
      });
    }
    if (statusRank(fax.status) >= 2) return { response: OK };
    let changed: FaxRow | undefined;
    if (e.status === 'received' && e.mediaUrl) {
      await ctx.queue.enqueue(
        FAX_FETCH_JOB,
        { faxId: fax.id, mediaUrl: e.mediaUrl, pages: e.pages },
        { singletonKey: `fax-fetch-${fax.id}`, retryLimit: 5, retryDelay: 5 },
        tx,
      );
    } else if (e.status === 'failed' || (e.status === 'received' && !e.mediaUrl)) {
      changed = await faxRepository.update(tx, fax.id, { status: 'failed', error: e.error ?? 'The provider sent no document.', completed_at: new Date() });
    }
    const row = changed ?? fax;
    const emitted = await record(tx, row);
    return { response: OK, afterCommit: () => announce(ctx, row, null, emitted) };
  }

  const fax = await faxRepository.findByProviderId(tx, port.name, e.faxId, true);
  if (!fax) throw new AppError(409, 'Unknown fax.');
  if (statusRank(e.status) <= statusRank(fax.status) || fax.direction !== 'outbound') return { response: OK };
  const final = statusRank(e.status) >= 2;
  const updated = (await faxRepository.update(tx, fax.id, {
    status: e.status,
    ...(e.status === 'delivered' && e.pages !== null ? { pages: e.pages } : {}),
    ...(e.status === 'failed' ? { error: e.error ?? 'failed' } : {}),
    ...(final ? { completed_at: new Date() } : {}),
  }))!;
  const item = updated.item_id ? await updateFaxItem(ctx, updated.item_id, { state: updated.status, content: itemContent(updated) }, tx) : undefined;
  const emitted = await record(tx, updated);
  return { response: OK, afterCommit: () => announce(ctx, updated, item, emitted) };
}

type SendJob = { faxId: number };
type FetchJob = { faxId: number; mediaUrl: string; pages: number | null };

/** Marks a fax failed with `error` (and its item), then announces it. */
async function failFax(ctx: AppContext, faxId: number, error: string): Promise<void> {
  const result = await ctx.db.transaction().execute(async (tx) => {
    const fax = await faxRepository.find(tx, faxId, true);
    if (!fax || statusRank(fax.status) >= 2) return null;
    const updated = (await faxRepository.update(tx, faxId, { status: 'failed', error, completed_at: new Date() }))!;
    const item = updated.item_id ? await updateFaxItem(ctx, updated.item_id, { state: 'failed' }, tx) : undefined;
    return { updated, item, emitted: await record(tx, updated) };
  });
  if (result) await announce(ctx, result.updated, result.item, result.emitted);
}

/**
 * `fax.send`: hands a queued fax to the provider with a short-lived signed URL of its PDF
 * (CARRIER_URL_TTL_MS) and our webhook URL, and records the provider's fax id. Idempotent: a fax
 * that is no longer queued or already has a provider id is left alone. A provider's refusal
 * (CarrierError) fails the fax; other errors retry, and the last attempt fails it.
 */
export const runSendJob =
  (ctx: AppContext): JobHandler<SendJob> =>
  async ({ faxId }, job) => {
    const fax = await faxRepository.find(ctx.db, faxId);
    if (!fax || fax.status !== 'queued' || fax.provider_fax_id || !fax.file_key) return;
    const port = faxPort(ctx);
    try {
      const sent = await port.sendFax({
        from: fax.local_number,
        to: fax.remote,
        mediaUrl: ctx.blobs.signedUrl(fax.file_key, CARRIER_URL_TTL_MS),
        webhookUrl: ctx.config.publicUrl + port.webhookPath,
      });
      await faxRepository.update(ctx.db, faxId, { provider_fax_id: sent.providerId });
    } catch (error) {
      if (error instanceof CarrierError) return failFax(ctx, faxId, error.message);
      if (isLastAttempt(job)) await failFax(ctx, faxId, error instanceof Error ? error.message : String(error));
      throw error;
    }
  };

/**
 * `fax.fetch`: downloads a received fax's PDF from the provider, stores it under the company,
 * counts its pages and marks the fax `received` in its (number, sender) thread. Idempotent: a fax
 * no longer `receiving` is left alone. A download that keeps failing fails the fax on the last attempt.
 */
export const runFetchJob =
  (ctx: AppContext): JobHandler<FetchJob> =>
  async ({ faxId, mediaUrl, pages: announced }, job) => {
    const fax = await faxRepository.find(ctx.db, faxId);
    if (!fax || fax.status !== 'receiving') return;
    let data: Buffer;
    try {
      data = await faxPort(ctx).downloadMedia(mediaUrl);
    } catch (error) {
      if (isLastAttempt(job)) await failFax(ctx, faxId, 'The document could not be fetched from the provider.');
      throw error;
    }
    const pages = await countPages(data);
    if (pages === null) return failFax(ctx, faxId, 'The received document is not a PDF.');
    const key = ctx.blobs.newKey(fax.company_id, 'fax', '.pdf');
    await ctx.blobs.put(key, data);
    const result = await ctx.db.transaction().execute(async (tx) => {
      const current = await faxRepository.find(tx, faxId, true);
      if (!current || current.status !== 'receiving') return null;
      const received = (await faxRepository.update(tx, faxId, {
        status: 'received',
        pages: pages ?? announced,
        file_key: key,
        file_size: data.length,
        completed_at: new Date(),
      }))!;
      const thread = await appendFaxItem(ctx, tx, {
        companyId: received.company_id,
        numberId: received.number_id,
        party: received.remote,
        inbound: true,
        content: itemContent(received),
        media: [{ url: ctx.blobs.url(key), contentType: 'application/pdf' }],
        state: 'received',
        userId: null,
      });
      const linked = (await faxRepository.update(tx, faxId, { conversation_id: thread.conversation.id, item_id: thread.item.id }))!;
      return { linked, item: thread.item, emitted: await record(tx, linked) };
    });
    if (!result) return ctx.blobs.delete(key); // another worker stored it first
    await announce(ctx, result.linked, result.item, result.emitted);
  };

/** Registers the fax jobs (and creates the fax port, whose sandbox defines its own job before the queue starts). */
export function registerFaxJobs(ctx: AppContext): void {
  faxPort(ctx);
  ctx.queue.define<SendJob>(FAX_SEND_JOB, runSendJob(ctx));
  ctx.queue.define<FetchJob>(FAX_FETCH_JOB, runFetchJob(ctx));
}
