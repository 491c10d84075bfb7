/** GET /api/user/mfa: whether multi-factor sign-in is enabled for the current user. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MfaStatus } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export function getMfaStatus(): Promise<MfaStatus> {
  return http.get<MfaStatus>('/api/user/mfa');
}

export function mfaStatusQueryOptions() {
  return queryOptions({ queryKey: ['user', 'mfa'], queryFn: getMfaStatus, staleTime: 0 });
}

export function useMfaStatus() {
  return useQuery(mfaStatusQueryOptions());
}
