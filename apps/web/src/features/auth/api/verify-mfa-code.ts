/** POST /api/sanctum/mfa (foundation §7): the second sign-in step with the 6-digit code. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { SessionUser } from '../../../lib/session';

export function verifyMfaCode(code: string): Promise<{ user: SessionUser }> {
  return http.post<{ user: SessionUser }>('/api/sanctum/mfa', { code }, { skipAuthHandling: true });
}

export function useVerifyMfaCode() {
  return useMutation({ mutationFn: verifyMfaCode });
}
