/**
 * Read-only reporting query of the tracking module for billing (docs/billing.md "Add-ons"): whether a company uses
 * dynamic number insertion, i.e. how many active DNI pools it has. Never writes.
 */
import type { AppContext } from '../../context.js';

/** The number of active DNI pools of `companyId` (0 when it uses none). */
export async function activeDniPoolCount(ctx: AppContext, companyId: number): Promise<number> {
  const r = await ctx.db
    .selectFrom('dni_pools')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .where('active', '=', true)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
