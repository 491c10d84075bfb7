/**
 * Live Activity: 'call updated' on `company.{companyId}` and 'conversation updated' on `conversations.{companyId}`
 * refresh the feed; so does 'analytics updated', which comes after the server dropped its 5 s answers cache (a
 * refresh on 'call updated' can still meet the answer cached just before the change).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';
import { activityKey } from '../api/get-activity';

export function useActivityLive() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: activityKey(companyId) });
  useRealtimeEvent(companyId === null ? null : `company.${companyId}`, 'call updated', refresh);
  useRealtimeEvent(companyId === null ? null : `company.${companyId}`, 'analytics updated', refresh);
  useRealtimeEvent(companyId === null ? null : `conversations.${companyId}`, 'conversation updated', refresh);
}
