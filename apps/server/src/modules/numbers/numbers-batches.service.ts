/**
 * Background number batches: release, bulk purchase and bulk number update run as background jobs
 * (spec 002 §7 "Numbers", §4 "Batch jobs show progress live"; docs/numbers.md): a `number_batches` row holds
 * every item with its state; the job `numbers.batch` works through the pending items, so a re-run
 * (the queue delivers at least once) skips items already done. Progress (whole percent 0..100)
 * and completion are published after each item is committed:
 * - release  → `company.{companyId}`: 'release progress' {batchId, progress}, 'release completed' {batchId, finishedAt, done, failed}
 * - update   → `company.{companyId}`: 'number update progress', 'number update completed'
 * - purchase → `bulk-purchase.{companyId}`: 'bulk purchase progress', 'bulk purchase finished'
 * Also: rotate (swap a number for a new one of the same area code, keeping its routing).
 */
import type { BatchCompletedEvent, BatchProgressEvent, Infer } from '@switchboard/contracts';
import { areaCodeOf, formatPhone, isTollFree, parsePhone, type RouteEntry, type Schedule } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { events as domainEvents } from '../../platform/events/index.js';
import {
  AppError,
  CarrierError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
  fieldError,
  type FieldErrors,
  deniedAsNotFound,
} from '../../platform/http/errors.js';
import { recordJobAudit } from '../audit/audit.service.js';
import { MANAGER_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { numbersAdminRepository, numbersRepository, type BatchRow } from './numbers.repository.js';
import {
  assertValidSchedule,
  assertWithinNumberLimit,
  companyTimezone,
  invalidateRoutingCache,
  purchaseIntoCompany,
  validateRoutes,
  type RouteInput,
} from './numbers.service.js';
import { numberDetails } from './numbers-admin.service.js';

/** The job that works through a batch: data `{ batchId }`. */
export const NUMBER_BATCH_JOB = 'numbers.batch';

export type BatchKind = 'release' | 'update' | 'purchase';
export type BatchItem = { key: string; status: 'pending' | 'done' | 'failed'; error?: string | null; number_id?: number | null; provider_id?: number };

/**
 * Publishes a batch's progress (whole percent) or completion on its live channel (packages/contracts
 * `LIVE_EVENTS`): release and bulk update on `company.{companyId}`, bulk purchase on `bulk-purchase.{companyId}`.
 */
function sendBatchEvent(
  ctx: AppContext,
  kind: BatchKind,
  companyId: number,
  ev: { progress: Infer<typeof BatchProgressEvent> } | { completed: Infer<typeof BatchCompletedEvent> },
): void {
  if ('progress' in ev) {
    if (kind === 'purchase') ctx.realtime.send(`bulk-purchase.${companyId}`, 'bulk purchase progress', ev.progress);
    else ctx.realtime.send(`company.${companyId}`, kind === 'release' ? 'release progress' : 'number update progress', ev.progress);
  } else if (kind === 'purchase') ctx.realtime.send(`bulk-purchase.${companyId}`, 'bulk purchase finished', ev.completed);
  else ctx.realtime.send(`company.${companyId}`, kind === 'release' ? 'release completed' : 'number update completed', ev.completed);
}

function progressOf(b: Pick<BatchRow, 'total' | 'done' | 'failed'>): number {
  return b.total ? Math.floor(((b.done + b.failed) / b.total) * 100) : 100;
}

/** The API shape of a batch. */
export function toBatchDto(b: BatchRow) {
  return {
    id: b.id,
    company_id: b.company_id,
    kind: b.kind as BatchKind,
    total: b.total,
    done: b.done,
    failed: b.failed,
    progress: progressOf(b),
    items: b.items as BatchItem[],
    created_at: b.created_at.toISOString(),
    finished_at: b.finished_at?.toISOString() ?? null,
  };
}

async function startBatch(ctx: AppContext, companyId: number, userId: number, kind: BatchKind, items: BatchItem[], params: Record<string, unknown> = {}) {
  const batch = await ctx.db.transaction().execute(async (tx) => {
    const row = await numbersAdminRepository.insertBatch(tx, {
      company_id: companyId,
      user_id: userId,
      kind,
      total: items.length,
      items: JSON.stringify(items),
      params: JSON.stringify(params),
    });
    await ctx.queue.enqueue(NUMBER_BATCH_JOB, { batchId: row.id }, { singletonKey: row.id }, tx);
    return row;
  });
  return toBatchDto(batch);
}

/**
 * Loads active numbers by id that the user manages; all must belong to one company.
 * @throws NotFoundError 404 for an id that is not an active number of a company of the user;
 *   ValidationError 422 `ids` when they span companies.
 */
async function numbersOfOneCompany(ctx: AppContext, userId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await numbersAdminRepository.findMany(ctx.db, unique);
  if (rows.length !== unique.length) throw new NotFoundError('Number');
  const companies = new Set(rows.map((r) => r.company_id));
  if (companies.size > 1) throw fieldError('ids', 'The numbers must belong to one company.');
  const companyId = rows[0]!.company_id;
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES), 'Number');
  return { companyId, rows };
}

