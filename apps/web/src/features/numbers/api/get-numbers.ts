/** GET /api/companies/{companyId}/numbers: the selected company's numbers with routing (company data, never stale on its own). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { PhoneNumber } from '../types';

export function getNumbers(companyId: number): Promise<{ data: PhoneNumber[] }> {
  return http.get<{ data: PhoneNumber[] }>(`/api/companies/${companyId}/numbers`);
}

export function numbersQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'numbers'),
    queryFn: () => getNumbers(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

/**
 * The selected company's numbers. Re-read on mount when marked stale (a buy, save, release or
 * template elsewhere invalidates the company's keys while this list is not on screen).
 */
export function useCompanyNumbers() {
  return useQuery({ ...numbersQueryOptions(useCompanyId()), refetchOnMount: true });
}
