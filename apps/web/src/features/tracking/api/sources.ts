/**
 * DNI sources (spec 002 "DNI"): `GET /api/companies/{companyId}/dniSources` answers the traffic sources
 * (with 30-day sessions and calls) and the static tracking numbers; `POST .../dniSources`,
 * `PUT, DELETE .../dniSources/{sourceId}` manage static tracking numbers (one number per offline source).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { DniSourcesBody, DniStaticSourceInput, DniStaticSourceSavedBody, Infer, Input } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type SourcesBody = Infer<typeof DniSourcesBody>;
export type StaticSourceInput = Input<typeof DniStaticSourceInput>;

export function sourcesQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: trackingKey(companyId, 'sources'),
    queryFn: () => http.get<SourcesBody>(`/api/companies/${companyId}/dniSources`),
    enabled: companyId !== null,
    staleTime: CACHE_MS.counts,
    refetchOnMount: true,
  });
}

export function useSources() {
  return useQuery(sourcesQueryOptions(useCompanyId()));
}

/** Creates (no id) or updates a static tracking number; 422 field errors are the form's to show. */
export function useSaveStaticSource() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: StaticSourceInput }) =>
      id === null
        ? http.post<Infer<typeof DniStaticSourceSavedBody>>(`/api/companies/${companyId}/dniSources`, input, { silent: true })
        : http.put<Infer<typeof DniStaticSourceSavedBody>>(`/api/companies/${companyId}/dniSources/${id}`, input, { silent: true }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: trackingKey(companyId) }),
  });
}

/** Removes a static tracking number's source (the number stays in the company). */
export function useDeleteStaticSource() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message?: string }>(`/api/companies/${companyId}/dniSources/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: trackingKey(companyId) }),
  });
}
