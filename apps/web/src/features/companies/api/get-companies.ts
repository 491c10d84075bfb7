/** GET /api/companies: the companies the user belongs to, with their role and time zone. Company data never goes stale on its own (CACHE_MS.company). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { CompanyList, CompanySummary } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export type Company = CompanySummary;

export function getCompanies(): Promise<CompanyList> {
  return http.get<CompanyList>('/api/companies');
}

export function companiesQueryOptions() {
  return queryOptions({ queryKey: ['companies'], queryFn: getCompanies, staleTime: CACHE_MS.company });
}

export function useCompanies() {
  return useQuery(companiesQueryOptions());
}
