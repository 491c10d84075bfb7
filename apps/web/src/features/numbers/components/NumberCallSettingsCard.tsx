/**
 * The number's call settings (spec 002 §3 "Number": `record`, `call_transcription_enabled`,
 * `ai_eav_enabled`; docs/transcription.md): record answered calls (two channels), transcribe
 * recordings and voicemails, fill AI custom fields. With AI custom fields on, the server leaves
 * record and transcription as they are (spec 002 §5), so those two switches are locked meanwhile.
 * Each switch saves at once (PUT /api/numbers/{id}).
 */
import { Card, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { useNumber } from '../api/get-number';

type Settings = { record?: boolean; call_transcription_enabled?: boolean; ai_eav_enabled?: boolean };

export function NumberCallSettingsCard({ numberId, canEdit = true }: { numberId: number; canEdit?: boolean }) {
  const number = useNumber(numberId);
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (s: Settings) => http.put<{ message: string }>(`/api/numbers/${numberId}`, s),
    onSuccess: (r) => {
      notify.success(r.message);
      return queryClient.invalidateQueries({ queryKey: companyKey(companyId) });
    },
    onError: (e: Error) => notify.danger(e.message, 6000),
  });
  const n = number.data as (Settings & { id: number }) | undefined;
  const busy = save.isPending || !canEdit;
  return (
    <Card withBorder radius="md" padding="md" data-testid="number-call-settings">
      <Title order={5} mb="xs">
        Recording and transcription
      </Title>
      {n ? (
        <Stack gap="sm">
          <Switch
            label="Record calls"
            description="Answered calls are recorded in two channels: the caller and the agent."
            checked={!!n.record}
            disabled={busy || !!n.ai_eav_enabled}
            onChange={(e) => save.mutate({ record: e.currentTarget.checked })}
          />
          <Switch
            label="Transcribe calls"
            description="Recordings and voicemails are transcribed by speaker."
            checked={!!n.call_transcription_enabled}
            disabled={busy || !!n.ai_eav_enabled}
            onChange={(e) => save.mutate({ call_transcription_enabled: e.currentTarget.checked })}
          />
          <Switch
            label="AI custom fields"
            description="Fill call custom fields from the transcript."
            checked={!!n.ai_eav_enabled}
            disabled={busy}
            onChange={(e) => save.mutate({ ai_eav_enabled: e.currentTarget.checked })}
          />
          {n.ai_eav_enabled ? (
            <Text size="xs" c="dimmed">
              While AI custom fields are on, recording and transcription keep their current settings.
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Skeleton height={72} />
      )}
    </Card>
  );
}
