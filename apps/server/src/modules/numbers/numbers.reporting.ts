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

/**
 * How many of a company's active numbers record their calls and transcribe them (spec 002 §3 "Number" call settings):
 * billing's add-ons "Call recording" and "Call transcription" are in use while either count is above 0
 * (docs/billing.md "Add-ons"). Never writes.
 */
export async function callFeatureCountsOf(ctx: AppContext, companyId: number): Promise<{ recording: number; transcription: number }> {
  const r = await ctx.db
    .selectFrom('numbers')
    .select([
      (eb) => eb.fn.countAll<string>().filterWhere('record', '=', true).as('recording'),
      (eb) => eb.fn.countAll<string>().filterWhere('call_transcription_enabled', '=', true).as('transcription'),
    ])
    .where('company_id', '=', companyId)
    .where('released_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { recording: Number(r.recording), transcription: Number(r.transcription) };
}
