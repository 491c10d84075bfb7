/** PUT /api/inbox/conversations/{id}/archive: moves a conversation to Archived. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Conversation } from '../types';
import { conversationQueryOptions } from './get-conversation';
import { conversationListsKey } from './get-conversations';

export function archiveConversation(conversationId: number): Promise<Conversation> {
  return http.put<Conversation>(`/api/inbox/conversations/${conversationId}/archive`);
}

export function useArchiveConversation() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: archiveConversation,
    onSuccess: async (conversation) => {
      queryClient.setQueryData(conversationQueryOptions(companyId, conversation.id).queryKey, conversation);
      await queryClient.invalidateQueries({ queryKey: conversationListsKey(companyId), refetchType: 'all' });
    },
  });
}
