/** DELETE /api/eavAttributes/{id} → {message}: the field, its values and overrides go. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { attributesKey } from './get-attributes';

export function deleteAttribute(id: number): Promise<{ message: string }> {
  return http.delete<{ message: string }>(`/api/eavAttributes/${id}`);
}

export function useDeleteAttribute() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({ mutationFn: deleteAttribute, onSuccess: () => queryClient.invalidateQueries({ queryKey: attributesKey(companyId) }) });
}
