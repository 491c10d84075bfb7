/** POST /api/client/signup/create (foundation §7): a new user and company; answers 201 {user, company}. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { SignupCreateResponse } from '@switchboard/contracts';
import type { SignupInput } from './signup-check';

export type SignupResult = SignupCreateResponse;

export function signupCreate(input: SignupInput): Promise<SignupResult> {
  return http.post<SignupResult>('/api/client/signup/create', input, { skipAuthHandling: true });
}

export function useSignupCreate() {
  return useMutation({ mutationFn: signupCreate });
}
