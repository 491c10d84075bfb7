/**
 * The activity screen's export (spec 002 "Dashboard": POST /calls/export, /messages/export,
 * /voicemails/export with async, columns, tz): the feed's current report filters, every column of the
 * kind. 202 answers carry the spec's result message; the file arrives by `export ready`.
 */
import { useMutation } from '@tanstack/react-query';
import { EXPORT_COLUMNS, type CallReportFiltersInput, type ExportStartedBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';

export type ActivityExportKind = 'calls' | 'messages' | 'voicemails';

export function exportActivity(companyId: number, kind: ActivityExportKind, filters: CallReportFiltersInput, tz: string): Promise<ExportStartedBody> {
  return http.post<ExportStartedBody>(`/api/${kind}/export`, {
    company_id: companyId,
    async: 1,
    tz,
    columns: EXPORT_COLUMNS[kind].map((c) => c.key),
    filters,
  });
}

export function useExportActivity() {
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ kind, filters, tz }: { kind: ActivityExportKind; filters: CallReportFiltersInput; tz: string }) =>
      exportActivity(companyId!, kind, filters, tz),
  });
}
