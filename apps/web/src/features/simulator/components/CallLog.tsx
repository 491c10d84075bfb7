import { Badge, Group, Text, Timeline } from '@mantine/core';
import { formatTime } from '../../../lib/dates';
import type { PlaceCallResult } from '../types';

/** The steps the simulated call went through, as a timeline. */
export function CallLog({ result }: { result: PlaceCallResult }) {
  return (
    <div data-testid="call-log">
      <Group gap="xs" mb="sm">
        <Text fw={600}>Call {result.sid}</Text>
        <Badge data-testid="call-result-status">{result.status}</Badge>
      </Group>
      <Timeline active={result.log.length - 1} bulletSize={16} lineWidth={2}>
        {result.log.map((entry, i) => (
          <Timeline.Item key={i} title={entry.step} data-testid="call-log-step">
            <Text size="sm" c="dimmed">
              {entry.detail}
            </Text>
            <Text size="xs" c="dimmed">
              {formatTime(entry.at)}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </div>
  );
}
