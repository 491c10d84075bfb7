/** GET /api/greetings/voices: the voices text greetings can be spoken in. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, VoiceListBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export function getVoices(): Promise<Infer<typeof VoiceListBody>> {
  return http.get<Infer<typeof VoiceListBody>>('/api/greetings/voices');
}

export function voicesQueryOptions() {
  return queryOptions({ queryKey: ['greeting-voices'], queryFn: getVoices, staleTime: CACHE_MS.company });
}

export function useVoices() {
  return useQuery(voicesQueryOptions());
}
