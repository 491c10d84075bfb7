/**
 * `export ready` / `export failed` on `user.{userId}` while the activity screen is open: the server's
 * message with a Download link that stays until closed.
 */
import { Anchor } from '@mantine/core';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useSession } from '../../../lib/session';

export function useExportReady(): void {
  const userId = useSession().user?.id ?? null;
  const channel = userId === null ? null : (`user.${userId}` as const);
  useRealtimeEvent(channel, 'export ready', ({ message, export: job }) => {
    notify.show({
      type: 'success',
      id: `export-${job.id}`,
      keepOthers: true,
      autoClose: false,
      title: message,
      message: (
        <Anchor href={job.url ?? `/api/analytics/exports/${job.id}/download`} download={job.fileName} data-testid="export-download" size="sm" fw={600}>
          Download {job.fileName}
        </Anchor>
      ),
    });
  });
  useRealtimeEvent(channel, 'export failed', ({ message, export: job }) => {
    notify.show({ type: 'danger', id: `export-${job.id}`, keepOthers: true, autoClose: false, message });
  });
}
