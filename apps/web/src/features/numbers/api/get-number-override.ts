/** GET /api/numbers/{id}/override: the manual override in force now ('auto' when none) and whether the number is open. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { NumberOverride } from '../types';

export function getNumberOverride(id: number): Promise<{ data: NumberOverride }> {
  return http.get<{ data: NumberOverride }>(`/api/numbers/${id}/override`);
}

export function numberOverrideQueryOptions(companyId: number | null, id: number) {
  return queryOptions({
    queryKey: companyKey(companyId, 'number-override', String(id)),
    queryFn: () => getNumberOverride(id),
    enabled: companyId !== null,
    // "Open now" depends on the clock: read again on every visit.
    staleTime: 0,
  });
}

export function useNumberOverride(id: number) {
  return useQuery(numberOverrideQueryOptions(useCompanyId(), id));
}
