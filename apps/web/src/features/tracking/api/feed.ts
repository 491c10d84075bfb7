/**
 * The real-time feed (spec 002 "DNI"): `GET /api/companies/{companyId}/dni/realTimeFeed` answers the
 * visitors on the site now and the latest calls; the live events `dni visitor` and `dni call matched` on
 * `company.{companyId}` then keep the cached answer current without a reload (realtime/use-feed-live.ts).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DniRealTimeFeedBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type FeedBody = Infer<typeof DniRealTimeFeedBody>;
export type FeedVisitor = FeedBody['visitors'][number];
export type FeedCall = FeedBody['calls'][number];

/** Calls kept in the feed (the server's default page of latest calls). */
export const FEED_CALLS_LIMIT = 25;

export function feedQueryKey(companyId: number | null) {
  return trackingKey(companyId, 'feed');
}

export function feedQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: feedQueryKey(companyId),
    queryFn: () => http.get<FeedBody>(`/api/companies/${companyId}/dni/realTimeFeed`, { params: { calls_limit: FEED_CALLS_LIMIT } }),
    enabled: companyId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

export function useRealTimeFeed() {
  return useQuery(feedQueryOptions(useCompanyId()));
}
