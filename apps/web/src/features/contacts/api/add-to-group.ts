/** POST /api/groups/{groupId}/contacts {contacts | all + filters} → {message, count}: adds the selection to a group. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { BulkSelection } from '../types';
import { bulkBody, type BulkResult } from './bulk-body';
import { contactsKey } from './get-contacts';

export function addToGroup(groupId: number, selection: BulkSelection): Promise<BulkResult> {
  return http.post<BulkResult>(`/api/groups/${groupId}/contacts`, bulkBody(selection));
}

export function useAddToGroup() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ groupId, selection }: { groupId: number; selection: BulkSelection }) => addToGroup(groupId, selection),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: contactsKey(companyId) });
      await queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'groups') });
    },
  });
}
