/**
 * Building the reporting store's facts (docs/analytics.md "The store"): one `call_facts` row per
 * call, rebuilt idempotently from the calls module (`callsForFacts`), in-app calling (who answered),
 * custom-field values (outcome, department), the number's extension labels and call tracking's
 * attribution (`call_attributions`, from `call.attributed`).
 *
 * Fed by domain events (`call.changed`, `call.annotated`, `call.attributed`): the call ids of one
 * ~150 ms window are rebuilt together (one batch of statements; the calls wait in the durable pending set
 * `call_facts_pending`, so a crash loses none), then the companies' caches are dropped and `analytics updated` goes
 * out (analytics.live.ts). `reconcileFacts` (the `analytics.reconcile` job, every 10 minutes) rebuilds facts of calls
 * that have none (calls made before migration 0018, an import) and of the newest calls.
 */
import { CALL_OUTCOMES, DEPARTMENT_TYPES, ANSWER_STATUS } from '@switchboard/contracts';
import { CALL_STATUS } from '@switchboard/domain';
import type { RouteEntry } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DomainEvents } from '../../platform/events/index.js';
import { callIdsPage, callIdWindow, callsForFacts, type CallForFacts } from '../calls/calls.service.js';
import { getCompanyOrganizationId } from '../companies/companies.service.js';
import { getEavValuesMany } from '../custom-fields/custom-fields.service.js';
import { inAppHandlersOf } from '../in-app-calling/in-app-calling.service.js';
import { getCompanyNumberRows } from '../numbers/numbers.service.js';
import { analyticsRepository, type AttributionRow, type NewFact } from './analytics.repository.js';
import { markCompaniesChanged } from './analytics.live.js';

/** Custom-field entity type of calls (spec 001 §3 "Custom field": Call 6). */
const CALL_ENTITY = 6;
/**
 * Pending calls wait at most this long (ms) for the flush that rebuilds them together. (1 s was tried: larger flushes
 * of two nodes overlapped on the same pending calls and rollup rows, and bench/soak's reactions fell minutes behind.)
 */
export const FACT_BATCH_MS = 150;

/**
 * The answer status of a call (spec 001 §3 "Call status by number": none 0, answered 1, missed 2,
 * voicemail 3, blocked 4): blocked callers; a recorded voicemail; answered once someone picked up
 * (answered_at, Connected, Answered Already); missed when nobody did and the call ended (No Answer,
 * Rejected, Missed, or a hang-up before anyone answered); none while it is still ringing.
 */
export function answerStatusOf(c: Pick<CallForFacts, 'status' | 'voicemail_id' | 'answered_at' | 'ended_at'>): number {
  if (c.status === CALL_STATUS.BLOCKED) return ANSWER_STATUS.blocked;
  if (c.voicemail_id !== null || c.status === CALL_STATUS.VOICEMAIL) return ANSWER_STATUS.voicemail;
  if (c.answered_at !== null || c.status === CALL_STATUS.CONNECTED || c.status === CALL_STATUS.ANSWERED_ALREADY) return ANSWER_STATUS.answered;
  const ended: number[] = [CALL_STATUS.NO_ANSWER, CALL_STATUS.NO_ANSWER_8, CALL_STATUS.REJECTED, CALL_STATUS.MISSED, CALL_STATUS.HANGUP, CALL_STATUS.HANGUP_11];
  if (ended.includes(c.status) || c.ended_at !== null) return ANSWER_STATUS.missed;
  return ANSWER_STATUS.none;
}

/** The label of the extension a call reached (its route entry's label; a single-entry number: that entry's), '' when none. */
function extensionLabelOf(routes: RouteEntry[] | undefined, extension: number | null): string {
  if (!routes || routes.length === 0) return '';
  const entry = extension !== null ? routes.find((r) => r.extension === extension) : routes.length === 1 ? routes[0] : undefined;
  return entry?.label ?? '';
}

/** A custom-field value of the call whose attribute is named like `name` and whose value is one of `allowed`. */
function enumField(values: Array<{ name: string; value: unknown }> | undefined, name: RegExp, allowed: readonly string[]): string | null {
  for (const v of values ?? []) {
    if (!name.test(v.name)) continue;
    const text =
      typeof v.value === 'string'
        ? v.value
            .trim()
            .toLowerCase()
            .replace(/[\s-]+/g, '_')
        : null;
    if (text && allowed.includes(text)) return text;
  }
  return null;
}

