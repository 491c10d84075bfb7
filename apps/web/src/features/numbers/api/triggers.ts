/**
 * GET / PUT /api/companies/{companyId}/triggers {upsert: [{id?, number_id, event, action, target}],
 * remove: [ids]}: the company's triggers (the number detail shows a number's own), each with its latest firing;
 * GET …/triggers/{id}/secret: a webhook trigger's signing secret.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, TriggerListBody, TriggerTestBody, TriggersInput as TriggersSchema } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export type TriggersInput = Infer<typeof TriggersSchema>;

export function getTriggers(companyId: number): Promise<Infer<typeof TriggerListBody>> {
  return http.get<Infer<typeof TriggerListBody>>(`/api/companies/${companyId}/triggers`);
}

export function saveTriggers(companyId: number, input: TriggersInput): Promise<Infer<typeof TriggerListBody>> {
  return http.put<Infer<typeof TriggerListBody>>(`/api/companies/${companyId}/triggers`, input);
}

export function triggersQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'triggers'),
    queryFn: () => getTriggers(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useTriggers() {
  return useQuery(triggersQueryOptions(useCompanyId()));
}

export function useSaveTriggers() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (input: TriggersInput) => saveTriggers(companyId!, input),
    onSuccess: (result) => queryClient.setQueryData(triggersQueryOptions(companyId).queryKey, { data: result.data }),
  });
}

/** `GET …/triggers/{id}/secret`: a webhook trigger's Standard Webhooks signing secret, fetched only when asked. */
export function useTriggerSecret(id: number, enabled: boolean) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...companyKey(companyId, 'triggers'), 'secret', id],
    queryFn: () => http.get<{ data: { secret: string } }>(`/api/companies/${companyId}/triggers/${id}/secret`),
    enabled: enabled && companyId !== null,
    select: (r) => r.data.secret,
    staleTime: 0,
    gcTime: 0,
  });
}

/** `POST …/triggers/{id}/test`: a test firing now; answers how it went (the list is refetched for its `last_fired`). */
export function useTestTrigger() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (id: number) => http.post<Infer<typeof TriggerTestBody>>(`/api/companies/${companyId}/triggers/${id}/test`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: triggersQueryOptions(companyId).queryKey }),
  });
}
