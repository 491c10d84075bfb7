/**
 * `export ready` / `export failed` on `user.{userId}` while the transcript search is open: the server's message
 * with a Download link of the search's CSV (the job's blob URL) that stays until closed.
 */
import { Anchor } from '@mantine/core';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useSession } from '../../../lib/session';

export function useSearchExportReady(): void {
  const userId = useSession().user?.id ?? null;
  const channel = userId === null ? null : (`user.${userId}` as const);
  useRealtimeEvent(channel, 'export ready', ({ message, export: job }) => {
    if (!job.url) return;
    notify.show({
      type: 'success',
      id: `search-export-${job.id}`,
      keepOthers: true,
      autoClose: false,
      title: message,
      message: (
        <Anchor href={job.url} download={job.fileName} size="sm" fw={600}>
          Download {job.fileName}
        </Anchor>
      ),
    });
  });
  useRealtimeEvent(channel, 'export failed', ({ message, export: job }) => {
    notify.show({ type: 'danger', id: `search-export-${job.id}`, keepOthers: true, autoClose: false, message });
  });
}
