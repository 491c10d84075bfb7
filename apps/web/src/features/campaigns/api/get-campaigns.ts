/**
 * GET /api/campaigns?company_id&page&size=13&filter[search]&filter[status]&sort&dir&include=groups:
 * one page of the company's campaigns. Live 'campaigns updated' events patch the counters.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { CampaignList, CampaignListQuery, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

/** The spec's page size of the campaign list. */
export const CAMPAIGNS_PAGE_SIZE = 13;

export interface CampaignListParams {
  page: number;
  search: string;
  status: string | null;
  sort: CampaignListQuery['sort'];
  dir: 'asc' | 'desc';
}

export function getCampaigns(companyId: number, p: CampaignListParams): Promise<Infer<typeof CampaignList>> {
  return http.get('/api/campaigns', {
    params: {
      company_id: companyId,
      page: p.page,
      size: CAMPAIGNS_PAGE_SIZE,
      include: 'groups',
      'filter[search]': p.search.trim() || undefined,
      'filter[status]': p.status ?? undefined,
      sort: p.sort,
      dir: p.dir,
    },
  });
}

/** Prefix of every campaign query of a company (lists, details, events). */
export function campaignsKey(companyId: number | null) {
  return companyKey(companyId, 'campaigns');
}

export function campaignsQueryOptions(companyId: number | null, p: CampaignListParams) {
  return queryOptions({
    queryKey: [...campaignsKey(companyId), 'list', p],
    queryFn: () => getCampaigns(companyId!, p),
    enabled: companyId !== null,
    staleTime: CACHE_MS.counts,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}

export function useCampaigns(p: CampaignListParams) {
  return useQuery(campaignsQueryOptions(useCompanyId(), p));
}
