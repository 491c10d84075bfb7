/** GET /api/sanctum/logout (foundation §7): ends the server session. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export function logout(): Promise<unknown> {
  return http.get('/api/sanctum/logout', { skipAuthHandling: true });
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
