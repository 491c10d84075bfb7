/** GET /api/numbers/list/{id}?include=sms-verification: a number with its labels and triggers. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { NumberDetail } from '../types';

export function getNumberDetail(id: number | string): Promise<NumberDetail> {
  return http.get<NumberDetail>(`/api/numbers/list/${id}`, { params: { include: 'sms-verification' } });
}

export function numberDetailQueryOptions(companyId: number | null, id: number | string | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'number-detail', String(id)),
    queryFn: () => getNumberDetail(id!),
    enabled: companyId !== null && id !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useNumberDetail(id: number | string | null) {
  return useQuery(numberDetailQueryOptions(useCompanyId(), id));
}
