/** GET /api/company/{companyId}/ports (newest first); POST /api/company/{companyId}/numbers/port → 201 {message, data}. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, PortCreatedBody, PortListBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { PortRequestInput } from '../types';

export function getPorts(companyId: number): Promise<Infer<typeof PortListBody>> {
  return http.get<Infer<typeof PortListBody>>(`/api/company/${companyId}/ports`);
}

export function portsQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'ports'),
    queryFn: () => getPorts(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function usePorts() {
  return useQuery(portsQueryOptions(useCompanyId()));
}

export function createPort(companyId: number, input: PortRequestInput): Promise<Infer<typeof PortCreatedBody>> {
  return http.post<Infer<typeof PortCreatedBody>>(`/api/company/${companyId}/numbers/port`, input);
}

export function useCreatePort() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (input: PortRequestInput) => createPort(companyId!, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: portsQueryOptions(companyId).queryKey }),
  });
}
