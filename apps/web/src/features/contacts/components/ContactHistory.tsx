/**
 * The contact drawer's History (issue 23): the person's conversations (one per company number they dealt with), each
 * with its latest call, voicemail, text, fax or note and when, opening in the inbox. Shown to roles that read the
 * inbox; loading, error and empty states of their own.
 */
import { Anchor, Group, Paper, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { Conversation } from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import { Link } from 'react-router';
import { useCan } from '../../../lib/access';
import { formatStamp } from '../../../lib/dates';
import { useContactHistory } from '../api/get-contact-history';

/** One line about a conversation's latest item: "Incoming call", "Voicemail", "You: See you at 9", "Note: …". */
function latestOf(c: Conversation): string {
  const item = c.latestItem;
  if (!item) return 'No messages yet';
  const content = item.details.content;
  switch (item.type) {
    case 'note':
      return content ? `Note: ${content}` : 'Note';
    case 'call':
      return item.details.isInbound ? 'Incoming call' : 'Outgoing call';
    case 'voicemail':
      return 'Voicemail';
    case 'fax':
      return item.details.isInbound ? 'Fax received' : 'Fax sent';
    default:
      return `${item.details.isInbound ? '' : 'You: '}${content || 'Message'}`;
  }
}

export function ContactHistory({ number }: { number: string | null }) {
  const canInbox = useCan('inbox.read');
  const history = useContactHistory(number, canInbox);
  if (!canInbox || !number) return null;
  return (
    <Stack gap="xs" data-testid="contact-history">
      <Title order={3} size="h5">
        History
      </Title>
      {history.isPending ? (
        <Skeleton h={56} />
      ) : history.isError ? (
        <Text size="sm" c="dimmed">
          The history could not be loaded.
        </Text>
      ) : history.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No calls or messages with this contact yet.
        </Text>
      ) : (
        history.data.map((c) => (
          <Paper key={c.id} withBorder p="xs" radius="sm" data-testid="contact-history-item">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  With {formatPhone(c.number.number)}
                  {c.isArchived ? ' (archived)' : ''}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {latestOf(c)} · {formatStamp(c.lastActivityAt)}
                </Text>
              </Stack>
              <Anchor component={Link} to={`/inbox/${c.id}`} size="sm" style={{ flexShrink: 0 }}>
                Open
                <VisuallyHidden> the conversation with {formatPhone(c.number.number)}</VisuallyHidden>
              </Anchor>
            </Group>
          </Paper>
        ))
      )}
    </Stack>
  );
}
