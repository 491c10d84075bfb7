/** GET /api/voicemails?company_id&page&per_page: the company's voicemails, newest first, with paging meta. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Infer, VoicemailListBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export const VOICEMAILS_PER_PAGE = 25;

export function getVoicemails(companyId: number, page: number): Promise<Infer<typeof VoicemailListBody>> {
  return http.get<Infer<typeof VoicemailListBody>>('/api/voicemails', { params: { company_id: companyId, page, per_page: VOICEMAILS_PER_PAGE } });
}

export function voicemailsKey(companyId: number | null): unknown[] {
  return companyKey(companyId, 'voicemails');
}

export function voicemailsQueryOptions(companyId: number | null, page: number) {
  return queryOptions({
    queryKey: [...voicemailsKey(companyId), page],
    queryFn: () => getVoicemails(companyId!, page),
    enabled: companyId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
  });
}

export function useVoicemails(page: number) {
  return useQuery(voicemailsQueryOptions(useCompanyId(), page));
}
