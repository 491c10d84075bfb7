import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconMail, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
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

/**
 * The development mail outbox (signed-in only): the mail the product "sent" to the signed-in
 * person while no SMTP server is configured; an operator sees every mail (docs/auth.md).
 */
export function OutboxPage() {
  const outbox = useOutbox();
  const { user } = useSession();
  const mails = outbox.data?.data ?? [];
  return (
    <CenteredCard
      title="Development mail outbox"
      subtitle={`Mail sent to ${user?.email ?? 'you'} is kept here while no SMTP server is configured (SMTP_URL).`}
      width={720}
      footer={
        <Anchor component={Link} to="/inbox" size="sm">
          Back to the app
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
        <EmptyBlock icon={<IconMail />} title="No mail yet" description="Mail the product sends you (password reset, notifications) appears here." />
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
