import { ActionIcon, Anchor, Badge, Button, Card, Group, Loader, Pagination, Stack, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { formatPhone } from '@switchboard/domain';
import { IconMail, IconMailOpened, IconTrash, IconPhoneIncoming } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { PAGER_LABELS } from '../../../components/TablePager';
import { formatDateTime, formatDuration } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useDeleteVoicemail } from '../api/delete-voicemail';
import { useVoicemails, voicemailsKey } from '../api/get-voicemails';
import { useMarkVoicemail } from '../api/mark-voicemail';
import type { Voicemail } from '../types';
import { fileSrc } from '../../../lib/files';
import { useCan } from '../../../lib/access';
import { CallButton } from '../../../components/CallButton';
import { RequireAbility } from '../../../components/RequireAbility';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';

/** Voicemail: every message left on the company's numbers, to play, mark heard or new, and delete. Roles without `calls.read` see "not available with your role" (components/RequireAbility). */
export function VoicemailPage() {
  return (
    <RequireAbility ability="calls.read" title="Voicemail">
      <VoicemailScreen />
    </RequireAbility>
  );
}

function VoicemailScreen() {
  // Marking heard and deleting voicemails is working calls (`calls.work`); reporting listens only.
  const canWork = useCan('calls.work');
  const [page, setPage] = useState(1);
  const voicemails = useVoicemails(page);
  const mark = useMarkVoicemail();
  const remove = useDeleteVoicemail();
  const [deleting, setDeleting] = useState<Voicemail | null>(null);
  // A voicemail's transcript settles after the list loaded: refetch when one of the company's transcripts changes.
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  useRealtimeEvent(companyId !== null ? (`company.${companyId}` as const) : null, 'transcript updated', (p) => {
    if (p.voicemail_id !== null) void queryClient.invalidateQueries({ queryKey: voicemailsKey(companyId) });
  });
  const list = voicemails.data?.data ?? [];
  const meta = voicemails.data?.meta;
  const unread = list.filter((v) => !v.is_read).length;

  return (
    <>
      <PageHeader
        title="Voicemail"
        description={
          meta
            ? `${meta.total} ${meta.total === 1 ? 'message' : 'messages'}${unread ? `, ${unread} new on this page` : ''}`
            : 'Messages callers left on your numbers.'
        }
      />
      {voicemails.isPending ? (
        <ListSkeleton rows={4} height={72} />
      ) : list.length === 0 ? (
        <EmptyCard
          icon={<IconPhoneIncoming />}
          title="No voicemail"
          description="Turn on voicemail in a number's routing; messages left after hours or when nobody answers show up here."
          action={
            <Button component={Link} to="/numbers">
              Set up routing
            </Button>
          }
        />
      ) : (
        <Stack gap="sm">
          {list.map((v) => (
            <Card key={v.id} withBorder radius="md" padding="sm" data-testid="voicemail-row" data-read={v.is_read}>
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={2} miw={200}>
                  <Group gap="xs">
                    <Text fw={v.is_read ? 400 : 700} ff={v.contact ? undefined : 'monospace'} data-testid="voicemail-caller">
                      {v.contact?.name || formatPhone(v.from)}
                    </Text>
                    {v.contact ? (
                      <Text size="sm" c="dimmed" ff="monospace">
                        {formatPhone(v.from)}
                      </Text>
                    ) : null}
                    {!v.is_read ? (
                      <Badge size="xs" color="blue">
                        New
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="xs" c="dimmed">
                    to {v.number_label ? `${v.number_label} (${formatPhone(v.to)})` : formatPhone(v.to)} · {formatDateTime(v.created_at)} ·{' '}
                    {formatDuration(v.duration_s)} ·{' '}
                    <Anchor component={Link} to={`/calls/${v.call_id}`} size="xs">
                      Call details
                    </Anchor>
                  </Text>
                </Stack>
                <Group gap="xs" wrap="wrap">
                  <CallButton number={v.from} />
                  <audio
                    controls
                    preload="none"
                    src={fileSrc(v.recording_url)}
                    style={{ height: 36, maxWidth: 300 }}
                    aria-label={`Voicemail from ${v.contact?.name || formatPhone(v.from)}`}
                    onPlay={() => canWork && !v.is_read && mark.mutate({ id: v.id, read: true })}
                  />
                  <Tooltip label={v.is_read ? 'Mark as new' : 'Mark as heard'} disabled={!canWork}>
                    <ActionIcon
                      display={canWork ? undefined : 'none'}
                      variant="subtle"
                      aria-label={v.is_read ? 'Mark as new' : 'Mark as heard'}
                      onClick={() => mark.mutate({ id: v.id, read: !v.is_read })}
                    >
                      {v.is_read ? <IconMail size={16} /> : <IconMailOpened size={16} />}
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete" disabled={!canWork}>
                    <ActionIcon
                      display={canWork ? undefined : 'none'}
                      variant="subtle"
                      color="red"
                      aria-label="Delete voicemail"
                      onClick={() => setDeleting(v)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
              <VoicemailTranscript transcript={v.transcript ?? null} />
            </Card>
          ))}
          {meta && meta.last_page > 1 ? <Pagination total={meta.last_page} value={meta.current_page} onChange={setPage} size="sm" {...PAGER_LABELS} /> : null}
        </Stack>
      )}
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this voicemail?"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: (r) => {
              notify.success(r.message);
              setDeleting(null);
            },
          })
        }
      >
        The recording from {deleting ? deleting.contact?.name || formatPhone(deleting.from) : ''} is removed for everyone. The call stays in Activity.
      </ConfirmModal>
    </>
  );
}

/** The voicemail's transcript under its row (docs/transcription.md "Voicemails"): the caller's words, "Transcribing…", or the failure. */
function VoicemailTranscript({ transcript }: { transcript: Voicemail['transcript'] }) {
  if (!transcript) return null;
  if (transcript.state === 'loading')
    return (
      <Group gap={6} mt="xs" data-testid="voicemail-transcript">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Transcribing…
        </Text>
      </Group>
    );
  if (transcript.state === 'failed')
    return (
      <Text size="sm" c="dimmed" mt="xs" data-testid="voicemail-transcript">
        The message could not be transcribed.
      </Text>
    );
  const text = transcript.text.replace(/^Client: /gm, '').trim();
  return (
    <Text size="sm" mt="xs" fs={text ? 'italic' : undefined} c={text ? undefined : 'dimmed'} data-testid="voicemail-transcript">
      {text ? `“${text}”` : 'No speech was recognised.'}
    </Text>
  );
}
