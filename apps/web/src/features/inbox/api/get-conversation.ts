/**
 * GET /api/companies/{companyId}/conversations/{cid}: one conversation (thread header and reply
 * number when it is not in the list shown, e.g. a deep link or just archived).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { Conversation } from '../types';

export function getConversation(companyId: number, conversationId: number): Promise<Conversation> {
  return http.get<Conversation>(`/api/companies/${companyId}/conversations/${conversationId}`);
}

export function conversationQueryOptions(companyId: number | null, conversationId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'conversation', conversationId),
    queryFn: () => getConversation(companyId!, conversationId!),
    enabled: companyId !== null && conversationId !== null,
    staleTime: CACHE_MS.conversations,
  });
}

/** The conversation, fetched only when `needed` (the caller has no copy of it). */
export function useConversation(conversationId: number | null, needed: boolean) {
  const options = conversationQueryOptions(useCompanyId(), conversationId);
  return useQuery({ ...options, enabled: options.enabled !== false && needed });
}
