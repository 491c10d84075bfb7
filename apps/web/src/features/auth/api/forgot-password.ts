/** POST /api/password/forgot (foundation §7): mails a single-use reset link. */
import { useMutation } from '@tanstack/react-query';
import type { Infer, MessageBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export function forgotPassword(email: string): Promise<Infer<typeof MessageBody>> {
  return http.post<Infer<typeof MessageBody>>('/api/password/forgot', { email }, { skipAuthHandling: true });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
