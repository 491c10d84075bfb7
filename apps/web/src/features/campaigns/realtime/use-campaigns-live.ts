/**
 * Live campaigns (spec 001 §7): 'campaigns updated' on `campaigns.{companyId}` carries the state and
 * counters of one campaign; they are patched into the cached detail and list pages, and its events
 * list is refreshed.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';
import { campaignQueryOptions } from '../api/get-campaign';
import { campaignsKey } from '../api/get-campaigns';
import type { Campaign, CampaignsUpdatedEvent, PageMeta } from '../types';

export function useCampaignsLive() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  useRealtimeEvent(companyId === null ? null : `campaigns.${companyId}`, 'campaigns updated', (update) => {
    if (!update || typeof update.id !== 'number') return;
    const { company_id: _company, ...changes } = update;
    void _company;
    queryClient.setQueryData<Campaign>(campaignQueryOptions(companyId, update.id).queryKey, (c) => (c ? { ...c, ...changes } : c));
    queryClient.setQueriesData<{ data: Campaign[]; meta: PageMeta }>({ queryKey: [...campaignsKey(companyId), 'list'] }, (page) =>
      page ? { ...page, data: page.data.map((c) => (c.id === update.id ? { ...c, ...changes } : c)) } : page,
    );
    void queryClient.invalidateQueries({ queryKey: [...campaignsKey(companyId), 'events', update.id] });
  });
}