/**
 * Rebuilds the facts of `callIds` (ids of calls that no longer exist are skipped). Idempotent.
 * @returns the companies whose facts were written.
 */
export async function rebuildFacts(ctx: AppContext, callIds: readonly number[]): Promise<number[]> {
  const calls = await callsForFacts(ctx, callIds);
  if (calls.length === 0) return [];
  const ids = calls.map((c) => c.id);
  const [handlers, attributions, eav] = await Promise.all([
    inAppHandlersOf(ctx, ids),
    analyticsRepository.attributionsOf(ctx.db, ids),
    getEavValuesMany(ctx, CALL_ENTITY, ids),
  ]);
  const attributionOf = new Map<number, AttributionRow>(attributions.map((a) => [Number(a.call_id), a]));

  const companies = [...new Set(calls.map((c) => c.company_id))];
  const organizations = new Map<number, number | null>();
  // First contact without call tracking's word: the company's earliest call with the party among the
  // stored facts and this batch (docs/analytics.md "What a fact says").
  const earliest = new Map<number, Map<string, { startedAt: Date; callId: number }>>();
  await Promise.all(
    companies.map(async (companyId) => {
      organizations.set(companyId, await getCompanyOrganizationId(ctx, companyId));
      const mine = calls.filter((c) => c.company_id === companyId);
      const known = await analyticsRepository.earliestByCaller(
        ctx.db,
        companyId,
        mine.map((c) => partyOf(c)),
      );
      for (const c of mine) {
        const at = new Date(c.started_at);
        const e = known.get(partyOf(c));
        if (!e || at < e.startedAt || (at.getTime() === e.startedAt.getTime() && c.id < e.callId)) known.set(partyOf(c), { startedAt: at, callId: c.id });
      }
      earliest.set(companyId, known);
    }),
  );
  // The numbers' routes (extension labels), one read per company; a released number has none (no labels).
  const routesOf = new Map<number, RouteEntry[] | undefined>();
  const numbersOf = new Map<number, number[]>();
  for (const c of calls) numbersOf.set(c.company_id, [...(numbersOf.get(c.company_id) ?? []), c.number_id]);
  for (const [companyId, ids] of numbersOf) {
    for (const n of await getCompanyNumberRows(ctx, companyId, ids)) routesOf.set(n.id, n.routes as RouteEntry[]);
  }

  const rows: NewFact[] = calls.map((c) => {
    const a = attributionOf.get(c.id);
    const answerStatus = answerStatusOf(c);
    const party = partyOf(c);
    const first = earliest.get(c.company_id)?.get(party);
    const isFirst = a ? a.is_first_contact : first?.callId === c.id;
    const answeredAt = c.answered_at ? new Date(c.answered_at).getTime() : null;
    return {
      call_id: c.id,
      company_id: c.company_id,
      organization_id: organizations.get(c.company_id) ?? null,
      number_id: c.number_id,
      started_at: c.started_at,
      direction: c.direction === 'outbound' ? 'outbound' : 'inbound',
      status: c.status,
      answer_status: answerStatus,
      duration_s: Math.max(0, Math.round(Number(c.duration_s ?? 0))),
      answer_time_s:
        answerStatus === ANSWER_STATUS.answered && answeredAt !== null ? Math.max(0, Math.round((answeredAt - new Date(c.started_at).getTime()) / 1000)) : null,
      answered_by: handlers.get(c.id) ?? null,
      from_number: c.from_number,
      to_number: c.to_number,
      caller: party,
      contact_id: c.contact_id,
      geo: (c.from_state ?? '').trim().toUpperCase(),
      tag_ids: c.tag_ids,
      qualification: c.qualification,
      // A lead (3) is a qualified call that became a lead (docs/analytics.md "Qualification").
      is_qualified: c.qualification === 1 || c.qualification === 3,
      is_lead: c.qualification === 3,
      outcome: enumField(eav.get(c.id), /outcome/i, CALL_OUTCOMES),
      department: enumField(eav.get(c.id), /department/i, DEPARTMENT_TYPES),
      extension_label: extensionLabelOf(routesOf.get(c.number_id), c.extension),
      is_first_contact: c.direction === 'outbound' && !a ? false : isFirst,
      traffic_source: a?.traffic_source ?? '',
      source: a?.source ?? null,
      medium: a?.medium ?? null,
      campaign: a?.campaign ?? null,
      keyword: a?.keyword ?? null,
      first_traffic_source: a?.first_traffic_source ?? a?.traffic_source ?? '',
      first_source: a ? (a.first_traffic_source !== null ? a.first_source : a.source) : null,
      first_medium: a ? (a.first_traffic_source !== null ? a.first_medium : a.medium) : null,
      first_campaign: a ? (a.first_traffic_source !== null ? a.first_campaign : a.campaign) : null,
      first_keyword: a ? (a.first_traffic_source !== null ? a.first_keyword : a.keyword) : null,
      dni_pool_id: a?.pool_id ?? null,
      dni_session_id: a?.session_id ?? null,
      lead_id: a?.lead_id ?? null,
    };
  });
  await analyticsRepository.upsertFacts(ctx.db, rows);
  return companies;
}

