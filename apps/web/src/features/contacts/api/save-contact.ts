/**
 * POST /api/contacts (create) and PATCH /api/contacts/{id} (edit): every contact field, `groups`
 * and `labels` (ids, replacing the set) and `eavAttributeValues` [{attribute_id, value}]. 422 answers
 * carry field errors the form shows (silent: no toast).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactFields, Input } from '@switchboard/contracts';
import { request } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { Contact } from '../types';
import { contactsKey } from './get-contacts';

/** The contract's writable contact fields (`ContactFields`, loose: name variants pass through), as sent. */
export type ContactInput = Input<typeof ContactFields>;

export async function saveContact(companyId: number, id: number | null, input: ContactInput): Promise<Contact> {
  const result =
    id === null
      ? await request<Contact>('/api/contacts', { method: 'POST', data: { ...input, company_id: companyId }, silent: true })
      : await request<Contact>(`/api/contacts/${id}`, { method: 'PATCH', data: input, silent: true });
  return result.data;
}

export function useSaveContact() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: ContactInput }) => saveContact(companyId!, id, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: contactsKey(companyId) });
      await queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'groups') });
    },
  });
}
