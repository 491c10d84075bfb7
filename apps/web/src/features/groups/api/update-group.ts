/** PATCH /api/groups/{id} {name}: renames a group. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { ContactGroup } from '../types';
import { groupsKey } from './get-groups';

export async function updateGroup(id: number, name: string): Promise<ContactGroup> {
  return (await request<ContactGroup>(`/api/groups/${id}`, { method: 'PATCH', data: { name } })).data;
}

export function useUpdateGroup() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => updateGroup(id, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsKey(companyId) }),
  });
}
