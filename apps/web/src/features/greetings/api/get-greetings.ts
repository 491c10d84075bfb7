/** GET /api/greetings?company_id: the company's greetings. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { GreetingListBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function getGreetings(companyId: number): Promise<Infer<typeof GreetingListBody>> {
  return http.get<Infer<typeof GreetingListBody>>('/api/greetings', { params: { company_id: companyId } });
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
