/**
 * Where a call was sent (issue 24 "Screens": the call detail's "Sent to"): `GET /api/companies/{companyId}/calls/{callId}/integration-deliveries`
 * (`calls.read`; docs/integrations.md "Routes"), newest first, with each integration's name and the delivery's state.
 */
import { useQuery } from '@tanstack/react-query';
import type { AdCallDeliveryList } from '@switchboard/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export type CallDelivery = z.infer<typeof AdCallDeliveryList>['data'][number];

/** The call's deliveries to integrations; re-read every 5 s while one is still pending. */
export function useCallDeliveries(callId: number) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: companyKey(companyId, 'ad-integrations', 'call-deliveries', callId),
    queryFn: () => http.get<{ data: CallDelivery[] }>(`/api/companies/${companyId}/calls/${callId}/integration-deliveries`, { silent: true }),
    enabled: companyId !== null,
    select: (r) => r.data,
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.state === 'pending' || d.state === 'waiting') ? 5000 : false),
  });
}
