/** DELETE /api/user/mfa {code}: turns multi-factor sign-in off (a current code is required). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { mfaStatusQueryOptions } from './get-mfa-status';

export function deleteMfa(code: string): Promise<unknown> {
  return http.delete('/api/user/mfa', { code });
}

export function useDeleteMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMfa,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaStatusQueryOptions().queryKey }),
  });
}
