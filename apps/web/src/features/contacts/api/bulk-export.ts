/** POST /api/companies/{companyId}/contacts/bulkExport {contacts | all + filters} → {url, count}: a CSV to download. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { BulkSelection } from '../types';
import { bulkBody } from './bulk-body';

export function bulkExport(companyId: number, selection: BulkSelection): Promise<{ url: string; count: number }> {
  return http.post<{ url: string; count: number }>(`/api/companies/${companyId}/contacts/bulkExport`, bulkBody(selection));
}

export function useBulkExport() {
  const companyId = useCompanyId();
  return useMutation({ mutationFn: (selection: BulkSelection) => bulkExport(companyId!, selection) });
}
