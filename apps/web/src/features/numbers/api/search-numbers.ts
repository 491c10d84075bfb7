/**
 * GET /api/numbers/search: purchasable numbers from the carrier's inventory, local by area code with
 * a mode (contains, starts_with, ends_with) and pattern, or toll-free by prefix. Cached 300 s
 * (CACHE_MS.numberSearch).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, NumberSearchBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import type { NumberSearchParams } from '../types';

export function searchNumbers(params: NumberSearchParams): Promise<Infer<typeof NumberSearchBody>> {
  return http.get<Infer<typeof NumberSearchBody>>('/api/numbers/search', { params: { ...params } });
}

export function numberSearchQueryOptions(params: NumberSearchParams | null) {
  return queryOptions({
    queryKey: ['number-search', params],
    queryFn: () => searchNumbers(params!),
    enabled: params !== null,
    staleTime: CACHE_MS.numberSearch,
  });
}

export function useNumberSearch(params: NumberSearchParams | null) {
  return useQuery(numberSearchQueryOptions(params));
}
