/** DELETE /api/companies/{companyId}/contactLabels/{labelId}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { contactsKey } from './get-contacts';
import { labelsKey } from './get-labels';

export function deleteLabel(companyId: number, labelId: number): Promise<unknown> {
  return http.delete(`/api/companies/${companyId}/contactLabels/${labelId}`);
}

export function useDeleteLabel() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (labelId: number) => deleteLabel(companyId!, labelId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: labelsKey(companyId) });
      await queryClient.invalidateQueries({ queryKey: contactsKey(companyId) });
    },
  });
}
