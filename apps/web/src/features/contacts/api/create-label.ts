/** POST /api/companies/{companyId}/contactLabels {label}: a new label (unique per company, ignoring case). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Label } from '../types';
import { labelsKey } from './get-labels';

export async function createLabel(companyId: number, label: string): Promise<Label> {
  return (await request<Label>(`/api/companies/${companyId}/contactLabels`, { method: 'POST', data: { label }, silent: true })).data;
}

export function useCreateLabel() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (label: string) => createLabel(companyId!, label),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: labelsKey(companyId) }),
  });
}
