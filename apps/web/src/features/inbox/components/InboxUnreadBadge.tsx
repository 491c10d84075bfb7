import { Badge } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';
import { notificationCountsKey, useNotificationCounts } from '../api/get-notification-counts';

/** The inbox's unread total for the navigation; live conversation events refresh it. */
export function InboxUnreadBadge() {
  const counts = useNotificationCounts();
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  useRealtimeEvent(companyId === null ? null : `conversations.${companyId}`, 'conversation updated', () => {
    void queryClient.invalidateQueries({ queryKey: notificationCountsKey(companyId) });
  });
  const total = counts.data?.total ?? 0;
  if (total <= 0) return null;
  return (
    <Badge size="sm" circle={total < 10} color="red" data-testid="nav-unread" aria-label={`${total} unread`}>
      {total > 99 ? '99+' : total}
    </Badge>
  );
}
