/**
 * Live alerts: `alert created` and `alert updated` on `company.{companyId}` refresh the lists, counts and the open
 * alert; a new alert is announced with a notice while the Alerts screen is open.
 */
import { useQueryClient } from '@tanstack/react-query';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';
import { alertsKey } from '../api/alerts';

export function useAlertsLive() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  const channel = companyId === null ? null : (`company.${companyId}` as const);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: alertsKey(companyId) });
  useRealtimeEvent(channel, 'alert created', (alert) => {
    refresh();
    notify.show({ type: 'warn', title: 'New alert', message: alert.title, keepOthers: true });
  });
  useRealtimeEvent(channel, 'alert updated', refresh);
}
