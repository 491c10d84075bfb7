/**
 * Export notices on `user.{userId}`: `export ready` shows the server's message with a Download link
 * that stays until closed; `export failed` shows the failure. The recent-exports list refreshes too.
 * Mount once per screen that starts exports (docs/reports-screens.md "Exports").
 */

import { Anchor, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ExportJob } from '@switchboard/contracts';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId, useSession } from '../../../lib/session';
import { exportsKey } from '../api/exports';

/** The download path of a finished export (its `url`, else the API's download route). */
export function exportDownloadUrl(job: ExportJob): string {
  return job.url ?? `/api/analytics/exports/${job.id}/download`;
}

export function useExportNotices(): void {
  const userId = useSession().user?.id ?? null;
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  const channel = userId === null ? null : (`user.${userId}` as const);
  useRealtimeEvent(channel, 'export ready', ({ message, export: job }) => {
    void queryClient.invalidateQueries({ queryKey: exportsKey(companyId) });
    notify.show({
      type: 'success',
      keepOthers: true,
      autoClose: false,
      id: `export-${job.id}`,
      title: message,
      message: (
        <Stack gap={2}>
          <Text size="sm">
            {job.fileName}
            {job.rows !== null ? ` · ${job.rows} rows` : ''}
          </Text>
          <Anchor href={exportDownloadUrl(job)} download={job.fileName} data-testid="export-download" size="sm" fw={600}>
            Download {job.fileName}
          </Anchor>
        </Stack>
      ),
    });
  });
  useRealtimeEvent(channel, 'export failed', ({ message, export: job }) => {
    void queryClient.invalidateQueries({ queryKey: exportsKey(companyId) });
    notify.show({ type: 'danger', keepOthers: true, autoClose: false, id: `export-${job.id}`, message });
  });
}
