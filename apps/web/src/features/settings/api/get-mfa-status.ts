/** GET /api/user/mfa: whether multi-factor sign-in is enabled for the current user. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export function getMfaStatus(): Promise<{ enabled: boolean }> {
  return http.get<{ enabled: boolean }>('/api/user/mfa');
}

export function mfaStatusQueryOptions() {
  return queryOptions({ queryKey: ['user', 'mfa'], queryFn: getMfaStatus, staleTime: 0 });
}

export function useMfaStatus() {
  return useQuery(mfaStatusQueryOptions());
}
