/** POST /api/password/forgot (foundation §7): mails a single-use reset link. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export function forgotPassword(email: string): Promise<{ message: string }> {
  return http.post<{ message: string }>('/api/password/forgot', { email }, { skipAuthHandling: true });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
