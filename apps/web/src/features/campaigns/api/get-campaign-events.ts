/** GET /api/campaigns/{id}/events?search&status&page&size=10: recipients and what happened to their message. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { CampaignEventList, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { campaignsKey } from './get-campaigns';

export const EVENTS_PAGE_SIZE = 10;

export interface EventParams {
  page: number;
  search: string;
  status: string | null;
}

export function getCampaignEvents(id: number, p: EventParams): Promise<Infer<typeof CampaignEventList>> {
  return http.get(`/api/campaigns/${id}/events`, {
    params: { page: p.page, size: EVENTS_PAGE_SIZE, search: p.search.trim() || undefined, status: p.status ?? undefined },
  });
}

export function campaignEventsQueryOptions(companyId: number | null, id: number, p: EventParams) {
  return queryOptions({
    queryKey: [...campaignsKey(companyId), 'events', id, p],
    queryFn: () => getCampaignEvents(id, p),
    staleTime: CACHE_MS.timelineEvents,
    placeholderData: keepPreviousData,
  });
}

export function useCampaignEvents(id: number, p: EventParams) {
  return useQuery(campaignEventsQueryOptions(useCompanyId(), id, p));
}
