/** DELETE /api/contacts/{id}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import { contactsKey } from './get-contacts';

export function deleteContact(id: number): Promise<unknown> {
  return http.delete(`/api/contacts/${id}`);
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: deleteContact,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: contactsKey(companyId) });
      await queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'groups') });
    },
  });
}
