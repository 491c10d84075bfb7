/**
 * PUT /api/companies/{companyId}/conversations/bulk-update {ids, type read|unread|archive|restore|delete}
 * → {data, ids}: all or nothing. The lists and unread counts are refetched.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkUpdateBody, BulkUpdateResult, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { conversationListsKey } from './get-conversations';
import { notificationCountsKey } from './get-notification-counts';

export type BulkType = BulkUpdateBody['type'];

export function bulkUpdate(companyId: number, ids: number[], type: BulkType): Promise<Infer<typeof BulkUpdateResult>> {
  return http.put(`/api/companies/${companyId}/conversations/bulk-update`, { ids, type });
}

export function useBulkUpdate() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ ids, type }: { ids: number[]; type: BulkType }) => bulkUpdate(companyId!, ids, type),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: conversationListsKey(companyId), refetchType: 'all' });
      await queryClient.invalidateQueries({ queryKey: notificationCountsKey(companyId) });
    },
  });
}
