/**
 * GET /api/activity?company&page&per_page&filter={"calls":..,"voicemails":..,"messages":..}: the
 * company's calls, voicemails and messages, newest first, page-numbered. Cached 5 s
 * (CACHE_MS.analyticsActivity) and re-read on mount; live events refresh it.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { ActivityFilter, ActivityPage } from '../types';

export const ACTIVITY_PER_PAGE = 10;

export function getActivity(page: number, filter: ActivityFilter): Promise<ActivityPage> {
  return http.get<ActivityPage>('/api/activity', { params: { company: ':companyId', page, per_page: ACTIVITY_PER_PAGE, filter } });
}

/** Prefix of every activity page of a company. */
export function activityKey(companyId: number | null) {
  return companyKey(companyId, 'activity');
}

export function activityQueryOptions(companyId: number | null, page: number, filter: ActivityFilter) {
  return queryOptions({
    queryKey: [...activityKey(companyId), { page, filter }],
    queryFn: () => getActivity(page, filter),
    enabled: companyId !== null,
    staleTime: CACHE_MS.analyticsActivity,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}

export function useActivity(page: number, filter: ActivityFilter) {
  return useQuery(activityQueryOptions(useCompanyId(), page, filter));
}
