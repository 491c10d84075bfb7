/**
 * GET /api/companies/{companyId}/notificationCounts → {message, call, voicemail, fax, total}: unread
 * items per type (muted numbers left out). Cached 30 s (CACHE_MS.counts); live conversation events
 * refresh it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, NotificationCounts as NotificationCountsSchema } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export type NotificationCounts = Infer<typeof NotificationCountsSchema>;

export function getNotificationCounts(companyId: number): Promise<NotificationCounts> {
  return http.get<NotificationCounts>(`/api/companies/${companyId}/notificationCounts`);
}

export function notificationCountsKey(companyId: number | null) {
  return companyKey(companyId, 'notification-counts');
}

export function notificationCountsQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: notificationCountsKey(companyId),
    queryFn: () => getNotificationCounts(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.counts,
    refetchInterval: CACHE_MS.counts,
  });
}

export function useNotificationCounts() {
  return useQuery(notificationCountsQueryOptions(useCompanyId()));
}
