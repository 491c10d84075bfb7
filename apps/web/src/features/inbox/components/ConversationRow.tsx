import { Badge, Checkbox, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconNote, IconPhone, IconRecordMail } from '@tabler/icons-react';
import { formatStamp } from '../../../lib/format';
import type { Conversation } from '../types';
import { CallerName } from '../../../components/CallerName';

/**
 * The list's one-line preview of the latest item: a note reads as a note ("Note: …", never as a
 * text sent to the customer), an outbound text as "You: …", calls and voicemails by kind.
 */
export function previewOf(conversation: Conversation): { icon: 'note' | 'call' | 'voicemail' | null; text: string } {
  const item = conversation.latestItem;
  if (!item) return { icon: null, text: 'No messages yet' };
  const content = item.details.content;
  switch (item.type) {
    case 'note':
      return { icon: 'note', text: content ? `Note: ${content}` : 'Note' };
    case 'call':
      return { icon: 'call', text: item.details.isInbound ? 'Incoming call' : 'Outgoing call' };
    case 'voicemail':
      return { icon: 'voicemail', text: 'Voicemail' };
    case 'scheduledmessage':
      return { icon: null, text: content ? `Scheduled: ${content}` : 'Scheduled message' };
    default:
      if (content) return { icon: null, text: `${item.details.isInbound ? '' : 'You: '}${content}` };
      return { icon: null, text: item.details.isInbound ? 'Message' : 'You: Message' };
  }
}

const PREVIEW_ICONS = { note: IconNote, call: IconPhone, voicemail: IconRecordMail } as const;

/** One conversation in the list: who, the latest item, when, and the unread count. */
export function ConversationRow({
  conversation,
  active,
  onOpen,
  selected,
  onSelect,
}: {
  conversation: Conversation;
  active: boolean;
  onOpen: () => void;
  selected?: boolean;
  onSelect?: (selected: boolean) => void;
}) {
  const unread = conversation.numUnreadItems > 0;
  const preview = previewOf(conversation);
  const PreviewIcon = preview.icon ? PREVIEW_ICONS[preview.icon] : null;
  const row = (
    <UnstyledButton
      onClick={onOpen}
      p="sm"
      data-testid="conversation-row"
      data-recipient={conversation.recipient}
      aria-current={active ? 'true' : undefined}
      style={{
        display: 'block',
        width: '100%',
        borderRadius: 8,
        background: active ? 'var(--mantine-color-blue-light)' : undefined,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={4} wrap="nowrap">
            <Text fw={unread ? 700 : 500} truncate>
              {conversation.contact?.name || formatPhone(conversation.recipient)}
            </Text>
            {conversation.contact && !conversation.contact.subscribed ? (
              <Badge size="xs" color="orange" variant="light">
                Unsubscribed
              </Badge>
            ) : null}
            {conversation.isBlocked ? (
              <Badge size="xs" color="red" variant="light" data-testid="conversation-blocked">
                Blocked
              </Badge>
            ) : null}
          </Group>
          <CallerName enhanced={conversation.enhancedCallerId} compact />
          <Group gap={4} wrap="nowrap" data-testid="conversation-preview" data-kind={preview.icon ?? 'message'}>
            {PreviewIcon ? (
              <PreviewIcon
                size={14}
                aria-hidden
                style={{ flexShrink: 0, color: preview.icon === 'note' ? 'var(--mantine-color-yellow-8)' : 'var(--mantine-color-dimmed)' }}
              />
            ) : null}
            <Text size="sm" c={unread ? undefined : 'dimmed'} fw={unread ? 600 : 400} fs={preview.icon === 'note' ? 'italic' : undefined} truncate>
              {preview.text}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" truncate>
            via {formatPhone(conversation.number.number)}
          </Text>
        </Stack>
        <Stack gap={4} align="flex-end">
          <Text size="xs" c="dimmed">
            {formatStamp(conversation.lastActivityAt)}
          </Text>
          {unread ? (
            <Badge size="sm" circle data-testid="unread-badge">
              {conversation.numUnreadItems}
            </Badge>
          ) : null}
        </Stack>
      </Group>
    </UnstyledButton>
  );
  if (!onSelect) return row;
  return (
    <Group gap={4} wrap="nowrap" align="center">
      <Checkbox
        aria-label={`Select conversation with ${conversation.contact?.name || formatPhone(conversation.recipient)}`}
        checked={!!selected}
        onChange={(e) => onSelect(e.currentTarget.checked)}
        pl={4}
      />
      <div style={{ flex: 1, minWidth: 0 }}>{row}</div>
    </Group>
  );
}
