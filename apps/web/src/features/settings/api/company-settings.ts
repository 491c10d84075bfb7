/**
 * GET / PUT /api/companies/{companyId}/settings: the selected company's messaging settings (docs/messaging.md, docs/quiet-hours.md):
 * HELP reply text, campaign quiet hours (on/off, local "HH:mm" start and end), links allowed and the
 * company's time zone. PUT answers `{message: 'Settings were successfully updated', data}`.
 */
import type { CompanySettings } from '@switchboard/contracts';
import { CACHE_MS } from '@switchboard/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export type { CompanySettings };

export function getCompanySettings(companyId: number): Promise<{ data: CompanySettings }> {
  return http.get<{ data: CompanySettings }>(`/api/companies/${companyId}/settings`);
}

export function putCompanySettings(companyId: number, input: CompanySettings): Promise<{ message: string; data: CompanySettings }> {
  return http.put<{ message: string; data: CompanySettings }>(`/api/companies/${companyId}/settings`, input, { silent: true });
}

export function companySettingsQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'settings'),
    queryFn: () => getCompanySettings(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

/** The selected company's messaging settings (re-read on mount: another admin may have changed them). */
export function useCompanySettings() {
  return useQuery({ ...companySettingsQueryOptions(useCompanyId()), refetchOnMount: true });
}

export function useSaveCompanySettings() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (input: CompanySettings) => putCompanySettings(companyId!, input),
    onSuccess: (result) => queryClient.setQueryData(companySettingsQueryOptions(companyId).queryKey, { data: result.data }),
  });
}
