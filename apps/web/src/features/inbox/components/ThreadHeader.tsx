import { ActionIcon, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconArchive, IconArrowBackUp, IconArrowLeft } from '@tabler/icons-react';
import { useArchiveConversation } from '../api/archive-conversation';
import { useRestoreConversation } from '../api/restore-conversation';
import type { Conversation } from '../types';
import { CallerName } from '../../../components/CallerName';
import { CallButton } from '../../../components/CallButton';

/** Who the thread is with, through which number, and archive / restore. */
export function ThreadHeader({ conversation, onBack }: { conversation: Conversation; onBack?: () => void }) {
  const archive = useArchiveConversation();
  const restore = useRestoreConversation();
  return (
    <Group justify="space-between" wrap="nowrap" pb="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
        {onBack ? (
          <ActionIcon variant="subtle" aria-label="Back to conversations" onClick={onBack}>
            <IconArrowLeft size={18} />
          </ActionIcon>
        ) : null}
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text fw={600} data-testid="thread-title" truncate>
              {conversation.contact?.name || formatPhone(conversation.recipient)}
            </Text>
            {conversation.contact && !conversation.contact.subscribed ? (
              <Badge size="sm" color="orange" variant="light" data-testid="thread-unsubscribed">
                Unsubscribed
              </Badge>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {conversation.contact ? `${formatPhone(conversation.recipient)} · ` : ''}via {formatPhone(conversation.number.number)}
          </Text>
          <CallerName enhanced={conversation.enhancedCallerId} />
        </Stack>
      </Group>
      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        <CallButton number={conversation.recipient} text={false} />
        {conversation.isArchived ? (
          <Button
            size="xs"
            variant="light"
            style={{ flexShrink: 0 }}
            leftSection={<IconArrowBackUp size={14} />}
            loading={restore.isPending}
            onClick={() => restore.mutate(conversation.id)}
          >
            Restore
          </Button>
        ) : (
          <Button
            size="xs"
            variant="subtle"
            color="gray"
            style={{ flexShrink: 0 }}
            leftSection={<IconArchive size={14} />}
            loading={archive.isPending}
            onClick={() => archive.mutate(conversation.id)}
          >
            Archive
          </Button>
        )}
      </Group>
    </Group>
  );
}
