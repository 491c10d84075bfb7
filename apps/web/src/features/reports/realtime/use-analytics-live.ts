/**
 * Live figures: `analytics updated` on `company.{companyId}` (sent a few seconds after a call changes)
 * refetches every open analytics query of the company (dashboard, reports), so a new call moves the
 * counts without a reload.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';
import { analyticsKey } from '../api/get-call-report';

export function useAnalyticsLive(): void {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  useRealtimeEvent(companyId === null ? null : `company.${companyId}`, 'analytics updated', () => {
    void queryClient.invalidateQueries({ queryKey: analyticsKey(companyId) });
  });
}
