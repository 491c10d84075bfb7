/**
 * GET /api/companies/slim (spec 002 §9 "companies slim page 100"; docs/accounts.md "Company
 * switcher"): a page of 100 of the person's companies, searched on the server (name, organization
 * name or id), for people with hundreds of accounts.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CompaniesSlimBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export type SlimCompany = Infer<typeof CompaniesSlimBody>['data'][number];

export function useCompaniesSlim(search: string, enabled = true) {
  return useQuery({
    queryKey: ['companies', 'slim', search],
    queryFn: () => http.get<Infer<typeof CompaniesSlimBody>>('/api/companies/slim', { params: { perPage: 100, search: search || undefined } }),
    placeholderData: keepPreviousData,
    enabled,
    staleTime: 30_000,
  });
}
