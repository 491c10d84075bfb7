/** GET /api/greetings/voices: the voices text greetings can be spoken in. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import type { Voice } from '../types';

export function getVoices(): Promise<{ data: Voice[] }> {
  return http.get<{ data: Voice[] }>('/api/greetings/voices');
}

export function voicesQueryOptions() {
  return queryOptions({ queryKey: ['greeting-voices'], queryFn: getVoices, staleTime: CACHE_MS.company });
}

export function useVoices() {
  return useQuery(voicesQueryOptions());
}
