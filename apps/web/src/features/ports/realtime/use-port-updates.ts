/**
 * Live 'port updated' {id, state, reason, numbers} on `company.{companyId}`: patches the cached
 * request at once and, when a port completes, re-reads the company's data (new numbers arrived).
 */
import { useQueryClient } from '@tanstack/react-query';
import { companyKey } from '../../../lib/query-client';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';
import { portsQueryOptions } from '../api/ports';
import type { PortRequest, PortState } from '../types';

const LABELS: Record<PortState, string> = { submitted: 'Submitted', in_progress: 'In progress', completed: 'Completed', rejected: 'Rejected' };

export function usePortUpdates(): void {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  useRealtimeEvent(companyId === null ? null : `company.${companyId}`, 'port updated', (event) => {
    const key = portsQueryOptions(companyId).queryKey;
    queryClient.setQueryData<{ data: PortRequest[] }>(key, (old) =>
      old ? { data: old.data.map((p) => (p.id === event.id ? { ...p, state: event.state, state_label: LABELS[event.state], reason: event.reason } : p)) } : old,
    );
    if (event.state === 'completed') void queryClient.invalidateQueries({ queryKey: companyKey(companyId) });
    else void queryClient.invalidateQueries({ queryKey: key });
  });
}
