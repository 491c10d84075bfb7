/** POST /api/client/signup/check (foundation §7): validates the sign-up fields before creating. */
import { useMutation } from '@tanstack/react-query';
import type { SignupBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

/** The sign-up form sends every field (the contract leaves their rules to the server's 422). */
export type SignupInput = Required<SignupBody>;

export function signupCheck(input: SignupInput): Promise<unknown> {
  return http.post('/api/client/signup/check', input, { skipAuthHandling: true, silent: true });
}

export function useSignupCheck() {
  return useMutation({ mutationFn: signupCheck });
}
