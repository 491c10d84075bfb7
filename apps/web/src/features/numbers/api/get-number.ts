/** GET /api/numbers/{id}: one number with its custom-field values (`eavAttributeValues`). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { NumberWithValues } from '../types';

export function getNumber(id: number): Promise<NumberWithValues> {
  return http.get<NumberWithValues>(`/api/numbers/${id}`);
}

export function numberQueryOptions(companyId: number | null, id: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'number', String(id)),
    queryFn: () => getNumber(id!),
    enabled: companyId !== null && id !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useNumber(id: number | null) {
  return useQuery(numberQueryOptions(useCompanyId(), id));
}
