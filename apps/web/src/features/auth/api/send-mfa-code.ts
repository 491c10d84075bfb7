/**
 * POST /api/sanctum/mfa/sendCode (spec 000 §7 MFA `sendCode`; docs/auth.md "MFA by SMS"): texts a sign-in code to
 * the phone on file, for the second step. 409 when SMS codes are off for the account.
 */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export function sendMfaCode(): Promise<unknown> {
  return http.post('/api/sanctum/mfa/sendCode', undefined, { skipAuthHandling: true, silent: true });
}

export function useSendMfaCode() {
  return useMutation({ mutationFn: sendMfaCode });
}
