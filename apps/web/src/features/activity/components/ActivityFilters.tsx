import { Chip, Group } from '@mantine/core';
import type { ActivityFilter } from '../types';

const KINDS: Array<{ key: keyof ActivityFilter; label: string }> = [
  { key: 'calls', label: 'Calls' },
  { key: 'voicemails', label: 'Voicemails' },
  { key: 'messages', label: 'Messages' },
];

/** Type filters of the feed. */
export function ActivityFilters({ value, onChange }: { value: ActivityFilter; onChange: (filter: ActivityFilter) => void }) {
  return (
    <Group gap="xs" role="group" aria-label="Activity types">
      {KINDS.map(({ key, label }) => (
        <Chip key={key} checked={value[key]} onChange={(checked) => onChange({ ...value, [key]: checked })} variant="light">
          {label}
        </Chip>
      ))}
    </Group>
  );
}
