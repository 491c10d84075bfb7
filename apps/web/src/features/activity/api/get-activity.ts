/**
 * GET /api/activity?company&page&per_page&tz&filter={type flags, dniSessionId, report filters} (spec 001
 * §7): the company's calls, voicemails, messages, faxes, notes and call-tracking matches, newest first,
 * page-numbered; `meta.show_progress` carries the first-page progress rule. Cached 5 s
 * (CACHE_MS.analyticsActivity) and re-read on mount; live events refresh it.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { ActivityFilterBody, ActivityPage } from '../types';

export const ACTIVITY_PER_PAGE = 10;
export const ACTIVITY_PAGE_SIZES = [10, 25, 50, 100] as const;

export function getActivity(page: number, perPage: number, filter: ActivityFilterBody, tz: string): Promise<ActivityPage> {
  return http.get<ActivityPage>('/api/activity', { params: { company: ':companyId', page, per_page: perPage, tz, filter } });
}

/** Prefix of every activity page of a company. */
export function activityKey(companyId: number | null) {
  return companyKey(companyId, 'activity');
}

export function activityQueryOptions(companyId: number | null, page: number, perPage: number, filter: ActivityFilterBody, tz: string) {
  return queryOptions({
    queryKey: [...activityKey(companyId), { page, perPage, filter, tz }],
    queryFn: () => getActivity(page, perPage, filter, tz),
    enabled: companyId !== null,
    staleTime: CACHE_MS.analyticsActivity,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}

export function useActivity(page: number, perPage: number, filter: ActivityFilterBody, tz: string) {
  return useQuery(activityQueryOptions(useCompanyId(), page, perPage, filter, tz));
}

/**
 * The first-page progress rule (spec 001 §7): the progress bar is hidden when page is 1 and per_page
 * is 10. The server's `meta.show_progress` wins when present.
 */
export function showsProgress(page: number, perPage: number, serverSays?: boolean): boolean {
  return serverSays ?? !(page === 1 && perPage === 10);
}
