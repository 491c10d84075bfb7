/**
 * GET /api/dashboard (spec 002 "Dashboard": tz, groupBy, filters): KPIs beside the comparison period,
 * the time series, calls by source, by number, by hour of the week and missed calls by number — one
 * answer. Cached 15 s (CACHE_MS.dashboard, spec 002 §9); the `analytics updated` live event (under the
 * company's `analytics` key, which the reports feature's live hook invalidates) refetches it at once.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { ComparisonPeriod, DashboardBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';

export interface DashboardRequest {
  /** Local days of the company's zone, both included. */
  from: string;
  to: string;
  timezone: string;
  comparison: ComparisonPeriod;
  /** null: the server's choice (hours for up to 2 days, else days). */
  groupBy: 'day' | 'hour' | null;
}

export function getDashboard(companyId: number, r: DashboardRequest, signal?: AbortSignal): Promise<DashboardBody> {
  return http.get<DashboardBody>('/api/dashboard', {
    params: {
      company_id: companyId,
      tz: r.timezone,
      groupBy: r.groupBy ?? undefined,
      comparison: r.comparison,
      filters: { dates: { from: r.from, to: r.to }, timezone: r.timezone },
    },
    signal,
  });
}

export function dashboardQueryOptions(companyId: number | null, r: DashboardRequest) {
  return queryOptions({
    // Under ['company', id, 'analytics'] so the analytics live event refreshes it.
    queryKey: [...companyKey(companyId, 'analytics'), 'dashboard', r],
    queryFn: ({ signal }) => getDashboard(companyId!, r, signal),
    enabled: companyId !== null,
    staleTime: CACHE_MS.dashboard,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}

export function useDashboard(companyId: number | null, r: DashboardRequest, enabled: boolean) {
  return useQuery({ ...dashboardQueryOptions(companyId, r), enabled: companyId !== null && enabled });
}

/**
 * GET /api/dashboard/pdf (spec 002 "Dashboard": "Files: generic GET download as PDF blob"): the same
 * dashboard as a PDF file (KPIs beside the comparison period, the series as bars, sources and numbers).
 */
export async function downloadDashboardPdf(companyId: number, r: DashboardRequest): Promise<Blob> {
  return http.get<Blob>('/api/dashboard/pdf', {
    params: {
      company_id: companyId,
      tz: r.timezone,
      groupBy: r.groupBy ?? undefined,
      comparison: r.comparison,
      filters: { dates: { from: r.from, to: r.to }, timezone: r.timezone },
    },
    responseType: 'blob',
  });
}
