/** POST /api/sanctum/login (foundation §7): first sign-in step; skips the automatic 401 handling. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { LoginBody, LoginResponse } from '@switchboard/contracts';

/** `remember`: keep me signed in, a 14-day cookie; otherwise the session ends with the browser (docs/auth.md "Remember me"). */
export type LoginInput = LoginBody;

/** Either the signed-in user, or the request for a second (MFA) step. */
export type LoginResult = LoginResponse;

export function login(input: LoginInput): Promise<LoginResult> {
  return http.post<LoginResult>('/api/sanctum/login', input, { skipAuthHandling: true });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