/** The outside party of a call: the caller of an inbound call, the callee of an outbound one. */
function partyOf(c: Pick<CallForFacts, 'direction' | 'from_number' | 'to_number'>): string {
  return c.direction === 'outbound' ? c.to_number : c.from_number;
}

// ------------------------------------------------------------------ batching of event-driven rebuilds

/** Most pending calls one rebuild takes. */
const FLUSH_BATCH = 500;

/** The lease that makes one process of a deployment flush the pending set at a time, and how long it lasts (ms). */
const FLUSH_LEASE = 'facts-flush';
const FLUSH_LEASE_MS = 10_000;
type Flusher = { timer: NodeJS.Timeout | null; running: Promise<void> | null; again: boolean; stopped?: boolean };
const batches = new WeakMap<AppContext, Flusher>();

/** This process's flush state for `ctx` (made on first use). */
function flusherOf(ctx: AppContext): Flusher {
  let f = batches.get(ctx);
  if (!f) batches.set(ctx, (f = { timer: null, running: null, again: false }));
  return f;
}

/** Arms this process's flush timer (ms from now) unless one is armed. */
export function scheduleFlush(ctx: AppContext, ms: number): void {
  const f = flusherOf(ctx);
  if (f.timer || f.stopped) return;
  const flusher = f;
  flusher.timer = setTimeout(() => {
    flusher.timer = null;
    void flushFactRebuilds(ctx, { wait: false });
  }, ms);
  flusher.timer.unref?.();
}

/**
 * Rebuilds every pending call now, FLUSH_BATCH at a time, and waits for it (the timer, the start after a crash, the
 * reconcile job, tests). One process of a deployment flushes at a time (the lease FLUSH_LEASE, renewed per batch):
 * it takes every pending call, whichever process queued it. When another process holds it, the timer's flush tries
 * again after FACT_BATCH_MS, and an explicit call (`wait`, the default) waits for it, at most one lease's time. A
 * failed rebuild keeps its calls pending and tries again 5 s later; never throws.
 */
export async function flushFactRebuilds(ctx: AppContext, opts: { wait?: boolean } = {}): Promise<void> {
  const f = flusherOf(ctx);
  if (f.timer) {
    clearTimeout(f.timer);
    f.timer = null;
  }
  const flusher = f;
  if (flusher.stopped) return;
  if (flusher.running) {
    // Calls queued after the running pass read its batch are taken by one more pass.
    flusher.again = true;
    while (flusher.running) await flusher.running;
    return;
  }
  const holder = ctx.queue.workerId;
  const waitUntil = opts.wait === false ? 0 : Date.now() + FLUSH_LEASE_MS;
  flusher.running = (async () => {
    let leased = false;
    try {
      do {
        flusher.again = false;
        for (;;) {
          // Another process flushing: it takes these calls too. Wait for it (an explicit flush) or come back later.
          while (!(leased = await analyticsRepository.takeLease(ctx.db, FLUSH_LEASE, holder, FLUSH_LEASE_MS))) {
            if (Date.now() >= waitUntil || flusher.stopped) {
              scheduleFlush(ctx, FACT_BATCH_MS);
              return;
            }
            await new Promise((r) => setTimeout(r, 50));
          }
          const pending = await analyticsRepository.pendingFacts(ctx.db, FLUSH_BATCH);
          if (pending.length === 0) break;
          const companies = await rebuildFacts(
            ctx,
            pending.map((p) => Number(p.call_id)),
          );
          await analyticsRepository.clearPending(ctx.db, pending);
          markCompaniesChanged(ctx, companies);
          if (pending.length < FLUSH_BATCH) break;
        }
      } while (flusher.again);
    } catch (error) {
      ctx.log.error({ err: error }, 'analytics: rebuilding call facts failed; the calls stay pending and are tried again');
      scheduleFlush(ctx, 5_000);
    } finally {
      if (leased) await analyticsRepository.releaseLease(ctx.db, FLUSH_LEASE, holder).catch(() => undefined);
      flusher.running = null;
    }
  })();
  await flusher.running;
}

