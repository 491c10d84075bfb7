/** GET /api/calls/{id}: the call with its history, tags, note, notes, qualification and custom values. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { CallDetail } from '../types';

export function getCall(id: number): Promise<CallDetail> {
  return http.get<CallDetail>(`/api/calls/${id}`);
}

export function callQueryOptions(companyId: number | null, id: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'call', id),
    queryFn: () => getCall(id!),
    enabled: companyId !== null && id !== null,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

export function useCall(id: number | null) {
  return useQuery(callQueryOptions(useCompanyId(), id));
}
