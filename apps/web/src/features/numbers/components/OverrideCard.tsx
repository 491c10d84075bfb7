import { Badge, Button, Card, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { useSetNumberOverride } from '../api/set-number-override';
import type { NumberOverride, PhoneNumber } from '../types';

const MODES = [
  { value: 'auto', label: 'Auto' },
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
];

/**
 * Manual override of the business hours (PUT /api/numbers/{id}/override): Auto follows the schedule,
 * Open or Closed hold until the optional end time.
 */
export function OverrideCard({ number }: { number: PhoneNumber }) {
  const save = useSetNumberOverride();
  const [mode, setMode] = useState<NumberOverride['mode']>('auto');
  const [until, setUntil] = useState('');
  const [state, setState] = useState<NumberOverride | null>(null);

  const submit = () =>
    save.mutate(
      { id: number.id, mode, until: mode !== 'auto' && until ? new Date(until).toISOString() : null },
      {
        onSuccess: (result) => {
          setState(result.data);
          notify.success(result.message);
        },
      },
    );

  return (
    <Card withBorder radius="md" padding="md" data-testid="override-card">
      <Group justify="space-between" mb="xs">
        <Title order={5}>Open or closed now</Title>
        {state ? (
          <Badge color={state.is_open ? 'teal' : 'gray'} variant="light">
            {state.is_open ? 'Open now' : 'Closed now'}
          </Badge>
        ) : null}
      </Group>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Override the business hours, e.g. for a snow day or a late opening.
        </Text>
        <SegmentedControl aria-label="Override" data={MODES} value={mode} onChange={(v) => setMode(v as NumberOverride['mode'])} fullWidth />
        {mode !== 'auto' ? (
          <TextInput type="datetime-local" label="Until (optional)" description="Back to the schedule after this time." value={until} onChange={(e) => setUntil(e.currentTarget.value)} />
        ) : null}
        <Button variant="light" onClick={submit} loading={save.isPending}>
          Apply override
        </Button>
      </Stack>
    </Card>
  );
}
