/** PUT /api/inbox/conversations/{id}/restore: brings an archived conversation back to the inbox. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Conversation } from '../types';
import { conversationQueryOptions } from './get-conversation';
import { conversationListsKey } from './get-conversations';

export function restoreConversation(conversationId: number): Promise<Conversation> {
  return http.put<Conversation>(`/api/inbox/conversations/${conversationId}/restore`);
}

export function useRestoreConversation() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: restoreConversation,
    onSuccess: async (conversation) => {
      queryClient.setQueryData(conversationQueryOptions(companyId, conversation.id).queryKey, conversation);
      await queryClient.invalidateQueries({ queryKey: conversationListsKey(companyId), refetchType: 'all' });
    },
  });
}
