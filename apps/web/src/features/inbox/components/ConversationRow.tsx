import { Badge, Checkbox, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { formatStamp } from '../../../lib/format';
import type { Conversation } from '../types';

function preview(conversation: Conversation): string {
  const item = conversation.latestItem;
  if (!item) return 'No messages yet';
  if (item.details.content) return `${item.details.isInbound ? '' : 'You: '}${item.details.content}`;
  return item.type === 'call' ? 'Call' : item.type === 'voicemail' ? 'Voicemail' : item.type === 'note' ? 'Note' : 'Message';
}

/** One conversation in the list: who, the latest item, when, and the unread count. */
export function ConversationRow({ conversation, active, onOpen, selected, onSelect }: { conversation: Conversation; active: boolean; onOpen: () => void; selected?: boolean; onSelect?: (selected: boolean) => void }) {
  const unread = conversation.numUnreadItems > 0;
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
          </Group>
          <Text size="sm" c={unread ? undefined : 'dimmed'} fw={unread ? 600 : 400} truncate>
            {preview(conversation)}
          </Text>
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
      <Checkbox aria-label={`Select conversation with ${conversation.contact?.name || formatPhone(conversation.recipient)}`} checked={!!selected} onChange={(e) => onSelect(e.currentTarget.checked)} pl={4} />
      <div style={{ flex: 1, minWidth: 0 }}>{row}</div>
    </Group>
  );
}
