/**
 * Alerts (spec 001 "Alerts"): GET /api/monitoring/alerts (company, page, perPage 10, filters {state, type, search}),
 * GET /api/monitoring/alerts/counts, GET /api/monitoring/alerts/{id} (opening marks it read),
 * GET /api/monitoring/alerts/{id}/history, PUT /api/monitoring/alerts/{id} (state, comment, reason) →
 * "Alert updated successfully". Counts are cached for the spec's counts cache time (30 s) and refreshed live.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ALERTS_PAGE_SIZE, type AlertUpdatedBody, type Infer, type Input, type UpdateAlertInput } from '@switchboard/contracts';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { Alert, AlertCounts, AlertHistoryEntry, AlertState, AlertType, PageMeta } from '../types';

export function alertsKey(companyId: number | null) {
  return companyKey(companyId, 'alerts');
}

export interface AlertListParams {
  page: number;
  states: AlertState[];
  type: AlertType | null;
  search: string;
}

export function alertListQueryOptions(companyId: number | null, p: AlertListParams) {
  return queryOptions({
    queryKey: [...alertsKey(companyId), 'list', p],
    queryFn: () =>
      http.get<{ data: Alert[]; meta: PageMeta }>('/api/monitoring/alerts', {
        params: {
          company: companyId,
          page: p.page,
          perPage: ALERTS_PAGE_SIZE,
          // The spec's `filters` object (sent as JSON text; an unset filter is left out).
          filters: {
            state: p.states.length ? p.states : undefined,
            type: p.type ? [p.type] : undefined,
            search: p.search.trim() || undefined,
          },
        },
      }),
    enabled: companyId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useAlerts(p: AlertListParams) {
  return useQuery(alertListQueryOptions(useCompanyId(), p));
}

export function useAlertCounts() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...alertsKey(companyId), 'counts'],
    queryFn: () => http.get<{ data: AlertCounts }>('/api/monitoring/alerts/counts', { params: { company: companyId } }),
    enabled: companyId !== null,
    staleTime: CACHE_MS.counts,
    select: (r) => r.data,
  });
}

/** One alert (null id: nothing asked). Opening marks it read on the server, so counts are refreshed. */
export function useAlert(id: number | null) {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...alertsKey(companyId), 'one', id],
    queryFn: async () => {
      const r = await http.get<{ data: Alert }>(`/api/monitoring/alerts/${id}`);
      void queryClient.invalidateQueries({ queryKey: [...alertsKey(companyId), 'counts'] });
      return r.data;
    },
    enabled: companyId !== null && id !== null,
  });
}

export function useAlertHistory(id: number | null) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...alertsKey(companyId), 'history', id],
    queryFn: () => http.get<{ data: AlertHistoryEntry[] }>(`/api/monitoring/alerts/${id}/history`),
    enabled: companyId !== null && id !== null,
    select: (r) => r.data,
  });
}

/** PUT /api/monitoring/alerts/{id}; 422 answers stay silent for the form. */
export function useUpdateAlert() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & Input<typeof UpdateAlertInput>) =>
      http.put<Infer<typeof AlertUpdatedBody>>(`/api/monitoring/alerts/${id}`, body, { silent: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertsKey(companyId) }),
  });
}
