/**
 * Read-only reporting query of the numbers module (modules/analytics and the alerts' monitors,
 * docs/analytics.md): the active numbers of companies, without a user (jobs have none). Never writes.
 */
import type { AppContext } from '../../context.js';

/** Id, company, E.164 and label of the active (not released) numbers of `companyIds`, by id. */
export async function activeNumbersOf(
  ctx: AppContext,
  companyIds: readonly number[],
): Promise<Array<{ id: number; company_id: number; number: string; label: string }>> {
  if (companyIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('numbers')
    .select(['id', 'company_id', 'number', 'label'])
    .where('company_id', 'in', [...new Set(companyIds)])
    .where('released_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), company_id: Number(r.company_id), number: r.number, label: r.label }));
}
