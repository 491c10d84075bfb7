/** POST /api/companies/{companyId}/conversations/{cid}/notes {body} → 201 ConversationItem (type note): a note for the team in the thread. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { ConversationItem } from '../types';
import { conversationItemsQueryOptions } from './get-conversation-items';

export function addNote(companyId: number, conversationId: number, body: string): Promise<ConversationItem> {
  return http.post<ConversationItem>(`/api/companies/${companyId}/conversations/${conversationId}/notes`, { body });
}

export function useAddNote(conversationId: number) {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (body: string) => addNote(companyId!, conversationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationItemsQueryOptions(companyId, conversationId).queryKey }),
  });
}
