/**
 * The monitors' thresholds and the person's alert e-mails (docs/alerts.md "Settings"): GET /api/monitoring/settings,
 * PUT /api/monitoring/settings (owners and administrators), PUT /api/monitoring/notification-preferences.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { MonitorSettings } from '../types';
import { alertsKey } from './alerts';

export function useMonitorSettings() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...alertsKey(companyId), 'settings'],
    queryFn: () =>
      http.get<{ data: { monitors: MonitorSettings; canEdit: boolean; emailAlerts: boolean } }>('/api/monitoring/settings', { params: { companyId } }),
    enabled: companyId !== null,
    select: (r) => r.data,
  });
}

export function useSaveMonitorSettings() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (monitors: MonitorSettings) => http.put<{ message: string }>('/api/monitoring/settings', { companyId, monitors }, { silent: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...alertsKey(companyId), 'settings'] }),
  });
}

export function useSaveAlertEmail() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (emailAlerts: boolean) => http.put<{ message: string }>('/api/monitoring/notification-preferences', { companyId, emailAlerts }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...alertsKey(companyId), 'settings'] }),
  });
}
