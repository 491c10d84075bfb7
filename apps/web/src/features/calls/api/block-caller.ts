/**
 * POST /api/blocks {company_id, target, global: true} (spec 001 "Blocks"): blocks the call's outside
 * party on every number of the company; answers "{target} has been blocked". Refreshes the call
 * (its `caller_blocked`) and the company's lists that show block state.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BlockCreatedBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function blockCaller(companyId: number, target: string): Promise<Infer<typeof BlockCreatedBody>> {
  return http.post<Infer<typeof BlockCreatedBody>>('/api/blocks', { company_id: companyId, target, global: true });
}

export function useBlockCaller(callId: number) {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (target: string) => blockCaller(companyId!, target),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'call', callId) });
      void queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'conversations') });
      void queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'blocks') });
    },
  });
}
