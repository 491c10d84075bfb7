/** POST /api/companies/{companyId}/contacts/bulkExport {contacts | all + filters} → {url, count}: a CSV to download. */
import { useMutation } from '@tanstack/react-query';
import type { ExportResult, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { BulkSelection } from '../types';
import { bulkBody } from './bulk-body';

export function bulkExport(companyId: number, selection: BulkSelection): Promise<Infer<typeof ExportResult>> {
  return http.post<Infer<typeof ExportResult>>(`/api/companies/${companyId}/contacts/bulkExport`, bulkBody(selection));
}

export function useBulkExport() {
  const companyId = useCompanyId();
  return useMutation({ mutationFn: (selection: BulkSelection) => bulkExport(companyId!, selection) });
}
