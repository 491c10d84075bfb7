import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import type { ForwardOutcome, SimulatorNumber } from '../types';

const OUTCOMES: Array<{ value: ForwardOutcome; label: string }> = [
  { value: 'answer', label: 'Answer' },
  { value: 'no-answer', label: 'No answer' },
  { value: 'busy', label: 'Busy' },
];

interface ForwardOutcomesProps {
  routes: SimulatorNumber['routes'];
  value: Record<string, ForwardOutcome>;
  onChange: (value: Record<string, ForwardOutcome>) => void;
}

/** Each forward of the called number with what that phone does when it rings. */
export function ForwardOutcomes({ routes, value, onChange }: ForwardOutcomesProps) {
  const withForwards = routes.filter((r) => r.forwards.length > 0);
  if (withForwards.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This number has no forwards yet: calls go to voicemail or end. Add forwards in its routing editor.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {withForwards.map((route) => (
        <Stack key={route.extension} gap={4}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Extension {route.extension}
            {route.label ? ` · ${route.label}` : ''}
          </Text>
          {route.forwards.map((f) => (
            <Group key={f.number} justify="space-between" wrap="wrap" gap="xs" data-testid="forward-outcome" data-forward={f.number}>
              <Text size="sm" ff="monospace">
                {formatPhone(f.number)}
              </Text>
              <SegmentedControl
                size="xs"
                aria-label={`What ${f.number} does`}
                data={OUTCOMES}
                value={value[f.number] ?? 'answer'}
                onChange={(v) => onChange({ ...value, [f.number]: v as ForwardOutcome })}
              />
            </Group>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
