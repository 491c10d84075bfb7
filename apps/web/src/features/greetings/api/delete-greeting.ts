/** DELETE /api/greetings/{id}: removes a greeting and its audio. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Infer, MessageBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function deleteGreeting(id: number): Promise<Infer<typeof MessageBody>> {
  return http.delete<Infer<typeof MessageBody>>(`/api/greetings/${id}`);
}

export function useDeleteGreeting() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: deleteGreeting,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'greetings') }),
  });
}
