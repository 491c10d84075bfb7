/** POST /api/sanctum/mfa (foundation §7): the second sign-in step with the 6-digit code. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { UserEnvelope } from '@switchboard/contracts';

export function verifyMfaCode(code: string): Promise<UserEnvelope> {
  return http.post<UserEnvelope>('/api/sanctum/mfa', { code }, { skipAuthHandling: true });
}

export function useVerifyMfaCode() {
  return useMutation({ mutationFn: verifyMfaCode });
}
