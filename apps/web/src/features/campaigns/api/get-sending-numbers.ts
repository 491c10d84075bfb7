/**
 * GET /api/campaigns/sending-numbers?company_id= (docs/campaigns.md "Sending numbers"): each company number's SMS
 * verification state and whether a campaign may be sent from it now, so the editor marks the numbers a send would be
 * refused from before it is confirmed. Refetched when the SMS verification changes live.
 */
import type { CampaignSendingNumbers, Infer } from '@switchboard/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';

export type SendingNumber = Infer<typeof CampaignSendingNumbers>['data'][number];

export function useSendingNumbers() {
  const c = useCompanyId();
  const qc = useQueryClient();
  const key = companyKey(c, 'campaign-sending-numbers');
  useRealtimeEvent(c === null ? null : `company.${c}`, 'sms verification updated', () => void qc.invalidateQueries({ queryKey: key }));
  return useQuery({
    queryKey: key,
    queryFn: () => http.get<Infer<typeof CampaignSendingNumbers>>('/api/campaigns/sending-numbers', { params: { company_id: c }, silent: true }),
    enabled: c !== null,
    select: (r) => r.data,
    // Coming back from registering in another tab shows the new state.
    refetchOnWindowFocus: true,
  });
}
