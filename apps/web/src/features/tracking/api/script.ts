/**
 * The tracking script (spec 002 "DNI"): `GET /api/companies/{companyId}/trackingNumbers/script` (snippet,
 * settings, last page view seen), `PUT .../trackingNumbers/settings` (wait for consent, first-party host)
 * and `POST .../trackingNumbers/verifyScript` {url} (the page fetched server-side: installed, other key,
 * not found, timeout…).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DniScriptBody, DniSettingsInput, Infer, Input, VerifyScriptBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type ScriptBody = Infer<typeof DniScriptBody>;
export type VerifyResult = Infer<typeof VerifyScriptBody>;

export function scriptQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: trackingKey(companyId, 'script'),
    queryFn: () => http.get<ScriptBody>(`/api/companies/${companyId}/trackingNumbers/script`),
    enabled: companyId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

export function useTrackingScript() {
  return useQuery(scriptQueryOptions(useCompanyId()));
}

/** Saves the tracking settings; the snippet and consent snippet change with them, so the script is re-read. */
export function useSaveTrackingSettings() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input<typeof DniSettingsInput>) => http.put<unknown>(`/api/companies/${companyId}/trackingNumbers/settings`, input, { silent: true }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: trackingKey(companyId, 'script') }),
  });
}

/** Checks a page for the snippet (the server fetches it, 10 s at most). A refused URL is a 422 on `url`. */
export function useVerifyScript() {
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (url: string) => http.post<VerifyResult>(`/api/companies/${companyId}/trackingNumbers/verifyScript`, { url }, { silent: true }),
  });
}