/** Starts releasing numbers (owner/administrator); `POST /numbers/{id}/remove` and `/numbers/remove-bulk`. */
export async function startRelease(ctx: AppContext, userId: number, ids: number[]) {
  const { companyId, rows } = await numbersOfOneCompany(ctx, userId, ids);
  return startBatch(
    ctx,
    companyId,
    userId,
    'release',
    rows.map((r) => ({ key: String(r.id), number_id: r.id, status: 'pending' })),
  );
}

/**
 * Starts a bulk update (`PUT /v1/numbers`): label, routes (validated and cleaned now, in the first
 * number's schedule time zone) and/or schedule applied to every number.
 * @throws ValidationError 422 (nothing to change, bad routes with `routes.*` fields).
 */
export async function startBulkUpdate(ctx: AppContext, userId: number, input: { ids: number[]; label?: string; routes?: RouteInput[]; schedule?: Schedule }) {
  const { companyId, rows } = await numbersOfOneCompany(ctx, userId, input.ids);
  if (input.label === undefined && input.routes === undefined && input.schedule === undefined) {
    throw new ValidationError({ label: ['Choose a label, routes or a schedule to update.'] });
  }
  const params: Record<string, unknown> = {};
  if (input.label !== undefined) params.label = input.label.trim();
  if (input.schedule !== undefined) {
    assertValidSchedule(input.schedule);
    params.schedule = input.schedule;
  }
  if (input.routes !== undefined) params.routes = validateRoutes(input.routes, (input.schedule ?? (rows[0]!.schedule as Schedule)).timezone);
  return startBatch(
    ctx,
    companyId,
    userId,
    'update',
    rows.map((r) => ({ key: String(r.id), number_id: r.id, status: 'pending' })),
    params,
  );
}

/**
 * Starts a bulk purchase (`POST /numbers/bulk`) for the company (owner/administrator).
 * @throws ValidationError 422 `numbers.{i}.number` (invalid or repeated), `numbers` (limit).
 */
