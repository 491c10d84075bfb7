import { Badge, Button, Card, Group, SegmentedControl, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { numberOverrideQueryOptions, useNumberOverride } from '../api/get-number-override';
import { useSetNumberOverride } from '../api/set-number-override';
import type { NumberOverride, PhoneNumber } from '../types';

const MODES = [
  { value: 'auto', label: 'Auto' },
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
];

/** An ISO instant as the value of a datetime-local input (the browser's zone). */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * Manual override of the business hours: the current one is read on load (GET
 * /api/numbers/{id}/override) and changed with PUT. Auto follows the schedule, Open or Closed hold
 * until the optional end time.
 */
export function OverrideCard({ number }: { number: PhoneNumber }) {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  const current = useNumberOverride(number.id);
  const save = useSetNumberOverride();
  const [mode, setMode] = useState<NumberOverride['mode']>('auto');
  const [until, setUntil] = useState('');
  const state = current.data?.data ?? null;

  // The stored override fills the form once it arrives (and after each save).
  useEffect(() => {
    if (!state) return;
    setMode(state.mode);
    setUntil(toLocalInput(state.until));
  }, [state]);

  const submit = () =>
    save.mutate(
      { id: number.id, mode, until: mode !== 'auto' && until ? new Date(until).toISOString() : null },
      {
        onSuccess: (result) => {
          queryClient.setQueryData(numberOverrideQueryOptions(companyId, number.id).queryKey, { data: result.data });
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
        {current.isPending ? (
          <Skeleton height={16} width="70%" />
        ) : state ? (
          <Text size="sm" data-testid="override-current">
            {state.mode === 'auto'
              ? 'Following the schedule.'
              : `Held ${state.mode} ${state.until ? `until ${formatDateTime(state.until)}` : 'until you switch back to Auto'}.`}
          </Text>
        ) : null}
        <SegmentedControl aria-label="Override" data={MODES} value={mode} onChange={(v) => setMode(v as NumberOverride['mode'])} fullWidth />
        {mode !== 'auto' ? (
          <TextInput
            type="datetime-local"
            label="Until (optional)"
            description="Back to the schedule after this time."
            value={until}
            onChange={(e) => setUntil(e.currentTarget.value)}
          />
        ) : null}
        <Button variant="light" onClick={submit} loading={save.isPending}>
          Apply override
        </Button>
      </Stack>
    </Card>
  );
}
