/** PUT /api/inbox/conversations/{id}/archive: moves a conversation to Archived. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { conversationListsKey } from './get-conversations';

export function archiveConversation(conversationId: number): Promise<unknown> {
  return http.put(`/api/inbox/conversations/${conversationId}/archive`);
}

export function useArchiveConversation() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: archiveConversation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationListsKey(companyId), refetchType: 'all' }),
  });
}
