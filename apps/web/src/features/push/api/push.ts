/**
 * Push notification calls (docs/push.md "Calls"): `GET /api/user/beam-token` (the VAPID key to
 * subscribe with), the caller's devices, subscribe and unsubscribe this browser, send a test.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BeamTokenBody, PushSubscriptionInput } from '@switchboard/contracts';
import { http } from '../../../lib/http';

type Device = { id: number; kind: 'web' | 'apns'; label: string; user_agent: string | null; created_at: string; last_success_at: string | null };

export function beamTokenQueryOptions() {
  return queryOptions({ queryKey: ['user', 'beam-token'], queryFn: () => http.get<BeamTokenBody>('/api/user/beam-token'), staleTime: Infinity });
}

export function pushDevicesQueryOptions() {
  return queryOptions({ queryKey: ['user', 'push-devices'], queryFn: () => http.get<{ data: Device[] }>('/api/user/push-subscriptions'), staleTime: 0 });
}

/** The caller's browsers and iOS devices that receive pushes. */
export function usePushDevices() {
  return useQuery(pushDevicesQueryOptions());
}

/** POST /api/user/push-subscriptions with this browser's subscription (idempotent per endpoint). */
export function saveSubscription(subscription: PushSubscriptionInput, options?: { silent?: boolean }): Promise<{ message: string }> {
  return http.post('/api/user/push-subscriptions', subscription, options?.silent ? { silent: true } : undefined);
}

export function useSaveSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscription: PushSubscriptionInput) => saveSubscription(subscription),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushDevicesQueryOptions().queryKey }),
  });
}

export function useDeleteSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpoint: string) => http.delete<{ message: string }>('/api/user/push-subscriptions', { endpoint }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushDevicesQueryOptions().queryKey }),
  });
}

export function useSendTestPush() {
  return useMutation({ mutationFn: () => http.post<{ message: string }>('/api/user/push-notifications/test') });
}
