/**
 * What the activity filters need of the company: its time zone (GET /api/companies, the switcher's
 * cached list; the browser's zone until known) and its numbers (GET /api/companies/{id}/numbers, the
 * numbers screen's cached list).
 */
import { useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { CompanyList, Infer, NumberSchema } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function useCompanyZone(): string {
  const companyId = useCompanyId();
  const companies = useQuery({ queryKey: ['companies'], queryFn: () => http.get<CompanyList>('/api/companies'), staleTime: CACHE_MS.company });
  return companies.data?.data.find((c) => c.id === companyId)?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function useNumberChoices(enabled: boolean) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: companyKey(companyId, 'numbers'),
    queryFn: () => http.get<{ data: Array<Infer<typeof NumberSchema>> }>(`/api/companies/${companyId}/numbers`),
    enabled: enabled && companyId !== null,
    staleTime: CACHE_MS.company,
  });
}
