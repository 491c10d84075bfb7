/** GET /api/user/mfa/qr: a new TOTP secret for enrolment with its otpauth URL and QR image (data URL). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MfaQr } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export type { MfaQr };

export function getMfaQr(): Promise<MfaQr> {
  return http.get<MfaQr>('/api/user/mfa/qr');
}

export function mfaQrQueryOptions() {
  return queryOptions({ queryKey: ['mfa-qr'], queryFn: getMfaQr, staleTime: Infinity, gcTime: 0 });
}

export function useMfaQr(enabled: boolean) {
  return useQuery({ ...mfaQrQueryOptions(), enabled });
}
