/**
 * GET /api/simulator/handsets/{number}/messages: the messages an outside handset sent and received
 * (with direction and delivery status). Polled every HANDSET_POLL_MS (1.5 s) while shown.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { HANDSET_POLL_MS } from '../../../lib/config';
import { http } from '../../../lib/http';
import type { HandsetMessage } from '../types';

export async function getHandsetMessages(number: string): Promise<HandsetMessage[]> {
  const body = await http.get<{ data: HandsetMessage[] } | HandsetMessage[]>(`/api/simulator/handsets/${encodeURIComponent(number)}/messages`);
  return Array.isArray(body) ? body : (body?.data ?? []);
}

export function handsetMessagesQueryOptions(number: string | null) {
  return queryOptions({
    queryKey: ['simulator', 'handset', number],
    queryFn: () => getHandsetMessages(number!),
    enabled: number !== null,
    staleTime: 0,
  });
}

export function useHandsetMessages(number: string | null) {
  return useQuery({ ...handsetMessagesQueryOptions(number), refetchInterval: (query) => (query.state.status === 'error' ? false : HANDSET_POLL_MS) });
}
