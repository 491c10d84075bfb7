/** GET /api/companies/{companyId}/extension-suggestions?number_id&perPage=10: free extensions to offer. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { EXTENSION_SUGGESTIONS_PER_PAGE } from '@switchboard/domain';
import type { ExtensionSuggestionsBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function getExtensionSuggestions(companyId: number, numberId: number): Promise<Infer<typeof ExtensionSuggestionsBody>> {
  return http.get<Infer<typeof ExtensionSuggestionsBody>>(`/api/companies/${companyId}/extension-suggestions`, {
    params: { number_id: numberId, perPage: EXTENSION_SUGGESTIONS_PER_PAGE },
  });
}

export function extensionSuggestionsQueryOptions(companyId: number | null, numberId: number) {
  return queryOptions({
    queryKey: companyKey(companyId, 'extension-suggestions', numberId),
    queryFn: () => getExtensionSuggestions(companyId!, numberId),
    enabled: companyId !== null,
    staleTime: 0,
  });
}

export function useExtensionSuggestions(numberId: number) {
  return useQuery(extensionSuggestionsQueryOptions(useCompanyId(), numberId));
}
