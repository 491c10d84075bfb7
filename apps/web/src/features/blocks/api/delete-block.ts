/** DELETE /api/blocks/{id}: answers {message: "{target} has been unblocked"}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Infer, MessageBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function deleteBlock(id: number): Promise<Infer<typeof MessageBody>> {
  return http.delete<Infer<typeof MessageBody>>(`/api/blocks/${id}`);
}

export function useDeleteBlock() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({ mutationFn: deleteBlock, onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'blocks') }) });
}
