/**
 * POST /api/companies/{companyId}/contactLabels/{labelId}/bulkAddLabel and .../bulkRemoveLabel
 * {contacts | all + filters} → {message, count}.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { BulkSelection } from '../types';
import { bulkBody, type BulkResult } from './bulk-body';
import { contactsKey } from './get-contacts';

export function changeLabel(companyId: number, labelId: number, add: boolean, selection: BulkSelection): Promise<BulkResult> {
  return http.post<BulkResult>(`/api/companies/${companyId}/contactLabels/${labelId}/${add ? 'bulkAddLabel' : 'bulkRemoveLabel'}`, bulkBody(selection));
}

export function useChangeLabel() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ labelId, add, selection }: { labelId: number; add: boolean; selection: BulkSelection }) => changeLabel(companyId!, labelId, add, selection),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey(companyId) }),
  });
}
