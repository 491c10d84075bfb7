/**
 * Visitor journeys (spec 002 "DNI"): `GET /api/companies/{companyId}/dniTimelineEvents/{sessionId}` (a
 * session and its events, oldest first), `.../dniTimelineEventsByNumber/{number}` (the sessions shown a
 * number), and `.../dniCallAttribution/{callId}` (how a call was attributed, with its session).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DniCallAttributionBody, DniTimelineBody, DniTimelineByNumberBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type TimelineBody = Infer<typeof DniTimelineBody>;
export type TimelineEvent = TimelineBody['events'][number];
export type Session = TimelineBody['session'];
export type CallAttribution = Infer<typeof DniCallAttributionBody>['data'];

export function timelineQueryOptions(companyId: number | null, sessionId: string | null) {
  return queryOptions({
    queryKey: trackingKey(companyId, 'timeline', sessionId),
    queryFn: () => http.get<TimelineBody>(`/api/companies/${companyId}/dniTimelineEvents/${encodeURIComponent(sessionId!)}`, { silent: true }),
    enabled: companyId !== null && sessionId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** One session's journey; null id: nothing loaded. */
export function useTimeline(sessionId: string | null) {
  return useQuery(timelineQueryOptions(useCompanyId(), sessionId));
}

/** The sessions that were shown `number` (E.164), newest first. */
export function useTimelineByNumber(number: string | null, limit = 20) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: trackingKey(companyId, 'timeline-by-number', number, limit),
    queryFn: () =>
      http.get<Infer<typeof DniTimelineByNumberBody>>(`/api/companies/${companyId}/dniTimelineEventsByNumber/${encodeURIComponent(number!)}`, {
        params: { limit },
        silent: true,
      }),
    enabled: companyId !== null && number !== null,
    staleTime: 0,
  });
}

/** How a call was attributed (pool, static number or none). */
export function useCallAttribution(callId: number | null) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: trackingKey(companyId, 'call-attribution', callId),
    queryFn: async () =>
      (await http.get<Infer<typeof DniCallAttributionBody>>(`/api/companies/${companyId}/dniCallAttribution/${callId}`, { silent: true })).data,
    enabled: companyId !== null && callId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}
