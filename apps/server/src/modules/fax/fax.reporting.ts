/**
 * Read-only query functions the fax module publishes for reporting (docs/fax.md "Reports";
 * docs/analytics.md "Exports"): the dashboard's faxes KPI (`countFaxes`), the fax export's rows
 * (`faxesForExport`) and the activity feed's fax items (`faxActivity`). Times are UTC; ranges [from, to).
 */
import type { AppContext } from '../../context.js';
import { faxRepository, type FaxScope } from './fax.repository.js';

export type { FaxScope };

/** One fax as reports read it. `from`/`to` are E.164; `file_key` the PDF's blob key (null until stored). */
export type FaxReportRow = {
  id: number;
  company_id: number;
  number_id: number;
  conversation_id: number | null;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  remote: string;
  status: string;
  pages: number | null;
  error: string | null;
  cover_note: string | null;
  file_key: string | null;
  created_at: Date;
};

function toReportRow(r: Awaited<ReturnType<typeof faxRepository.page>>[number]): FaxReportRow {
  const inbound = r.direction === 'inbound';
  return {
    id: r.id,
    company_id: r.company_id,
    number_id: r.number_id,
    conversation_id: r.conversation_id,
    direction: inbound ? 'inbound' : 'outbound',
    from: inbound ? r.remote : r.local_number,
    to: inbound ? r.local_number : r.remote,
    remote: r.remote,
    status: r.status,
    pages: r.pages,
    error: r.error,
    cover_note: r.cover_note,
    file_key: r.file_key,
    created_at: r.created_at,
  };
}

/** Faxes sent and received in the scope (the dashboard's faxes KPI, spec 002 "Dashboard"). */
export async function countFaxes(ctx: AppContext, scope: FaxScope): Promise<number> {
  return faxRepository.count(ctx.db, scope);
}

/** Up to `limit` faxes of the scope with id above `afterId`, by id (the fax export, page by page). */
export async function faxesForExport(ctx: AppContext, scope: FaxScope & { afterId: number; limit: number }): Promise<FaxReportRow[]> {
  return (await faxRepository.page(ctx.db, scope, scope.afterId, scope.limit)).map(toReportRow);
}

/** The newest `limit` faxes of a company in [from, to) (optionally of some numbers), newest first, and their total (the activity feed). */
export async function faxActivity(
  ctx: AppContext,
  companyId: number,
  range: { from: Date; to: Date; numberIds?: number[]; limit: number },
): Promise<{ rows: FaxReportRow[]; total: number }> {
  const r = await faxRepository.newestIn(ctx.db, companyId, range, range.limit);
  return { rows: r.rows.map(toReportRow), total: r.total };
}
