/** GET /api/greetings?company_id: the company's greetings. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { Greeting } from '../types';

export function getGreetings(companyId: number): Promise<{ data: Greeting[] }> {
  return http.get<{ data: Greeting[] }>('/api/greetings', { params: { company_id: companyId } });
}

export function greetingsQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'greetings'),
    queryFn: () => getGreetings(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useGreetings() {
  return useQuery(greetingsQueryOptions(useCompanyId()));
}
