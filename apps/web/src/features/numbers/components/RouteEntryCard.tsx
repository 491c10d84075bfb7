import { ActionIcon, Card, Grid, Group, NumberInput, Select, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { CONFIRM_KEY_CHOICES, ROUTE_TYPES, type RouteEntry, type RouteType } from '@switchboard/domain';
import { IconTrash } from '@tabler/icons-react';
import { errorAt, type FieldErrors } from './field-errors';
import { ForwardsEditor } from './ForwardsEditor';

interface RouteEntryCardProps {
  entry: RouteEntry;
  index: number;
  errors: FieldErrors;
  canRemove: boolean;
  onChange: (entry: RouteEntry) => void;
  onRemove: () => void;
}

const OFF = 'off';

function typeLabel(type: RouteType): string {
  return type
    .split('-')
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join('-');
}

const TYPE_DATA = ROUTE_TYPES.map((t) => ({ value: t, label: typeLabel(t) }));
const CONFIRM_DATA = [{ value: OFF, label: 'Off' }, ...CONFIRM_KEY_CHOICES.map((c) => ({ value: String(c.value), label: c.label }))];

/** One extension entry: extension, label, type, forwards, ring timeout, confirm key, voicemail, caller ID. */
export function RouteEntryCard({ entry, index, errors, canRemove, onChange, onRemove }: RouteEntryCardProps) {
  const set = <K extends keyof RouteEntry>(key: K, value: RouteEntry[K]) => onChange({ ...entry, [key]: value });
  return (
    <Card withBorder radius="md" padding="md" data-testid="route-entry" data-extension={entry.extension}>
      <Group justify="space-between" mb="sm">
        <Text fw={600}>
          Extension {entry.extension}
          {entry.label ? ` · ${entry.label}` : ''}
        </Text>
        {canRemove ? (
          <Tooltip label="Remove this extension">
            <ActionIcon variant="subtle" color="red" aria-label={`Remove extension ${entry.extension}`} onClick={onRemove}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
      <Grid gap="sm">
        <Grid.Col span={{ base: 6, sm: 2 }}>
          <NumberInput label="Extension" min={0} max={99} allowDecimal={false} value={entry.extension} error={errorAt(errors, 'extension')} onChange={(v) => set('extension', typeof v === 'number' ? v : Number(v) || 0)} />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 5 }}>
          <TextInput label="Extension label" placeholder="Sales" value={entry.label} error={errorAt(errors, 'label')} onChange={(e) => set('label', e.currentTarget.value)} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 5 }}>
          <Select label="Routing type" data={TYPE_DATA} value={entry.type} allowDeselect={false} error={errorAt(errors, 'type')} onChange={(v) => v && set('type', v as RouteType)} />
        </Grid.Col>
        <Grid.Col span={12}>
          <ForwardsEditor forwards={entry.forwards} errors={errors} onChange={(forwards) => set('forwards', forwards)} />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 3 }}>
          <NumberInput label="Ring timeout (seconds)" min={5} max={120} allowDecimal={false} value={entry.timeout} error={errorAt(errors, 'timeout')} onChange={(v) => set('timeout', Number(v) || 0)} />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 3 }}>
          <Select
            label="Confirm key"
            data={CONFIRM_DATA}
            value={entry.confirm_key === null ? OFF : String(entry.confirm_key)}
            allowDeselect={false}
            error={errorAt(errors, 'confirm_key')}
            onChange={(v) => set('confirm_key', !v || v === OFF ? null : Number(v))}
          />
        </Grid.Col>
        {entry.confirm_key !== null ? (
          <>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <TextInput label="Whisper text" placeholder="Call for Sales, press the key to accept" value={entry.confirm_whisper} error={errorAt(errors, 'confirm_whisper')} onChange={(e) => set('confirm_whisper', e.currentTarget.value)} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <NumberInput label="Key wait (s)" min={1} max={60} allowDecimal={false} value={entry.confirm_key_wait} onChange={(v) => set('confirm_key_wait', Number(v) || 0)} />
            </Grid.Col>
          </>
        ) : null}
        <Grid.Col span={12}>
          <Group gap="xl">
            <Switch label="Voicemail" checked={entry.voicemail_enabled} onChange={(e) => set('voicemail_enabled', e.currentTarget.checked)} />
            <Switch label="Caller ID pass-through" checked={entry.caller_id_pass_thru} onChange={(e) => set('caller_id_pass_thru', e.currentTarget.checked)} />
            <Switch label="Stagger" checked={entry.stagger} onChange={(e) => set('stagger', e.currentTarget.checked)} />
          </Group>
        </Grid.Col>
      </Grid>
    </Card>
  );
}
