import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatCount } from '../format';

export interface BarItem {
  name: string;
  value: number;
  /** Extra words after the value (e.g. the share of calls). */
  note?: string;
}

/**
 * A ranked list with a bar under each name: a real list, names and values as text (read in order by a
 * screen reader, never clipped inside a short bar), bars scaled to the biggest value.
 */
export function BarList({ items, color, label }: { items: BarItem[]; color: string; label: string }) {
  const max = Math.max(1, ...items.map((i) => i.value));
  return (
    <Stack component="ul" gap={10} m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {items.map((item) => (
        <li key={item.name}>
          <Group justify="space-between" gap="xs" wrap="nowrap" mb={3}>
            <Text size="sm" truncate="end" title={item.name}>
              {item.name}
            </Text>
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
              {formatCount(item.value)}
              {item.note ? (
                <Text span size="xs" c="dimmed" fw={400}>
                  {' '}
                  {item.note}
                </Text>
              ) : null}
            </Text>
          </Group>
          <Progress value={(item.value / max) * 100} color={color} size="sm" radius="xl" aria-hidden />
        </li>
      ))}
    </Stack>
  );
}
