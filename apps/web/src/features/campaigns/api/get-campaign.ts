/** GET /api/campaigns/{id}?include=groups: one campaign with its counters. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Campaign } from '../types';
import { campaignsKey } from './get-campaigns';

export function getCampaign(id: number): Promise<Campaign> {
  return http.get<Campaign>(`/api/campaigns/${id}`, { params: { include: 'groups' } });
}

export function campaignQueryOptions(companyId: number | null, id: number | null) {
  return queryOptions({
    queryKey: [...campaignsKey(companyId), 'one', id],
    queryFn: () => getCampaign(id!),
    enabled: id !== null,
    staleTime: CACHE_MS.counts,
    refetchOnMount: true,
  });
}

export function useCampaign(id: number | null) {
  return useQuery(campaignQueryOptions(useCompanyId(), id));
}
