/**
 * GET / PUT /api/numbers/{id}/greetings {assignments: [{extension, kind, greeting_id}]}: the greetings
 * a number plays (menu prompt on extension 0, voicemail greeting and whisper per extension).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, NumberGreetingsBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { GreetingAssignment } from '../types';

export function getNumberGreetings(numberId: number): Promise<Infer<typeof NumberGreetingsBody>> {
  return http.get<Infer<typeof NumberGreetingsBody>>(`/api/numbers/${numberId}/greetings`);
}

export function putNumberGreetings(numberId: number, assignments: GreetingAssignment[]): Promise<Infer<typeof NumberGreetingsBody>> {
  return http.put<Infer<typeof NumberGreetingsBody>>(`/api/numbers/${numberId}/greetings`, { assignments });
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
