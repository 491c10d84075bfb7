/**
 * The signed-in user's custom-field values for the selected company (docs/contacts.md "Custom fields (EAV)"):
 * GET /api/user/custom-fields?company_id and PUT /api/user/custom-fields {company_id, eavAttributeValues}.
 */
import { CACHE_MS } from '@switchboard/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { EavAttributeValue, EavValuesBody, EavValuesSaved, Infer } from '@switchboard/contracts';

export function getUserCustomFields(companyId: number): Promise<Infer<typeof EavValuesBody>> {
  return http.get('/api/user/custom-fields', { params: { company_id: companyId } });
}

export function putUserCustomFields(companyId: number, values: Array<Infer<typeof EavAttributeValue>>): Promise<Infer<typeof EavValuesSaved>> {
  return http.put('/api/user/custom-fields', { company_id: companyId, eavAttributeValues: values });
}

export function userValuesQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'user-custom-field-values'),
    queryFn: async () => (await getUserCustomFields(companyId!)).data,
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useUserCustomFieldValues() {
  return useQuery(userValuesQueryOptions(useCompanyId()));
}

export function useSaveUserCustomFields() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (values: Array<{ attribute_id: number; value: unknown }>) => putUserCustomFields(companyId!, values),
    onSuccess: (result) => queryClient.setQueryData(userValuesQueryOptions(companyId).queryKey, result.data),
  });
}
