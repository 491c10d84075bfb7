/**
 * POST /api/password/reset (foundation §7): sets a new password with the mailed token. An expired
 * token answers 422 with "Your reset link has expired. Please try to resend it again."
 */
import { useMutation } from '@tanstack/react-query';
import type { Infer, MessageBody, ResetPasswordBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export type ResetPasswordInput = ResetPasswordBody;

export function resetPassword(input: ResetPasswordInput): Promise<Infer<typeof MessageBody>> {
  return http.post<Infer<typeof MessageBody>>('/api/password/reset', input, { skipAuthHandling: true });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
