import { Anchor, Badge, Group, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import { formatPhone } from '@switchboard/domain';
import { IconMessage, IconPhoneIncoming, IconPhoneOutgoing, IconRecordMail } from '@tabler/icons-react';
import { formatDateTime, formatDuration } from '../../../lib/format';
import type { ActivityItem } from '../types';
import { fileSrc } from '../../../lib/files';

function KindIcon({ item }: { item: ActivityItem }) {
  const Icon =
    item.kind === 'voicemail' ? IconRecordMail : item.kind === 'message' ? IconMessage : item.direction === 'outbound' ? IconPhoneOutgoing : IconPhoneIncoming;
  const color = item.kind === 'voicemail' ? 'grape' : item.kind === 'message' ? 'teal' : 'blue';
  return (
    <ThemeIcon variant="light" color={color} radius="xl" role="img" aria-label={item.kind}>
      <Icon size={16} />
    </ThemeIcon>
  );
}

function Details({ item }: { item: ActivityItem }) {
  if (item.kind === 'message') {
    return (
      <Stack gap={2}>
        <Text size="sm" lineClamp={2}>
          {item.content}
        </Text>
        {item.delivery_state ? (
          <Text size="xs" c="dimmed">
            {item.delivery_state}
          </Text>
        ) : null}
      </Stack>
    );
  }
  return (
    <Stack gap={4}>
      <Group gap="xs">
        {item.status_label ? (
          <Badge variant="light" size="sm" data-testid="call-status">
            {item.status_label}
          </Badge>
        ) : null}
        {item.duration_s ? (
          <Text size="xs" c="dimmed">
            {formatDuration(item.duration_s)}
          </Text>
        ) : null}
      </Group>
      {item.kind === 'voicemail' && item.recording_url ? (
        <audio controls preload="none" src={fileSrc(item.recording_url)} style={{ height: 32, maxWidth: 260 }} aria-label="Voicemail recording" />
      ) : null}
    </Stack>
  );
}

/** The call of a call or voicemail row (`call_id`; older answers: 'call-12' → 12). */
function callIdOf(item: ActivityItem): number | null {
  if (typeof item.call_id === 'number') return item.call_id;
  const match = item.kind === 'call' ? /^call-(\d+)$/.exec(String(item.id)) : null;
  return match ? Number(match[1]) : null;
}

/** One call, voicemail or message of the feed: a known caller by name, the number by its label. */
export function ActivityRow({ item }: { item: ActivityItem }) {
  const outside = item.direction === 'outbound' ? item.to : item.from;
  const callId = callIdOf(item);
  return (
    <Table.Tr data-testid="activity-row" data-kind={item.kind}>
      <Table.Td>
        <KindIcon item={item} />
      </Table.Td>
      <Table.Td>
        {callId !== null ? (
          <Anchor component={Link} to={`/calls/${callId}`} size="sm" fw={500} data-testid="call-link">
            {item.contact?.name || formatPhone(outside)}
          </Anchor>
        ) : (
          <Text size="sm" fw={500}>
            {item.contact?.name || formatPhone(outside)}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {item.direction === 'outbound' ? 'to' : 'from'} {formatPhone(outside)}
        </Text>
      </Table.Td>
      <Table.Td>
        {item.number?.label ? (
          <>
            <Text size="sm" data-testid="activity-number-label">
              {item.number.label}
            </Text>
            <Text size="xs" c="dimmed">
              {formatPhone(item.number.number)}
            </Text>
          </>
        ) : (
          <Text size="sm">{item.number ? formatPhone(item.number.number) : ''}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Details item={item} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(item.created_at)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
