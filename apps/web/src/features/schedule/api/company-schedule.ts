/**
 * GET / PUT /api/companies/{companyId}/schedule {schedule?, holidays?: ['YYYY-MM-DD']}: the company's
 * business hours and holiday dates → {data: {schedule, blocks, label, holidays}}.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS, type Schedule } from '@switchboard/domain';
import type { CompanyScheduleBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

/** The contract's `CompanyScheduleBody` data, with the schedule as the domain's `Schedule` (its wire form is the contract's). */
export type CompanySchedule = Omit<Infer<typeof CompanyScheduleBody>['data'], 'schedule'> & { schedule: Schedule };

export function getCompanySchedule(companyId: number): Promise<{ data: CompanySchedule }> {
  return http.get<{ data: CompanySchedule }>(`/api/companies/${companyId}/schedule`);
}

export function putCompanySchedule(
  companyId: number,
  input: { schedule?: Schedule; holidays?: string[] },
): Promise<{ data: CompanySchedule; message?: string }> {
  return http.put<{ data: CompanySchedule; message?: string }>(`/api/companies/${companyId}/schedule`, input);
}

export function companyScheduleQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'schedule'),
    queryFn: () => getCompanySchedule(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useCompanySchedule() {
  return useQuery(companyScheduleQueryOptions(useCompanyId()));
}

export function useSaveCompanySchedule() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (input: { schedule?: Schedule; holidays?: string[] }) => putCompanySchedule(companyId!, input),
    onSuccess: (result) => queryClient.setQueryData(companyScheduleQueryOptions(companyId).queryKey, { data: result.data }),
  });
}
