/**
 * The audit log (docs/audit.md): GET /api/audit-log (company_id, filters, page, per_page) and the CSV export at
 * GET /api/audit-log/export with the same filters (a plain link: the session cookie authenticates it).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditEntry, PageMeta } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

/** The screen's filters; empty strings mean "any". Dates are `YYYY-MM-DD` (UTC days). */
export interface AuditFilters {
  actorKind: string;
  entityType: string;
  outcome: string;
  from: string;
  to: string;
  search: string;
}

/** The query parameters of both the list and the export. */
export function auditParams(companyId: number | null, f: AuditFilters): Record<string, string | number> {
  const p: Record<string, string | number> = { company_id: companyId ?? 0 };
  if (f.actorKind) p.actor_kind = f.actorKind;
  if (f.entityType.trim()) p.entity_type = f.entityType.trim();
  if (f.outcome) p.outcome = f.outcome;
  if (f.from) p.from = f.from;
  if (f.to) p.to = nextDay(f.to);
  if (f.search.trim()) p.search = f.search.trim();
  return p;
}

/** `to` is inclusive on screen and exclusive on the server: the day after. */
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

export function useAuditLog(f: AuditFilters, page: number) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...companyKey(companyId, 'audit'), f, page],
    queryFn: () => http.get<{ data: AuditEntry[]; meta: PageMeta }>('/api/audit-log', { params: { ...auditParams(companyId, f), page, per_page: 50 } }),
    enabled: companyId !== null,
    placeholderData: keepPreviousData,
  });
}

/** The export's URL for the filters. */
export function auditExportUrl(companyId: number | null, f: AuditFilters): string {
  return `/api/audit-log/export?${new URLSearchParams(Object.entries(auditParams(companyId, f)).map(([k, v]) => [k, String(v)])).toString()}`;
}
