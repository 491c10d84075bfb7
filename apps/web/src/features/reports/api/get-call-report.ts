/**
 * GET /api/analytics/calls (spec 001 §7 "GET /analytics/calls"): `company_id`, `group`, `target` and the
 * report filters; one row per group key (and day or hour), every measure on each row, and the totals.
 * Cached for the dashboard's 15 s (CACHE_MS.dashboard); the `analytics updated` live event refetches.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { CallReportBody, CallReportFiltersInput, CallReportGroup, CallReportTarget } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';

/** Prefix of every analytics query of a company (reports, dashboard): the live event invalidates it. */
export function analyticsKey(companyId: number | null): unknown[] {
  return companyKey(companyId, 'analytics');
}

/**
 * Query params of the report filters in the server's bracket form (qs): lists as `key[]`, text filters
 * with an operator as `key[i][value]` / `key[i][operator]`, the range as JSON.
 */
export function reportQueryParams(filters: CallReportFiltersInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value) && value.some((v) => typeof v === 'object' && v !== null)) {
      value.forEach((item, i) => {
        if (typeof item === 'object' && item !== null) {
          for (const [k, v] of Object.entries(item)) out[`${key}[${i}][${k}]`] = v;
        } else out[`${key}[${i}]`] = item;
      });
    } else if (typeof value === 'boolean') out[key] = value ? 1 : 0;
    else out[key] = value;
  }
  return out;
}

export interface CallReportRequest {
  group: CallReportGroup;
  target: CallReportTarget;
  filters: CallReportFiltersInput;
}

export function getCallReport(companyId: number, r: CallReportRequest, signal?: AbortSignal): Promise<CallReportBody> {
  return http.get<CallReportBody>('/api/analytics/calls', {
    params: { company_id: companyId, group: r.group, target: r.target, ...reportQueryParams(r.filters) },
    signal,
  });
}

export function callReportQueryOptions(companyId: number | null, r: CallReportRequest) {
  return queryOptions({
    queryKey: [...analyticsKey(companyId), 'calls', r],
    queryFn: ({ signal }) => getCallReport(companyId!, r, signal),
    enabled: companyId !== null,
    staleTime: CACHE_MS.dashboard,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}

/** One grouped call report; `enabled` false holds it (e.g. until the company's zone is known). */
export function useCallReport(companyId: number | null, r: CallReportRequest, enabled = true) {
  return useQuery({ ...callReportQueryOptions(companyId, r), enabled: companyId !== null && enabled });
}

/**
 * GET /api/analytics/calls/pdf (spec 002 "Dashboard": "Files: generic GET download as PDF blob"): the
 * report of `r` (grouping, measure, filters) as a PDF file: totals, a bar chart and the table.
 */
export async function downloadCallReportPdf(companyId: number, r: CallReportRequest): Promise<Blob> {
  return http.get<Blob>('/api/analytics/calls/pdf', {
    params: { company_id: companyId, group: r.group, target: r.target, ...reportQueryParams(r.filters) },
    responseType: 'blob',
  });
}
