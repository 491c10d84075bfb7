/** DELETE /api/groups/{id}: removes a group (its contacts are kept). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { groupsKey } from './get-groups';

export function deleteGroup(id: number): Promise<unknown> {
  return http.delete(`/api/groups/${id}`);
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: deleteGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsKey(companyId) }),
  });
}
