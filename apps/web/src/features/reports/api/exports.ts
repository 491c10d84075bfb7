/**
 * Exports (spec 001 §7: the call report with `format csv`, `async 1` and a column list; spec 002
 * "Dashboard": POST /calls/export, /messages/export, /fax/export, /voicemails/export with async, columns,
 * tz). Each answers 202 with the spec's result message and the job; the file is announced on the
 * user's channel (`export ready`, realtime/use-export-notices.ts) and listed by GET /api/analytics/exports.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallReportFiltersInput, ExportKind, ExportListBody, ExportStartedBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import { reportQueryParams, type CallReportRequest } from './get-call-report';

const EXPORT_PATHS: Record<ExportKind, string> = {
  calls: '/api/calls/export',
  messages: '/api/messages/export',
  fax: '/api/fax/export',
  voicemails: '/api/voicemails/export',
};

export type ExportRequest =
  | { source: 'report'; report: CallReportRequest; columns: string[] }
  | { source: 'kind'; kind: ExportKind; filters: CallReportFiltersInput; tz: string; columns: string[] };

/** Starts an export; resolves with the server's message and job. */
export function startExport(companyId: number, r: ExportRequest): Promise<ExportStartedBody> {
  if (r.source === 'report') {
    return http.get<ExportStartedBody>('/api/analytics/calls', {
      params: {
        company_id: companyId,
        group: r.report.group,
        target: r.report.target,
        ...reportQueryParams(r.report.filters),
        format: 'csv',
        async: 1,
        columns: r.columns,
      },
    });
  }
  return http.post<ExportStartedBody>(EXPORT_PATHS[r.kind], { company_id: companyId, async: 1, columns: r.columns, tz: r.tz, filters: r.filters });
}

export function exportsKey(companyId: number | null): unknown[] {
  return companyKey(companyId, 'exports');
}

export function useStartExport() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (r: ExportRequest) => startExport(companyId!, r),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: exportsKey(companyId) }),
  });
}

/** The current user's recent exports of the company (newest first); `enabled` while the list is open. */
export function useRecentExports(enabled: boolean) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: exportsKey(companyId),
    queryFn: () => http.get<Infer<typeof ExportListBody>>('/api/analytics/exports', { params: { company_id: companyId } }),
    enabled: enabled && companyId !== null,
    staleTime: 5_000,
    refetchOnMount: true,
  });
}
