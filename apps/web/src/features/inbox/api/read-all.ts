/** PUT /api/companies/{companyId}/conversations/{cid}/read-all: marks the thread read; the list shows no unread badge for it. */
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Conversation, CursorPage } from '../types';
import { conversationListsKey } from './get-conversations';

export function readAll(companyId: number, conversationId: number): Promise<unknown> {
  return http.put(`/api/companies/${companyId}/conversations/${conversationId}/read-all`);
}

export function useReadAll() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (conversationId: number) => readAll(companyId!, conversationId),
    onSuccess: (_data, conversationId) => {
      queryClient.setQueriesData<InfiniteData<CursorPage<Conversation>>>({ queryKey: conversationListsKey(companyId) }, (data) =>
        data
          ? { ...data, pages: data.pages.map((p) => ({ ...p, data: p.data.map((c) => (c.id === conversationId ? { ...c, numUnreadItems: 0 } : c)) })) }
          : data,
      );
    },
  });
}
