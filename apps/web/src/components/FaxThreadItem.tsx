/** A fax in an inbox thread (conversation item type fax, spec 001 §3): direction, status, text, and "Open" for the viewer. */
import { Badge, Button, Group, Paper, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { FaxViewer } from './FaxViewer';
import { formatDateTime } from '../lib/dates';

type FaxItem = {
  isInbound: boolean;
  createdAt: string;
  details: { content: string | null; deliveryState: string | null; media: Array<{ url: string; contentType: string }> };
};

/** Same-origin path of a blob URL (the viewer fetches it with the session cookie). */
function samePath(url: string): string {
  if (!URL.canParse(url, window.location.origin)) return url;
  const u = new URL(url, window.location.origin);
  return u.pathname + u.search;
}

export function FaxThreadItem({ item }: { item: FaxItem }) {
  const [open, setOpen] = useState(false);
  const pdf = item.details.media.find((m) => m.contentType === 'application/pdf');
  const state = item.details.deliveryState ?? '';
  return (
    <Group justify="center" data-testid="thread-fax">
      <Paper withBorder px="md" py={6} radius="xl" maw="100%" bg="var(--mantine-color-teal-0)">
        <Group gap="xs" wrap="wrap" justify="center" style={{ rowGap: 2 }}>
          <IconPrinter size={16} color="var(--mantine-color-teal-7)" aria-hidden />
          <Text size="sm" fw={500}>
            {item.isInbound ? 'Fax received' : 'Fax sent'}
          </Text>
          {state && (
            <Badge size="sm" variant="light" color={state === 'failed' ? 'red' : 'teal'}>
              {state}
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {item.details.content}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(item.createdAt)}
          </Text>
          {pdf && (
            <Button size="compact-xs" variant="subtle" onClick={() => setOpen(true)}>
              Open
            </Button>
          )}
        </Group>
      </Paper>
      <FaxViewer url={open && pdf ? samePath(pdf.url) : null} onClose={() => setOpen(false)} title={item.isInbound ? 'Fax received' : 'Fax sent'} />
    </Group>
  );
}
