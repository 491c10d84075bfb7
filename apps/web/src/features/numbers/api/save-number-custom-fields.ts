/**
 * PUT /api/numbers/{id} {eavAttributeValues: [{attribute_id, value}]}: saves the number's custom-field
 * values (null clears one). Answers {message, data: Number with eavAttributeValues}; 422 with field
 * errors `eavAttributeValues.{i}.value`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EavAttributeValue, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { NumberWithValues } from '../types';
import { numberQueryOptions } from './get-number';

export interface NumberCustomFieldsInput {
  id: number;
  values: Array<Infer<typeof EavAttributeValue>>;
}

export function saveNumberCustomFields({ id, values }: NumberCustomFieldsInput): Promise<{ message: string; data: NumberWithValues }> {
  return http.put<{ message: string; data: NumberWithValues }>(`/api/numbers/${id}`, { eavAttributeValues: values });
}

export function useSaveNumberCustomFields() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: saveNumberCustomFields,
    onSuccess: (result, input) => queryClient.setQueryData(numberQueryOptions(companyId, input.id).queryKey, result.data),
  });
}
