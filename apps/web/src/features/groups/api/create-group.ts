/** POST /api/groups {company_id, name}: a new contact group. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { ContactGroup } from '../types';
import { groupsKey } from './get-groups';

export function createGroup(companyId: number, name: string): Promise<ContactGroup> {
  return http.post<ContactGroup>('/api/groups', { company_id: companyId, name });
}

export function useCreateGroup() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (name: string) => createGroup(companyId!, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsKey(companyId) }),
  });
}
