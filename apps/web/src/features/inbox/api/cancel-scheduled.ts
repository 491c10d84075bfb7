/** DELETE /api/inbox/message/schedule/{id} → 204: cancels a scheduled message before it is sent (409 once sent). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { conversationItemsQueryOptions } from './get-conversation-items';

export function cancelScheduled(itemId: number): Promise<unknown> {
  return http.delete(`/api/inbox/message/schedule/${itemId}`);
}

export function useCancelScheduled(conversationId: number) {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: cancelScheduled,
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationItemsQueryOptions(companyId, conversationId).queryKey }),
  });
}
