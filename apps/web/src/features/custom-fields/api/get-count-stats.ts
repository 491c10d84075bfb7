/** GET /api/eavAttributes/{id}/countStats → {data: {total, entities, companies, perValue}}: how much a field is used. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { EavCountStats, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function getCountStats(id: number): Promise<Infer<typeof EavCountStats>> {
  return http.get<Infer<typeof EavCountStats>>(`/api/eavAttributes/${id}/countStats`);
}

export function countStatsQueryOptions(companyId: number | null, id: number) {
  return queryOptions({ queryKey: companyKey(companyId, 'eav-attributes', 'stats', id), queryFn: () => getCountStats(id), staleTime: CACHE_MS.counts });
}

export function useCountStats(id: number) {
  return useQuery(countStatsQueryOptions(useCompanyId(), id));
}