/** Stops this process's flushes (the server closes): waits for the one running; what is pending stays for the next start. */
export async function stopFactFlushes(ctx: AppContext): Promise<void> {
  const f = batches.get(ctx);
  if (!f) return;
  f.stopped = true;
  if (f.timer) clearTimeout(f.timer);
  f.timer = null;
  while (f.running) await f.running;
}

/**
 * `call.changed`, `call.annotated` (a batch of a round): records the calls for a rebuild (`call_facts_pending`,
 * durable: the deliveries are done once this committed) and schedules a flush within FACT_BATCH_MS, which rebuilds
 * every pending call together (the events of many calls cost one rebuild). A crash leaves the pending calls for the
 * flush after the restart.
 */
export async function onCallsChanged(ctx: AppContext, items: ReadonlyArray<{ payload: { callId: number } }>): Promise<void> {
  await analyticsRepository.queuePending(ctx.db, [...new Set(items.map((i) => i.payload.callId))]);
  scheduleFlush(ctx, FACT_BATCH_MS);
}

/** `call.attributed` (a batch of a round): stores call tracking's attributions, then rebuilds the calls' facts (batched). */
export async function onCallsAttributed(ctx: AppContext, items: ReadonlyArray<{ payload: DomainEvents['call.attributed'] }>): Promise<void> {
  await analyticsRepository.upsertAttributions(
    ctx.db,
    items.map(({ payload: p }) => ({
      call_id: p.callId,
      company_id: p.companyId,
      is_first_contact: p.isFirstContact,
      lead_id: p.leadId,
      method: p.method,
      pool_id: p.poolId,
      session_id: p.sessionId,
      traffic_source: p.trafficSource,
      source: p.source,
      medium: p.medium,
      campaign: p.campaign,
      keyword: p.keyword,
      first_traffic_source: p.firstTouch?.trafficSource ?? null,
      first_source: p.firstTouch?.source ?? null,
      first_medium: p.firstTouch?.medium ?? null,
      first_campaign: p.firstTouch?.campaign ?? null,
      first_keyword: p.firstTouch?.keyword ?? null,
    })),
  );
  await onCallsChanged(ctx, items);
}

/** Per process: the last call id the reconcile pass has checked (the first pass checks every call). */
const reconciledUpTo = new WeakMap<AppContext, number>();

/**
 * The reconcile pass: facts for every call that has none (windows of 10,000 call ids counted on both
 * sides, the incomplete ones compared id by id; the first pass of a process checks every call, later
 * passes the calls after the last one checked), and a rebuild of the
 * `recent` newest calls (their last events may have been lost in a crash).
 * @returns how many facts were written.
 */
export async function reconcileFacts(ctx: AppContext, recent = 1_000): Promise<number> {
  let written = 0;
  let after = reconciledUpTo.get(ctx) ?? 0;
  // Windows of 10,000 ids whose calls all have a fact cost two counts; others are compared id by id.
  const WINDOW = 10_000;
  for (let lo = after + 1; ; lo += WINDOW) {
    const hi = lo + WINDOW - 1;
    const { count, maxId } = await callIdWindow(ctx, lo, hi);
    if (lo > maxId) break;
    after = Math.min(hi, maxId);
    if (count === 0 || (await analyticsRepository.factCountBetween(ctx.db, lo, hi)) >= count) continue;
    for (let pageAfter = lo - 1; ;) {
      const page = (await callIdsPage(ctx, pageAfter, 1000)).filter((id) => id <= hi);
      if (page.length === 0) break;
      pageAfter = page[page.length - 1]!;
      const have = await analyticsRepository.factIdsAmong(ctx.db, page);
      const missing = page.filter((id) => !have.has(id));
      if (missing.length > 0) {
        markCompaniesChanged(ctx, await rebuildFacts(ctx, missing));
        written += missing.length;
      }
    }
  }
  reconciledUpTo.set(ctx, after);
  // The newest calls may have changed since their fact was built, their events lost: rebuild the last `recent` ids.
  for (let pageAfter = Math.max(0, after - recent); ;) {
    const page = await callIdsPage(ctx, pageAfter, 500);
    if (page.length === 0) break;
    pageAfter = page[page.length - 1]!;
    markCompaniesChanged(ctx, await rebuildFacts(ctx, page));
    written += page.length;
  }
  return written;
}
