/**
 * POST /api/sanctum/logout: ends the server session (and its live connections). A POST behind the
 * anti-forgery header rather than the spec's GET, so another site cannot sign a person out
 * (docs/auth.md "Logout"); the server answers GET with 405.
 */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export function logout(): Promise<unknown> {
  return http.post('/api/sanctum/logout', undefined, { skipAuthHandling: true });
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
