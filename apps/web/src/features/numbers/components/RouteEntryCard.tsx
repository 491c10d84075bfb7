import { ActionIcon, Card, Divider, Grid, Group, NumberInput, Select, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { CONFIRM_KEY_CHOICES, displayRouteType, ROUTE_TYPES, type RouteEntry, type RouteType } from '@switchboard/domain';
import { IconTrash } from '@tabler/icons-react';
import type { EditorForward, GreetingAssignment, GreetingOption } from '../types';
import { errorAt, type FieldErrors } from './field-errors';
import { ForwardsEditor } from './ForwardsEditor';

interface RouteEntryCardProps {
  entry: RouteEntry;
  errors: FieldErrors;
  canRemove: boolean;
  /** Greetings of the company for on-hold music, voicemail greeting and whisper. */
  greetings: GreetingOption[];
  /** The greeting ids assigned to this extension, by kind. */
  assigned: Partial<Record<GreetingAssignment['kind'], number>>;
  onAssign: (kind: 'voicemail' | 'whisper', greetingId: number | null) => void;
  onChange: (entry: RouteEntry) => void;
  onRemove: () => void;
}

const OFF = 'off';
/** Value of round_robin when on (the server only asks whether it is set). */
const ROUND_ROBIN_ON = 'forwards';

const TYPE_LABELS: Record<RouteType, string> = {
  standard: 'Standard',
  simultaneous: 'Simultaneous (ring all)',
  sequential: 'Sequential (one after another)',
  geo: 'Geo (by caller state)',
  voicemail: 'Voicemail only',
  'in-app-calling': 'In-app calling (ring signed-in users)',
};
const TYPE_DATA = ROUTE_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }));
const CONFIRM_DATA = [{ value: OFF, label: 'Off' }, ...CONFIRM_KEY_CHOICES.map((c) => ({ value: String(c.value), label: c.label }))];

/**
 * One extension entry: extension, label, routing type, forwards (with states for geo), ring timeout,
 * confirm key with wait and whisper, voicemail with e-mail alert, caller ID pass-through, stagger,
 * round robin, on-hold music and the entry's greetings.
 */
