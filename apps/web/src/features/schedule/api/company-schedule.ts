/**
 * GET / PUT /api/companies/{companyId}/schedule {schedule?, holidays?: ['YYYY-MM-DD']}: the company's
 * business hours and holiday dates → {data: {schedule, blocks, label, holidays}}.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS, type Schedule } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export interface CompanySchedule {
  schedule: Schedule;
  blocks: { day: string; start: string; end: string }[];
  label: string;
  holidays: string[];
}

export function getCompanySchedule(companyId: number): Promise<{ data: CompanySchedule }> {
  return http.get<{ data: CompanySchedule }>(`/api/companies/${companyId}/schedule`);
}

export function putCompanySchedule(companyId: number, input: { schedule?: Schedule; holidays?: string[] }): Promise<{ data: CompanySchedule; message?: string }> {
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
