/**
 * Leads (docs/tracking.md "Leads"): one person of the company (a phone number) with their calls, texts and
 * website visits grouped. `GET /api/companies/{companyId}/dni/leads?search=&page=&per_page=` (latest contact
 * first, page-numbered) and `GET .../dni/leads/{leadId}` (the lead with its calls, texts and visits).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DniLeadBody, DniLeadListBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type LeadList = Infer<typeof DniLeadListBody>;
export type Lead = LeadList['data'][number];
export type LeadDetail = Infer<typeof DniLeadBody>;
export type LeadCall = LeadDetail['calls'][number];
export type LeadText = LeadDetail['texts'][number];

/** Leads on one page of the list. */
export const LEADS_PER_PAGE = 25;

/** A page of the company's leads; `search` is digits of a phone number or a source, campaign or keyword. */
export function useLeads(page: number, search: string) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: trackingKey(companyId, 'leads', page, search),
    queryFn: () =>
      http.get<LeadList>(`/api/companies/${companyId}/dni/leads`, {
        params: { page, per_page: LEADS_PER_PAGE, search: search || undefined },
        silent: true,
      }),
    enabled: companyId !== null,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** One lead with its calls, texts and visits; null id: nothing loaded. */
export function useLead(leadId: number | null) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: trackingKey(companyId, 'lead', leadId),
    queryFn: () => http.get<LeadDetail>(`/api/companies/${companyId}/dni/leads/${leadId}`, { silent: true }),
    enabled: companyId !== null && leadId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}
