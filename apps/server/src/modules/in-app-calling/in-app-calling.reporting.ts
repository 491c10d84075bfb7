/**
 * Read-only reporting query of in-app calling for the reporting store (modules/analytics,
 * docs/analytics.md "answered_by"): who answered a call in the browser (`in_app_calls.answered_by`),
 * or, for a call placed from the browser, who placed it. Never writes.
 */
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';

/**
 * The user who handled each of `callIds` in the app: the in-app user who answered an inbound call,
 * the user who placed an outbound browser call. Calls nobody handled in the app are absent.
 */
export async function inAppHandlersOf(ctx: AppContext, callIds: readonly number[], db: DbOrTx = ctx.db): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (callIds.length === 0) return out;
  const rows = await db
    .selectFrom('in_app_calls')
    .select(['call_id', 'answered_by', 'placed_by'])
    .where('call_id', 'in', [...new Set(callIds)])
    .execute();
  for (const r of rows) {
    const who = r.answered_by ?? r.placed_by;
    if (who !== null) out.set(Number(r.call_id), Number(who));
  }
  return out;
}
