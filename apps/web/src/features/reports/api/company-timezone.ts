/**
 * The selected company's time zone (GET /api/companies, the company switcher's cached list): days and
 * hours of every report are the company's (spec 002 "Dashboard": tz). Falls back to the browser's zone
 * while the list loads.
 */
import { useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { CompanyList } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';

/** @returns `{ timezone, ready }`: `ready` once the company's own zone is known. */
export function useCompanyTimezone(): { timezone: string; ready: boolean } {
  const companyId = useCompanyId();
  // Same key and answer as the company switcher's query (features/companies), so one request serves both.
  const companies = useQuery({ queryKey: ['companies'], queryFn: () => http.get<CompanyList>('/api/companies'), staleTime: CACHE_MS.company });
  const zone = companies.data?.data.find((c) => c.id === companyId)?.timezone;
  return { timezone: zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, ready: Boolean(zone) };
}
