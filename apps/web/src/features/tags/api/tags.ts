/** Company tags (docs/workspace.md "Tags"): GET/POST /api/tags, PUT/DELETE /api/tags/{id}. */
import type { Infer, Input, CreateTagInput, TagList, TagSaved, UpdateTagInput } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';

export type Tag = Infer<typeof TagList>['data'][number];
export const tagsKey = (companyId: number | null) => ['tags', companyId] as const;

export function useTags() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: tagsKey(companyId),
    queryFn: () => http.get<Infer<typeof TagList>>('/api/tags', { params: { companyId } }),
    enabled: companyId !== null,
    select: (r) => r.data,
  });
}

export function useCreateTag() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<Input<typeof CreateTagInput>, 'companyId'>) => http.post<Infer<typeof TagSaved>>('/api/tags', { ...input, companyId }),
    onSuccess: (r) => {
      notify.success(r.message);
      return qc.invalidateQueries({ queryKey: tagsKey(companyId) });
    },
  });
}

export function useUpdateTag() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: Input<typeof UpdateTagInput> & { id: number }) => http.put<Infer<typeof TagSaved>>(`/api/tags/${id}`, input),
    onSuccess: (r) => {
      notify.success(r.message);
      return qc.invalidateQueries({ queryKey: tagsKey(companyId) });
    },
  });
}

export function useDeleteTag() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`/api/tags/${id}`),
    onSuccess: (r) => {
      notify.success(r.message);
      return qc.invalidateQueries({ queryKey: tagsKey(companyId) });
    },
  });
}
