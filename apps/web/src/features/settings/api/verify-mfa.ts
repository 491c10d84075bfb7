/** POST /api/user/mfa/verify {code}: confirms enrolment with a code from the authenticator app. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { mfaStatusQueryOptions } from './get-mfa-status';

export function verifyMfa(code: string): Promise<unknown> {
  return http.post('/api/user/mfa/verify', { code });
}

export function useVerifyMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyMfa,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaStatusQueryOptions().queryKey }),
  });
}
