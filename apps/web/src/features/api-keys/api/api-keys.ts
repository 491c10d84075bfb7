/**
 * API keys (spec 001 "API keys"): GET /api/personalAccessTokens, POST /api/personalAccessTokens (snake_cased
 * fields: name, scopes, business_unit_id, expires_in_days) → "API key created successfully" with the key's secret
 * once, DELETE /api/personalAccessTokens/{id} → "API key deleted successfully". Keys are the person's own, not the
 * company's, so the cache key is not per company.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, ApiKeyCreated, CompanyList, CreateApiKeyInput } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';

const KEY = ['api-keys'];

export function useApiKeys() {
  return useQuery({ queryKey: KEY, queryFn: () => http.get<{ data: ApiKey[] }>('/api/personalAccessTokens'), select: (r) => r.data });
}

/** Creates a key; the answer's `token` is shown once by the caller. */
export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => http.post<{ message: string; data: ApiKeyCreated }>('/api/personalAccessTokens', input, { silent: true }),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: KEY });
    },
  });
}

export function useDeleteApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`/api/personalAccessTokens/${id}`),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: KEY });
    },
  });
}

/** The business units the person's companies belong to (for a key limited to one), from GET /api/companies. */
export function useBusinessUnitIds() {
  return useQuery({
    queryKey: ['api-keys', 'business-units'],
    queryFn: () => http.get<CompanyList>('/api/companies'),
    select: (r) => [...new Set(r.data.map((c) => c.organization_id).filter((id): id is number => id !== null))].sort((a, b) => a - b),
  });
}
