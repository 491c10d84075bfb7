/** Data groups (docs/workspace.md "Data groups"): /api/data-group CRUD, attach, detach, candidates. */
import type { DataGroupCandidates, DataGroupList, DataGroupSaved, Infer } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';

export type DataGroup = Infer<typeof DataGroupList>['data'][number];
export type EntityType = DataGroup['entities'][number]['type'];
export type EntityRef = { type: EntityType; id: number };
const key = (companyId: number | null) => ['data-groups', companyId] as const;

export function useDataGroups() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: key(companyId),
    queryFn: () => http.get<Infer<typeof DataGroupList>>('/api/data-group', { params: { companyId } }),
    enabled: companyId !== null,
    select: (r) => r.data,
  });
}

export function useCandidates(type: EntityType, search: string, enabled: boolean) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...key(companyId), 'candidates', type, search],
    queryFn: () => http.get<Infer<typeof DataGroupCandidates>>('/api/data-group/candidates', { params: { companyId, type, search } }),
    enabled: enabled && companyId !== null,
    select: (r) => r.data,
  });
}

function useGroupMutation<V>(fn: (v: V, companyId: number | null) => Promise<{ message: string }>, toast = true) {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => fn(v, companyId),
    onSuccess: (r) => {
      if (toast) notify.success(r.message);
      return qc.invalidateQueries({ queryKey: key(companyId) });
    },
  });
}

export const useCreateDataGroup = () =>
  useGroupMutation((v: { name: string; description: string }, companyId) => http.post<Infer<typeof DataGroupSaved>>('/api/data-group', { ...v, companyId }));
export const useUpdateDataGroup = () =>
  useGroupMutation(({ id, ...v }: { id: number; name: string; description: string }) => http.put<Infer<typeof DataGroupSaved>>(`/api/data-group/${id}`, v));
export const useDeleteDataGroup = () => useGroupMutation((id: number) => http.delete<{ message: string }>(`/api/data-group/${id}`));
export const useAttach = () =>
  useGroupMutation(({ id, entities }: { id: number; entities: EntityRef[] }) =>
    http.post<Infer<typeof DataGroupSaved>>(`/api/data-group/${id}/attach`, { entities }),
  );
export const useDetach = () =>
  useGroupMutation(
    ({ id, entities }: { id: number; entities: EntityRef[] }) => http.post<Infer<typeof DataGroupSaved>>(`/api/data-group/${id}/detach`, { entities }),
    false,
  );
