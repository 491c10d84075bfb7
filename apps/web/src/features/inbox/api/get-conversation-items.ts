/**
 * GET /api/companies/{companyId}/conversations/{cid}/items: the thread, newest first, cursor-paged.
 * Cached 600 s (CACHE_MS.conversations); live events refetch it.
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { ConversationItem, CursorPage } from '../types';

export function getConversationItems(companyId: number, conversationId: number, cursor: string | null): Promise<CursorPage<ConversationItem>> {
  return http.get<CursorPage<ConversationItem>>(`/api/companies/${companyId}/conversations/${conversationId}/items`, {
    params: { cursor: cursor ?? undefined },
  });
}

export function conversationItemsQueryOptions(companyId: number | null, conversationId: number | null) {
  return infiniteQueryOptions({
    queryKey: companyKey(companyId, 'conversation-items', conversationId),
    queryFn: ({ pageParam }) => getConversationItems(companyId!, conversationId!, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta?.next_cursor ?? null,
    enabled: companyId !== null && conversationId !== null,
    staleTime: CACHE_MS.conversations,
  });
}

export function useConversationItems(conversationId: number | null) {
  return useInfiniteQuery(conversationItemsQueryOptions(useCompanyId(), conversationId));
}
