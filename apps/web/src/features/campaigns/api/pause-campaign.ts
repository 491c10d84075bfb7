/** POST /api/campaigns/{id}/pause?include=groups: pauses a scheduled or sending campaign, or resumes a paused one. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Campaign } from '../types';
import { campaignQueryOptions } from './get-campaign';
import { campaignsKey } from './get-campaigns';

export function pauseCampaign(id: number): Promise<Campaign> {
  return http.post<Campaign>(`/api/campaigns/${id}/pause`, undefined, { params: { include: 'groups' } });
}

export function usePauseCampaign() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: pauseCampaign,
    onSuccess: async (campaign) => {
      queryClient.setQueryData(campaignQueryOptions(companyId, campaign.id).queryKey, campaign);
      await queryClient.invalidateQueries({ queryKey: [...campaignsKey(companyId), 'list'] });
    },
  });
}