export function RouteEntryCard({ entry, errors, canRemove, greetings, assigned, onAssign, onChange, onRemove }: RouteEntryCardProps) {
  const set = <K extends keyof RouteEntry>(key: K, value: RouteEntry[K]) => onChange({ ...entry, [key]: value });
  const geo = entry.type === 'geo' || entry.geo_by_state_enabled;
  const rings = entry.type !== 'voicemail' && entry.type !== 'in-app-calling';
  const greetingSelect = (label: string, value: number | null | undefined, onPick: (id: number | null) => void, description?: string) => (
    <Select
      label={label}
      description={description}
      placeholder={greetings.length ? 'None' : 'No greetings yet'}
      data={greetings}
      value={value ? String(value) : null}
      onChange={(v) => onPick(v ? Number(v) : null)}
      clearable
      disabled={greetings.length === 0}
    />
  );

  return (
    <Card withBorder radius="md" padding="md" data-testid="route-entry" data-extension={entry.extension} aria-label={`Extension ${entry.extension}`}>
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Text fw={600}>
            Extension {entry.extension}
            {entry.label ? ` · ${entry.label}` : ''}
          </Text>
          <Text size="xs" c="dimmed">
            {displayRouteType(entry)}
          </Text>
        </Group>
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
          <NumberInput
            label="Extension"
            min={0}
            max={99}
            allowDecimal={false}
            value={entry.extension}
            error={errorAt(errors, 'extension')}
            onChange={(v) => set('extension', typeof v === 'number' ? v : Number(v) || 0)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 5 }}>
          <TextInput
            label="Extension label"
            placeholder="Sales"
            value={entry.label}
            error={errorAt(errors, 'label')}
            onChange={(e) => set('label', e.currentTarget.value)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 5 }}>
          <Select
            label="Routing type"
            data={TYPE_DATA}
            value={entry.type}
            allowDeselect={false}
            error={errorAt(errors, 'type')}
            onChange={(v) =>
              v &&
              onChange({
                ...entry,
                type: v as RouteType,
                geo_by_state_enabled: v === 'geo',
                voicemail_enabled: v === 'voicemail' ? true : entry.voicemail_enabled,
              })
            }
          />
        </Grid.Col>
        {entry.type === 'in-app-calling' ? (
          <Grid.Col span={12}>
            <Text size="sm" c="dimmed">
              Calls ring every signed-in team member whose in-app calling status is Active. The first to answer takes the call.
            </Text>
          </Grid.Col>
        ) : entry.type === 'voicemail' ? (
          <Grid.Col span={12}>
            <Text size="sm" c="dimmed">
              Callers go straight to voicemail.
            </Text>
          </Grid.Col>
        ) : (
          <Grid.Col span={12}>
            <ForwardsEditor forwards={entry.forwards as EditorForward[]} geo={geo} errors={errors} onChange={(forwards) => set('forwards', forwards)} />
          </Grid.Col>
        )}
        {geo && rings ? (
          <Grid.Col span={12}>
            <Switch
              label="Static fallback"
              description="When no forward serves the caller's state, ring the forwards without states."
              checked={entry.geo_by_state_static_fallback}
              onChange={(e) => set('geo_by_state_static_fallback', e.currentTarget.checked)}
            />
          </Grid.Col>
        ) : null}
        {entry.type !== 'voicemail' ? (
          <>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <NumberInput
                label="Ring timeout (s)"
                min={5}
                max={600}
                allowDecimal={false}
                value={entry.timeout}
                error={errorAt(errors, 'timeout')}
                onChange={(v) => set('timeout', Number(v) || 0)}
              />
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
                <Grid.Col span={{ base: 6, sm: 2 }}>
                  <NumberInput
                    label="Key wait (s)"
                    min={1}
                    max={120}
                    allowDecimal={false}
                    value={entry.confirm_key_wait}
                    error={errorAt(errors, 'confirm_key_wait')}
                    onChange={(v) => set('confirm_key_wait', Number(v) || 0)}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 4 }}>
                  <TextInput
                    label="Whisper text"
                    placeholder="Call for Sales"
                    value={entry.confirm_whisper}
                    error={errorAt(errors, 'confirm_whisper')}
                    onChange={(e) => set('confirm_whisper', e.currentTarget.value)}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  {greetingSelect(
                    'Whisper greeting',
                    assigned.whisper,
                    (id) => onAssign('whisper', id),
                    'Played to whoever answers instead of the whisper text.',
                  )}
                </Grid.Col>
              </>
            ) : null}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {greetingSelect('On-hold music', entry.onhold_music_id, (id) => set('onhold_music_id', id), 'Played to the caller before the phones ring.')}
            </Grid.Col>
          </>
        ) : null}
        <Grid.Col span={12}>
          <Divider my={4} />
        </Grid.Col>
        <Grid.Col span={12}>
          <Group gap="xl">
            <Switch label="Voicemail" checked={entry.voicemail_enabled} onChange={(e) => set('voicemail_enabled', e.currentTarget.checked)} />
            {rings ? (
              <>
                <Switch
                  label="Caller ID pass-through"
                  checked={entry.caller_id_pass_thru}
                  onChange={(e) => set('caller_id_pass_thru', e.currentTarget.checked)}
                />
                <Switch label="Stagger" checked={entry.stagger} onChange={(e) => set('stagger', e.currentTarget.checked)} />
                <Switch
                  label="Round robin"
                  checked={Boolean(entry.round_robin)}
                  onChange={(e) => set('round_robin', e.currentTarget.checked ? ROUND_ROBIN_ON : null)}
                />
              </>
            ) : null}
          </Group>
        </Grid.Col>
        {entry.voicemail_enabled ? (
          <>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="E-mail alert address"
                description="Gets a link to each new voicemail."
                placeholder="team@example.com"
                type="email"
                value={entry.email_alert_address}
                error={errorAt(errors, 'email_alert_address')}
                onChange={(e) => set('email_alert_address', e.currentTarget.value)}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {greetingSelect(
                'Voicemail greeting',
                assigned.voicemail,
                (id) => onAssign('voicemail', id),
                'Played instead of "Please leave a message after the tone."',
              )}
            </Grid.Col>
          </>
        ) : null}
      </Grid>
    </Card>
  );
}
