/**
 * GET / PUT /api/numbers/{id}/greetings {assignments: [{extension, kind, greeting_id}]}: the greetings
 * a number plays (menu prompt on extension 0, voicemail greeting and whisper per extension).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { GreetingAssignment } from '../types';

export function getNumberGreetings(numberId: number): Promise<{ data: GreetingAssignment[] }> {
  return http.get<{ data: GreetingAssignment[] }>(`/api/numbers/${numberId}/greetings`);
}

export function putNumberGreetings(numberId: number, assignments: GreetingAssignment[]): Promise<{ data: GreetingAssignment[] }> {
  return http.put<{ data: GreetingAssignment[] }>(`/api/numbers/${numberId}/greetings`, { assignments });
}

export function numberGreetingsQueryOptions(companyId: number | null, numberId: number) {
  return queryOptions({
    queryKey: companyKey(companyId, 'number-greetings', numberId),
    queryFn: () => getNumberGreetings(numberId),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useNumberGreetings(numberId: number) {
  return useQuery(numberGreetingsQueryOptions(useCompanyId(), numberId));
}

export function useSaveNumberGreetings(numberId: number) {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (assignments: GreetingAssignment[]) => putNumberGreetings(numberId, assignments),
    onSuccess: (result) => queryClient.setQueryData(numberGreetingsQueryOptions(companyId, numberId).queryKey, result),
  });
}
