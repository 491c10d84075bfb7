/**
 * What the activity filters need of the company: its time zone (GET /api/companies, the switcher's
 * cached list; the browser's zone until known) and its numbers (GET /api/companies/{id}/numbers, the
 * numbers screen's cached list).
 */
import { useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, NumberSchema } from '@switchboard/contracts';
import { useCompanyTimeZone } from '../../../lib/dates';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

/** The company's IANA zone (lib/dates.ts, the one reading; the browser's until known). */
export function useCompanyZone(): string {
  return useCompanyTimeZone().timezone;
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
