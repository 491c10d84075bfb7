/** DELETE /api/eavAttributes/{id} → {message}: the field, its values and overrides go. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Infer, MessageBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { attributesKey } from './get-attributes';

export function deleteAttribute(id: number): Promise<Infer<typeof MessageBody>> {
  return http.delete<Infer<typeof MessageBody>>(`/api/eavAttributes/${id}`);
}

export function useDeleteAttribute() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({ mutationFn: deleteAttribute, onSuccess: () => queryClient.invalidateQueries({ queryKey: attributesKey(companyId) }) });
}