export async function startBulkPurchase(
  ctx: AppContext,
  userId: number,
  input: { company_id: number; numbers: Array<{ number: string; provider_id: number }> },
) {
  await assertCompanyAccess(ctx, userId, input.company_id, MANAGER_ROLES);
  const errors: FieldErrors = {};
  const seen = new Set<string>();
  const items: BatchItem[] = [];
  input.numbers.forEach((n, i) => {
    const e164 = parsePhone(n.number);
    if (!e164) errors[`numbers.${i}.number`] = ['The number is not a valid phone number.'];
    else if (seen.has(e164)) errors[`numbers.${i}.number`] = ['The number is listed twice.'];
    else {
      seen.add(e164);
      items.push({ key: e164, provider_id: n.provider_id, status: 'pending', number_id: null });
    }
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await assertWithinNumberLimit(ctx, input.company_id, items.length, 'numbers');
  return startBatch(ctx, input.company_id, userId, 'purchase', items);
}

/** A batch of the company (any member), for polling. @throws NotFoundError 404. */
export async function getBatch(ctx: AppContext, userId: number, companyId: number, batchId: string) {
  await assertCompanyAccess(ctx, userId, companyId);
  const b = await numbersAdminRepository.findBatchForCompany(ctx.db, companyId, batchId);
  if (!b) throw new NotFoundError('Batch');
  return toBatchDto(b);
}

async function processItem(ctx: AppContext, batch: BatchRow, item: BatchItem): Promise<void> {
  if (batch.kind === 'release') {
    const row = await numbersAdminRepository.findAny(ctx.db, item.number_id!);
    if (!row || row.company_id !== batch.company_id) throw new NotFoundError('Number');
    if (row.released_at) return; // done by an earlier run
    if (row.carrier_sid) await ctx.carrier.releaseNumber(row.carrier_sid);
    await numbersAdminRepository.release(ctx.db, row.id);
    invalidateRoutingCache(ctx);
  } else if (batch.kind === 'update') {
    const row = await numbersRepository.findForCompany(ctx.db, batch.company_id, item.number_id!);
    if (!row) throw new NotFoundError('Number');
    const p = batch.params as { label?: string; routes?: RouteEntry[]; schedule?: Schedule };
    await numbersRepository.update(ctx.db, row.id, {
      ...(p.label !== undefined ? { label: p.label } : {}),
      ...(p.routes !== undefined ? { routes: JSON.stringify(p.routes) } : {}),
      ...(p.schedule !== undefined ? { schedule: JSON.stringify(p.schedule) } : {}),
    });
    invalidateRoutingCache(ctx);
  } else {
    const existing = await numbersRepository.findActiveByNumber(ctx.db, item.key);
    if (existing && existing.company_id === batch.company_id) {
      item.number_id = existing.id;
      return;
    } // bought by an earlier run
    await assertWithinNumberLimit(ctx, batch.company_id, 1);
    const tz = await companyTimezone(ctx, batch.user_id, batch.company_id);
    const row = await purchaseIntoCompany(ctx, batch.company_id, tz, item.key, item.provider_id ?? 1);
    item.number_id = row.id;
  }
}

/** What an item failed by an unexpected error shows once the retries are used up (spec 001's "Please try again later"; the cause is logged). */
const UNKNOWN_ITEM_ERROR = 'Please try again later';

/** Whether an item's error is a domain refusal to record on the item (a coded error other than "try again later"). */
function isItemRefusal(e: unknown): e is AppError {
  return e instanceof AppError && !(e instanceof ServiceUnavailableError);
}

/**
 * Job handler: works through the batch's pending items, committing each item's state and
 * publishing progress after it; publishes completion once when the last item is settled.
 * Idempotent: done/failed items are skipped; a finished batch is left alone.
 */
export async function runBatch(ctx: AppContext, batchId: string, opts: { lastAttempt?: boolean } = {}): Promise<void> {
  const batch = await numbersAdminRepository.findBatch(ctx.db, batchId);
  if (!batch || batch.finished_at) return;
  const kind = batch.kind as BatchKind;
  const items = batch.items as BatchItem[];
  for (let i = 0; i < items.length; i++) {
    if (items[i]!.status !== 'pending') continue;
    const item = { ...items[i]! };
    try {
      await processItem(ctx, batch, item);
      item.status = 'done';
      item.error = null;
    } catch (e) {
      // A domain refusal (limit reached, number taken, carrier said no) fails the item; anything
      // else (the database unreachable, a bug) fails the job, which the queue retries: items
      // already settled are skipped on the next run. On the last attempt the item fails with the
      // spec's unknown-error wording (the cause is logged), so the batch still finishes.
      if (!isItemRefusal(e)) {
        if (!opts.lastAttempt) throw e;
        ctx.log.error({ err: e, batchId, item: item.key }, 'number batch item failed on the last attempt');
      }
      item.status = 'failed';
      item.error = !isItemRefusal(e) ? UNKNOWN_ITEM_ERROR : e instanceof ValidationError ? (Object.values(e.errors ?? {}).flat()[0] ?? e.message) : e.message;
    }
    items[i] = item;
    const updated = await numbersAdminRepository.updateBatch(ctx.db, batchId, {
      items: JSON.stringify(items),
      done: items.filter((x) => x.status === 'done').length,
      failed: items.filter((x) => x.status === 'failed').length,
    });
    sendBatchEvent(ctx, kind, batch.company_id, { progress: { batchId, progress: progressOf(updated) } });
  }
  // The batch's end and its `number.batch-finished` commit together (the outbox).
  const { finished, emitted } = await ctx.db.transaction().execute(async (tx) => ({
    finished: await numbersAdminRepository.updateBatch(tx, batchId, { finished_at: new Date() }),
    emitted: await domainEvents.emit(tx, 'number.batch-finished', {
      companyId: batch.company_id,
      batchId,
      kind,
      numberIds: items.filter((x) => x.status === 'done' && typeof x.number_id === 'number').map((x) => x.number_id!),
    }),
  }));
  sendBatchEvent(ctx, kind, batch.company_id, {
    completed: { batchId, finishedAt: finished.finished_at!.toISOString(), done: finished.done, failed: finished.failed },
  });
  // The batch's changes in the audit log, under the job and the person who started it (docs/audit.md "Jobs").
  await recordJobAudit(ctx, {
    job: NUMBER_BATCH_JOB,
    companyId: batch.company_id,
    action: `bulk-${kind}`,
    entityType: 'number-batches',
    entityId: batchId,
    startedBy: batch.user_id,
    changes: {
      kind,
      done: finished.done,
      failed: finished.failed,
      number_ids: items.filter((x) => x.status === 'done' && typeof x.number_id === 'number').map((x) => x.number_id!),
      numbers: items.filter((x) => x.status === 'done').map((x) => x.key),
    },
    outcome: finished.done === 0 && finished.failed > 0 ? 'failed' : 'success',
  });
  await domainEvents.dispatch(ctx, emitted);
}

/**
 * Swaps the number for a new one in the same area code (toll-free: the same toll-free code)
 * through the carrier, keeping id, label (unless it was the old number's national format),
 * routes and schedule; the old number is released at the carrier.
 * @throws NotFoundError 404; ValidationError 422 `number` when the carrier has no other number there.
 */
export async function rotateNumber(ctx: AppContext, userId: number, id: number) {
  const row = await numbersRepository.find(ctx.db, id);
  if (!row) throw new NotFoundError('Number');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, row.company_id, MANAGER_ROLES), 'Number');
  const area = areaCodeOf(row.number);
  if (!area) throw fieldError('number', 'The number cannot be rotated.');
  const offered = await ctx.carrier.searchNumbers({ kind: isTollFree(row.number) ? 'toll_free' : 'local', areaCode: area, limit: 20 });
  let bought: { sid: string; number: string } | null = null;
  for (const candidate of offered) {
    if (candidate.number === row.number || (await numbersRepository.findActiveByNumber(ctx.db, candidate.number))) continue;
    try {
      bought = await ctx.carrier.buyNumber(candidate.number, {
        voiceUrl: ctx.carrier.webhookUrl('voice'),
        smsUrl: ctx.carrier.webhookUrl('messaging'),
        statusCallback: ctx.carrier.webhookUrl('voice.status'),
      });
      break;
    } catch (e) {
      if (!(e instanceof CarrierError)) throw e;
    }
  }
  if (!bought) throw fieldError('number', `No other number is available in area code ${area}.`);
  const previous = row.number;
  const label = row.label === formatPhone(previous) ? formatPhone(bought.number) : row.label;
  const updated = await numbersRepository.update(ctx.db, row.id, { number: bought.number, carrier_sid: bought.sid, label });
  invalidateRoutingCache(ctx);
  if (row.carrier_sid)
    await ctx.carrier.releaseNumber(row.carrier_sid).catch((e) => ctx.log.warn({ err: e, sid: row.carrier_sid }, 'release after rotate failed'));
  return { message: 'The number has been rotated', previous_number: previous, data: (await numberDetails(ctx, userId, [updated]))[0]! };
}
