/**
 * DNI pools (spec 002 "DNI"; packages/contracts tracking.ts): `GET, POST /api/companies/{companyId}/dniPools`,
 * `GET, PUT, DELETE .../dniPools/{poolId}` (DELETE with `shouldDeleteNumbers` 0 keeps the numbers in the
 * company, 1 releases them). A save may start a bulk purchase (`batchId`) whose progress arrives on
 * `bulk-purchase.{companyId}`.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { DniPool, DniPoolInput, DniPoolListBody, DniPoolSavedBody, DniPoolUpdateInput, Infer, Input } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type PoolSaved = Infer<typeof DniPoolSavedBody>;
export type PoolInput = Input<typeof DniPoolInput>;
export type PoolUpdate = Input<typeof DniPoolUpdateInput>;

export function poolsQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: trackingKey(companyId, 'pools'),
    queryFn: () => http.get<Infer<typeof DniPoolListBody>>(`/api/companies/${companyId}/dniPools`),
    enabled: companyId !== null,
    staleTime: CACHE_MS.counts,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}

/** The company's pools with their numbers and health (health changes every minute: re-read on mount). */
export function usePools() {
  return useQuery(poolsQueryOptions(useCompanyId()));
}

export function poolQueryOptions(companyId: number | null, poolId: number | null) {
  return queryOptions({
    queryKey: trackingKey(companyId, 'pool', poolId),
    queryFn: async () => (await http.get<{ data: DniPool }>(`/api/companies/${companyId}/dniPools/${poolId}`)).data,
    enabled: companyId !== null && poolId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/**
 * One pool (null id: nothing loaded, e.g. a new pool). While a purchase for it runs the pool is re-read
 * every PURCHASE_POLL_MS, so bought numbers show even when a live progress event was missed.
 */
export function usePool(poolId: number | null) {
  return useQuery({
    ...poolQueryOptions(useCompanyId(), poolId),
    refetchInterval: (query) => (query.state.data?.pending_purchase_batch_id ? PURCHASE_POLL_MS : false),
  });
}

/** Re-read interval of a pool whose numbers are being bought. */
export const PURCHASE_POLL_MS = 3000;

/**
 * Creates (no id) or updates a pool; answers the saved pool and the purchase batch started for it.
 * 422 field errors come back through the thrown HttpError (silent: the form shows them).
 */
export function useSavePool() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: PoolInput | PoolUpdate }) =>
      id === null
        ? http.post<PoolSaved>(`/api/companies/${companyId}/dniPools`, input, { silent: true })
        : http.put<PoolSaved>(`/api/companies/${companyId}/dniPools/${id}`, input, { silent: true }),
    onSuccess: (saved) => {
      queryClient.setQueryData(trackingKey(companyId, 'pool', saved.data.id), saved.data);
      void queryClient.invalidateQueries({ queryKey: trackingKey(companyId) });
      // Numbers joined or left a pool: the numbers lists show it.
      void queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'numbers') });
    },
  });
}

/** Deletes a pool; `releaseNumbers` true releases its numbers (shouldDeleteNumbers=1), false keeps them. */
export function useDeletePool() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, releaseNumbers }: { id: number; releaseNumbers: boolean }) =>
      http.delete<{ message?: string }>(`/api/companies/${companyId}/dniPools/${id}`, undefined, { params: { shouldDeleteNumbers: releaseNumbers ? 1 : 0 } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: companyKey(companyId) });
    },
  });
}
