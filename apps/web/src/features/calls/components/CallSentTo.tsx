/**
 * The call detail's "Sent to" (issue 24 "Screens"): each integration this call was sent to (Google Ads, Slack, …),
 * what was sent (call, lead, outcome…) and how it went. Shows nothing while loading or when the call went nowhere.
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import { formatStamp } from '../../../lib/format';
import { useCallDeliveries } from '../api/integration-deliveries';

const KIND: Record<string, string> = {
  call: 'call',
  lead: 'new lead',
  text: 'text',
  outcome: 'outcome',
  'outcome-adjustment': 'outcome changed',
  'missed-call': 'missed call',
  voicemail: 'voicemail',
};
const STATE: Record<string, { label: string; color: string }> = {
  pending: { label: 'Sending', color: 'yellow' },
  delivered: { label: 'Sent', color: 'green' },
  duplicate: { label: 'Already there', color: 'teal' },
  skipped: { label: 'Skipped', color: 'gray' },
  rejected: { label: 'Refused', color: 'red' },
  failed: { label: 'Failed', color: 'red' },
  waiting: { label: 'Waiting for reconnect', color: 'orange' },
};

export function CallSentTo({ callId }: { callId: number }) {
  const deliveries = useCallDeliveries(callId);
  const rows = deliveries.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Stack gap={4} data-testid="call-sent-to">
      <Text size="sm" fw={500}>
        Sent to
      </Text>
      {rows.map((d) => (
        <Group key={d.id} gap="xs" wrap="nowrap" justify="space-between" data-testid="call-sent-to-item" data-provider={d.provider}>
          <Text size="sm" style={{ minWidth: 0 }} title={d.message ?? undefined}>
            {d.integration_name} · {KIND[d.kind] ?? d.kind}
            {d.sent_at ? (
              <Text span size="xs" c="dimmed">
                {' '}
                · {formatStamp(d.sent_at)}
              </Text>
            ) : null}
          </Text>
          <Badge size="sm" variant="light" color={STATE[d.state]?.color ?? 'gray'} style={{ flexShrink: 0 }}>
            {STATE[d.state]?.label ?? d.state}
          </Badge>
        </Group>
      ))}
    </Stack>
  );
}
