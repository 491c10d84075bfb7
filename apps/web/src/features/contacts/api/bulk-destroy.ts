/** POST /api/companies/{companyId}/contacts/bulkDestroy {contacts | all + filters} → {message, count}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { BulkSelection } from '../types';
import { bulkBody, type BulkResult } from './bulk-body';
import { contactsKey } from './get-contacts';

export function bulkDestroy(companyId: number, selection: BulkSelection): Promise<BulkResult> {
  return http.post<BulkResult>(`/api/companies/${companyId}/contacts/bulkDestroy`, bulkBody(selection));
}

export function useBulkDestroy() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (selection: BulkSelection) => bulkDestroy(companyId!, selection),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: contactsKey(companyId) });
      await queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'groups') });
    },
  });
}
