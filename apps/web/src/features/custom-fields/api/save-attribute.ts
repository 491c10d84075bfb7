/**
 * POST /api/eavEntityTypes/{type}/eavAttributes (create, company scope) and
 * PUT /api/eavEntityTypes/{type}/eavAttributes/{id} (edit): {name, type, defaultValue, choices}
 * → {message, data}. 422 field errors are shown by the form.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EavAttributeBody, Infer } from '@switchboard/contracts';
import { request } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { Attribute, Choice } from '../types';
import { attributesKey } from './get-attributes';

/** The fields of the contract's `EavAttributeBody` the editor sends. */
export type AttributeInput = Pick<Infer<typeof EavAttributeBody>, 'name' | 'type' | 'defaultValue'> & { choices: Choice[] };

export async function saveAttribute(
  companyId: number,
  entityType: number,
  id: number | null,
  input: AttributeInput,
): Promise<{ message: string; data: Attribute }> {
  const url = `/api/eavEntityTypes/${entityType}/eavAttributes${id === null ? '' : `/${id}`}`;
  const data = id === null ? { ...input, companyId } : input;
  return (await request<{ message: string; data: Attribute }>(url, { method: id === null ? 'POST' : 'PUT', data, silent: true })).data;
}

export function useSaveAttribute(entityType: number) {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: AttributeInput }) => saveAttribute(companyId!, entityType, id, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: attributesKey(companyId) });
      await queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'contacts') });
    },
  });
}
