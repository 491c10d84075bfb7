/** PUT /api/inbox/conversations/{id}/restore: brings an archived conversation back to the inbox. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { conversationListsKey } from './get-conversations';

export function restoreConversation(conversationId: number): Promise<unknown> {
  return http.put(`/api/inbox/conversations/${conversationId}/restore`);
}

export function useRestoreConversation() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: restoreConversation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationListsKey(companyId), refetchType: 'all' }),
  });
}
