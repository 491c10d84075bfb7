import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconClock, IconNote, IconPhoneIncoming, IconPhoneOutgoing, IconRecordMail } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDateTime, formatDuration } from '../../../lib/format';
import type { ConversationItem } from '../types';
import { MessageBubble } from './MessageBubble';
import { FaxThreadItem } from '../../../components/FaxThreadItem';

/** A call or voicemail in the thread: direction, status, duration, a link to the call, and a voicemail's transcript. */
function CallItem({ item }: { item: ConversationItem }) {
  const voicemail = item.details.type === 'voicemail';
  const Icon = voicemail ? IconRecordMail : item.isInbound ? IconPhoneIncoming : IconPhoneOutgoing;
  const d = item.details;
  return (
    <Group justify="center" data-testid="thread-call" data-type={d.type}>
      <Paper withBorder px="md" py={6} radius="xl" maw="100%" bg={voicemail ? 'var(--mantine-color-grape-0)' : 'var(--mantine-color-gray-0)'}>
        <Group gap="xs" wrap="wrap" justify="center" style={{ rowGap: 2 }}>
          <Icon size={16} color={voicemail ? 'var(--mantine-color-grape-6)' : 'var(--mantine-color-blue-6)'} />
          <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
            {voicemail ? 'Voicemail' : item.isInbound ? 'Incoming call' : 'Outgoing call'}
          </Text>
          {d.callStatusLabel ? (
            <Badge size="sm" variant="light" color={voicemail ? 'grape' : 'blue'}>
              {d.callStatusLabel}
            </Badge>
          ) : null}
          {d.durationS ? (
            <Text size="xs" c="dimmed">
              {formatDuration(d.durationS)}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(item.createdAt)}
          </Text>
          {d.callId ? (
            <Anchor component={Link} to={`/calls/${d.callId}`} size="xs">
              {voicemail ? 'Listen' : 'Details'}
            </Anchor>
          ) : null}
        </Group>
        {voicemail && d.transcript ? <VoicemailText transcript={d.transcript} /> : null}
      </Paper>
    </Group>
  );
}

/** A voicemail's transcript under its item: the text, "Transcribing…" while the job runs, or a notice when it failed. */
function VoicemailText({ transcript }: { transcript: NonNullable<ConversationItem['details']['transcript']> }) {
  if (transcript.state === 'loading')
    return (
      <Text size="xs" c="dimmed" ta="center" mt={4} data-testid="voicemail-transcript" data-state="loading">
        Transcribing…
      </Text>
    );
  if (transcript.state === 'failed')
    return (
      <Text size="xs" c="dimmed" ta="center" mt={4} data-testid="voicemail-transcript" data-state="failed">
        The voicemail could not be transcribed.
      </Text>
    );
  return (
    <Text size="sm" mt={4} maw={480} style={{ whiteSpace: 'pre-wrap' }} data-testid="voicemail-transcript" data-state="complete">
      {transcript.text.trim() ? `“${transcript.text.trim()}”` : 'No words were heard.'}
    </Text>
  );
}

/** A note for the team: yellow, centred, never sent to the customer. */
function NoteItem({ item }: { item: ConversationItem }) {
  return (
    <Group justify="center" data-testid="thread-note">
      <Paper withBorder px="md" py="xs" radius="md" bg="var(--mantine-color-yellow-0)" maw="80%">
        <Group gap={6} mb={2}>
          <IconNote size={14} color="var(--mantine-color-yellow-8)" />
          <Text size="xs" c="dimmed">
            Note · {formatDateTime(item.createdAt)}
          </Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {item.details.content}
        </Text>
      </Paper>
    </Group>
  );
}

/** A message waiting to be sent at its time, with Cancel. */
function ScheduledItem({ item, onCancel, cancelling }: { item: ConversationItem; onCancel: () => void; cancelling: boolean }) {
  return (
    <Stack gap={2} align="flex-end" data-testid="thread-scheduled">
      <Paper px="md" py="xs" radius="lg" maw="75%" withBorder style={{ borderStyle: 'dashed', whiteSpace: 'pre-wrap' }}>
        <Text size="sm">{item.details.content}</Text>
      </Paper>
      <Group gap={6}>
        <IconClock size={12} />
        <Text size="xs" c="dimmed">
          Scheduled for {formatDateTime(item.details.shouldBeSentAt)}
        </Text>
        <Button size="compact-xs" variant="subtle" color="red" onClick={onCancel} loading={cancelling}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** One item of a thread by its type. */
export function ThreadItem({ item, onCancelScheduled, cancelling }: { item: ConversationItem; onCancelScheduled: (id: number) => void; cancelling: boolean }) {
  switch (item.details.type) {
    case 'call':
    case 'voicemail':
      return <CallItem item={item} />;
    case 'fax':
      return <FaxThreadItem item={item} />;
    case 'note':
      return <NoteItem item={item} />;
    case 'scheduledmessage':
      return <ScheduledItem item={item} onCancel={() => onCancelScheduled(Number(item.id))} cancelling={cancelling} />;
    default:
      return <MessageBubble item={item} />;
  }
}
