/** GET /api/eavAttributes/{id}/countStats → {data: {total, entities, companies, perValue}}: how much a field is used. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { CountStats } from '../types';

export function getCountStats(id: number): Promise<{ data: CountStats }> {
  return http.get<{ data: CountStats }>(`/api/eavAttributes/${id}/countStats`);
}

export function countStatsQueryOptions(companyId: number | null, id: number) {
  return queryOptions({ queryKey: companyKey(companyId, 'eav-attributes', 'stats', id), queryFn: () => getCountStats(id), staleTime: CACHE_MS.counts });
}

export function useCountStats(id: number) {
  return useQuery(countStatsQueryOptions(useCompanyId(), id));
}
