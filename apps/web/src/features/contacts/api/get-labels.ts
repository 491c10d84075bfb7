/** GET /api/companies/{companyId}/contactLabels: the company's contact labels. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, LabelList } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function getLabels(companyId: number): Promise<Infer<typeof LabelList>> {
  return http.get<Infer<typeof LabelList>>(`/api/companies/${companyId}/contactLabels`);
}

export function labelsKey(companyId: number | null) {
  return companyKey(companyId, 'contact-labels');
}

export function labelsQueryOptions(companyId: number | null) {
  return queryOptions({ queryKey: labelsKey(companyId), queryFn: () => getLabels(companyId!), enabled: companyId !== null, staleTime: CACHE_MS.company });
}

export function useLabels() {
  return useQuery(labelsQueryOptions(useCompanyId()));
}
