/** DELETE /api/campaigns/{id}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { campaignsKey } from './get-campaigns';

export function deleteCampaign(id: number): Promise<unknown> {
  return http.delete(`/api/campaigns/${id}`);
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({ mutationFn: deleteCampaign, onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsKey(companyId) }) });
}
