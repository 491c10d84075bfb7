/** POST /api/client/signup/check (foundation §7): validates the sign-up fields before creating. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export interface SignupInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  company_name: string;
  timezone: string;
}

export function signupCheck(input: SignupInput): Promise<unknown> {
  return http.post('/api/client/signup/check', input, { skipAuthHandling: true, silent: true });
}

export function useSignupCheck() {
  return useMutation({ mutationFn: signupCheck });
}
