/**
 * Automatic lookups of inbound callers (docs/caller-id.md "Automatic lookups"): on `call.changed`
 * of an inbound call whose company has `autoLookup` on and whose caller has no fresh cached answer,
 * the job `caller-id.lookup` asks the provider (singleton per number, retried twice 30 s apart).
 * The event handler only enqueues: the call flow never waits for the provider.
 */
import { parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DomainEvents } from '../../platform/events/index.js';
import { isLastAttempt } from '../../platform/queue.js';
import { callerIdRepository } from './caller-id.repository.js';
import { autoLookupEnabled, callerIdOfParty } from './caller-id.service.js';

/** The queue job of one automatic lookup. */
export const LOOKUP_JOB = 'caller-id.lookup';
type LookupJob = { companyId: number; e164: string };

// Calls already considered in this process, per database (call.changed repeats per status change); bounded.
const seenByDb = new WeakMap<object, Set<number>>();
const SEEN_MAX = 5000;

/**
 * `call.changed` handler for a round's calls together: enqueues the automatic lookup of each new inbound caller
 * without a fresh cached answer whose company has it on (idempotent per call; one job per number at a time).
 */
export async function onCallsChangedLookup(ctx: AppContext, items: ReadonlyArray<{ payload: DomainEvents['call.changed'] }>): Promise<void> {
  let seen = seenByDb.get(ctx.db);
  if (!seen) seenByDb.set(ctx.db, (seen = new Set()));
  const wanted = new Map<string, number>(); // caller (E.164) → company
  for (const { payload: e } of items) {
    // A past call recorded after the fact (`history`) is no new caller to look up.
    if (e.direction === 'outbound' || e.history || seen.has(e.callId)) continue;
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.add(e.callId);
    const e164 = parsePhone(e.from);
    if (e164 && !wanted.has(e164)) wanted.set(e164, e.companyId);
  }
  if (wanted.size === 0) return;
  for (const row of await callerIdRepository.findFresh(ctx.db, [...wanted.keys()], new Date())) wanted.delete(row.e164);
  const enabled = new Map<number, boolean>();
  const jobs: Array<{ data: LookupJob; singletonKey: string; retryLimit: number; retryDelay: number }> = [];
  for (const [e164, companyId] of wanted) {
    if (!enabled.has(companyId)) enabled.set(companyId, await autoLookupEnabled(ctx, companyId));
    if (!enabled.get(companyId)) continue;
    jobs.push({ data: { companyId, e164 }, singletonKey: `caller-id:${e164}`, retryLimit: 2, retryDelay: 30 });
  }
  // The batch's lookups in one statement.
  await ctx.queue.enqueueMany<LookupJob>(LOOKUP_JOB, jobs);
}

/** Defines `caller-id.lookup`: looks the number up unless a fresh answer exists (then it only re-reads the cache). */
export function registerCallerIdJobs(ctx: AppContext): void {
  ctx.queue.define<LookupJob>(
    LOOKUP_JOB,
    async (data, job) => {
      try {
        await callerIdOfParty(ctx, data.companyId, data.e164, { lookupWhenMissing: true, contact: null });
      } catch (e) {
        // The provider failed: the queue retries; on the last attempt the caller stays "missing" (a person can look it up).
        if (isLastAttempt(job)) {
          ctx.log.warn({ err: e, e164: data.e164 }, 'automatic caller name lookup gave up');
          return;
        }
        throw e;
      }
    },
    // Up to 16 lookups per fetch (a burst of new callers): a failure retries its batch mates too, which then find
    // their fresh answer in the cache (no second lookup, no second charge).
    2,
    { batchSize: 16 },
  );
}
