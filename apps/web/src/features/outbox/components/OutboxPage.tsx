import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconMail, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { formatDateTime } from '../../../lib/format';
import { useOutbox } from '../api/get-outbox';

/** Turns the links of a plain-text mail into anchors (reset links point into this app). */
function linkify(text: string): ReactNode[] {
  return text.split(/(https?:\/\/\S+)/g).map((part, i) =>
    /^https?:\/\//.test(part) ? (
      <Anchor key={i} href={part} style={{ wordBreak: 'break-all' }}>
        {part}
      </Anchor>
    ) : (
      part
    ),
  );
}

/** The development mail outbox: every mail the product "sent" while no SMTP server is configured. */
export function OutboxPage() {
  const outbox = useOutbox();
  const mails = outbox.data?.data ?? [];
  return (
    <CenteredCard
      title="Development mail outbox"
      subtitle="Mails are kept here while no SMTP server is configured (SMTP_URL)."
      width={720}
      footer={
        <Anchor component={Link} to="/login" size="sm">
          Back to sign in
        </Anchor>
      }
    >
      <Group justify="flex-end">
        <Button variant="light" size="xs" leftSection={<IconRefresh size={14} />} onClick={() => void outbox.refetch()} loading={outbox.isFetching}>
          Refresh
        </Button>
      </Group>
      {outbox.isPending ? (
        <ListSkeleton rows={3} height={90} />
      ) : mails.length === 0 ? (
        <EmptyBlock icon={<IconMail />} title="No mail yet" description="Ask for a password reset link and it will appear here." />
      ) : (
        <Stack gap="sm">
          {mails.map((mail) => (
            <Card key={mail.id} withBorder radius="md" data-testid="outbox-mail">
              <Group justify="space-between" mb={4}>
                <Text fw={600}>{mail.subject}</Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(mail.created_at)}
                </Text>
              </Group>
              <Text size="sm" c="dimmed" mb="xs">
                To: {mail.to}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {linkify(mail.text)}
              </Text>
            </Card>
          ))}
        </Stack>
      )}
    </CenteredCard>
  );
}
