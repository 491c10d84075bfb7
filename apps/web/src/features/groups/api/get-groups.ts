/**
 * GET /api/groups?company_id&search: the company's groups with their counters (contacts, active,
 * invalid, unsubscribed). Company data: kept until a change invalidates it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { GroupList, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function getGroups(companyId: number): Promise<Infer<typeof GroupList>> {
  return http.get<Infer<typeof GroupList>>('/api/groups', { params: { company_id: companyId } });
}

/** Key of the company's group list; contacts changes invalidate it (counters). */
export function groupsKey(companyId: number | null) {
  return companyKey(companyId, 'groups');
}

export function groupsQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: groupsKey(companyId),
    queryFn: () => getGroups(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.counts,
    refetchOnMount: true,
  });
}

export function useGroups() {
  return useQuery(groupsQueryOptions(useCompanyId()));
}
