/**
 * Backfill on first activation (docs/integrations.md "Backfill"): the company's calls of the last N days
 * (`backfill_days`, 0–90; GA4 at most 3 because the Measurement Protocol takes events ≤ 72 h old), read through the
 * calls module in pages of 500 ids, at most 10,000 calls.
 */
import type { AppContext } from '../../context.js';
import { callIdsPage, callsForFacts } from '../calls/calls.service.js';

const PAGE = 500;
const MAX_CALLS = 10_000;

/** Ids of the company's calls started since `since`, oldest first. */
export async function callsInWindow(ctx: AppContext, companyId: number, since: Date): Promise<number[]> {
  const out: number[] = [];
  let after = 0;
  for (let scanned = 0; scanned < MAX_CALLS * 5; scanned += PAGE) {
    const ids = await callIdsPage(ctx, after, PAGE, since);
    if (!ids.length) break;
    after = ids[ids.length - 1]!;
    for (const c of await callsForFacts(ctx, ids)) if (c.company_id === companyId && c.ended_at) out.push(c.id);
    if (out.length >= MAX_CALLS) break;
  }
  return out.slice(0, MAX_CALLS);
}
