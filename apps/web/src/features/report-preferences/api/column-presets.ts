/**
 * Column presets (spec 001 "Column presets"): GET /api/column-presets?companyId&kind (the company's and its business
 * unit's), POST /api/column-presets, PUT and DELETE /api/column-presets/{id}. Answers carry the spec's messages
 * ("Column preset was successfully created", "... updated", "... removed").
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnPresetData, ColumnPresetList, ColumnPresetSaved, Infer, Input } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { ColumnPresetKind } from '../types';

export function columnPresetsKey(companyId: number | null) {
  return companyKey(companyId, 'column-presets');
}

export function columnPresetsQueryOptions(companyId: number | null, kind: ColumnPresetKind, enabled = true) {
  return queryOptions({
    queryKey: [...columnPresetsKey(companyId), kind],
    queryFn: () => http.get<Infer<typeof ColumnPresetList>>('/api/column-presets', { params: { companyId, kind } }),
    enabled: enabled && companyId !== null,
    staleTime: 60_000,
    select: (r) => r.data,
  });
}

/** The presets of one report kind in the selected company (its own and its business unit's); `enabled` false: not asked yet. */
export function useColumnPresets(kind: ColumnPresetKind, enabled = true) {
  return useQuery(columnPresetsQueryOptions(useCompanyId(), kind, enabled));
}

type Saved = Infer<typeof ColumnPresetSaved>;

/** Create (`id` absent; a company preset) or update a preset; refreshes the kind's list. */
export function useSaveColumnPreset(kind: ColumnPresetKind) {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (v: { id?: number; name?: string; data?: Input<typeof ColumnPresetData> }) =>
      v.id
        ? http.put<Saved>(`/api/column-presets/${v.id}`, { name: v.name, data: v.data })
        : http.post<Saved>('/api/column-presets', { companyId, kind, name: v.name, data: v.data }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: columnPresetsKey(companyId) }),
  });
}

/** DELETE /api/column-presets/{id}. */
export function useDeleteColumnPreset() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`/api/column-presets/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: columnPresetsKey(companyId) }),
  });
}
