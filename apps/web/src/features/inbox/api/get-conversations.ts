/**
 * GET /api/companies/{companyId}/conversations?perPage&cursor&search&isArchived&types[]&numberIds[]: the inbox list, newest
 * activity first, cursor-paged (perPage default CONVERSATIONS_PER_PAGE = 5). Cached 600 s
 * (CACHE_MS.conversations); live 'conversation updated' events patch the cache.
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { CACHE_MS, CONVERSATIONS_PER_PAGE } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { ConversationListQuery } from '@switchboard/contracts';
import type { Conversation, CursorPage } from '../types';

/**
 * The list's filters (the contract's `ConversationListQuery`): `types` keeps conversations having
 * items of these types, `numberIds` those of these numbers (empty: all).
 */
export type ConversationFilters = Pick<ConversationListQuery, 'isArchived' | 'types' | 'numberIds'> & { search: string };

export function getConversations(companyId: number, filters: ConversationFilters, cursor: string | null): Promise<CursorPage<Conversation>> {
  return http.get<CursorPage<Conversation>>(`/api/companies/${companyId}/conversations`, {
    params: {
      perPage: CONVERSATIONS_PER_PAGE,
      cursor: cursor ?? undefined,
      search: filters.search || undefined,
      isArchived: filters.isArchived,
      types: filters.types?.length ? filters.types : undefined,
      numberIds: filters.numberIds?.length ? filters.numberIds : undefined,
    },
  });
}

/** Prefix of every conversation list of a company (all filters). */
export function conversationListsKey(companyId: number | null) {
  return companyKey(companyId, 'conversations');
}

export function conversationsQueryOptions(companyId: number | null, filters: ConversationFilters) {
  return infiniteQueryOptions({
    queryKey: [...conversationListsKey(companyId), filters],
    queryFn: ({ pageParam }) => getConversations(companyId!, filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta?.next_cursor ?? null,
    enabled: companyId !== null,
    staleTime: CACHE_MS.conversations,
  });
}

export function useConversations(filters: ConversationFilters) {
  return useInfiniteQuery(conversationsQueryOptions(useCompanyId(), filters));
}
