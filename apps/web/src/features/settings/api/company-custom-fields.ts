/**
 * The selected company's custom-field values (docs/contacts.md "Custom fields (EAV)"): read from GET /api/companies/{companyId}
 * (`eav_attribute_values`), saved with PUT /api/companies/{companyId}/custom-fields
 * {eavAttributeValues} (owner or administrator; 422 with `eavAttributeValues.{i}.value` errors).
 */
import { CACHE_MS } from '@switchboard/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompanyWithEavBody, EavAttributeValue, EavAttributeValueOut, EavValuesSaved, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export type EavValue = EavAttributeValueOut;

export function getCompanyWithValues(companyId: number): Promise<Infer<typeof CompanyWithEavBody>> {
  return http.get(`/api/companies/${companyId}`);
}

export function putCompanyCustomFields(companyId: number, values: Array<Infer<typeof EavAttributeValue>>): Promise<Infer<typeof EavValuesSaved>> {
  return http.put(`/api/companies/${companyId}/custom-fields`, { eavAttributeValues: values });
}

export function companyValuesQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'company-custom-field-values'),
    queryFn: async () => (await getCompanyWithValues(companyId!)).eav_attribute_values,
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useCompanyCustomFieldValues() {
  return useQuery(companyValuesQueryOptions(useCompanyId()));
}

export function useSaveCompanyCustomFields() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (values: Array<{ attribute_id: number; value: unknown }>) => putCompanyCustomFields(companyId!, values),
    onSuccess: (result) => queryClient.setQueryData(companyValuesQueryOptions(companyId).queryKey, result.data),
  });
}
