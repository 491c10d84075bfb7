/**
 * The port-in request behind a number, for the numbers' views (spec 002 §3 "Number": `port`;
 * the numbers view's `numberView` hook, provided by this module at start): the newest completed
 * port-in request of the company that listed the number, as `{id, state}`; null for a number that
 * did not come by porting.
 */
import type { AppContext } from '../../context.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import type { NumberViewSignals } from '../numbers/numbers.view.js';
import { portsRepository } from './ports.repository.js';

/** The numbers view source: for each of `numberIds`, the port-in request that brought it (`{id, state}`) or null. */
export async function numberPortSignals(
  ctx: AppContext,
  _userId: number | null,
  companyId: number,
  numberIds: number[],
): Promise<Map<number, NumberViewSignals>> {
  const numbers = await getCompanyNumbers(ctx, companyId, numberIds);
  const requests = await portsRepository.completedWithAny(
    ctx.db,
    companyId,
    numbers.map((n) => n.number),
  );
  const out = new Map<number, NumberViewSignals>();
  for (const n of numbers) {
    const p = requests.find((r) => (r.numbers as string[]).includes(n.number));
    out.set(n.id, { port: p ? { id: p.id, state: p.state } : null });
  }
  return out;
}

/** Module setup: a number's view names the port-in request that brought it (spec 002 §3 "Number": port; numbers.view.ts). */
export function registerPortsHooks(ctx: AppContext): void {
  ctx.hooks.provide('numberView', numberPortSignals);
}
