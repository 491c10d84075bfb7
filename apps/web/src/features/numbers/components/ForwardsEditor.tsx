import { ActionIcon, Button, Group, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { normalizeGeoStates, parsePhone, REGION_NAMES } from '@switchboard/domain';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { EditorForward } from '../types';
import { errorAt, type FieldErrors } from './field-errors';

interface ForwardsEditorProps {
  forwards: EditorForward[];
  errors: FieldErrors;
  /** Geo routing: each forward gets the states it serves. */
  geo: boolean;
  onChange: (forwards: EditorForward[]) => void;
}

const INVALID_PHONE = 'Enter a valid phone number';
const STATE_DATA = Object.entries(REGION_NAMES)
  .map(([code, name]) => ({ value: code, label: `${code} · ${name}` }))
  .sort((a, b) => a.value.localeCompare(b.value));

/** The phones an extension rings: add, edit (validated with parsePhone on blur), remove; with geo, the states each serves. */
export function ForwardsEditor({ forwards, errors, geo, onChange }: ForwardsEditorProps) {
  const [touched, setTouched] = useState<Record<number, boolean>>({});
  const update = (index: number, change: Partial<EditorForward>) => onChange(forwards.map((f, i) => (i === index ? { ...f, ...change } : f)));
  const remove = (index: number) => onChange(forwards.filter((_, i) => i !== index));

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Forward calls to
      </Text>
      {forwards.length === 0 ? (
        <Text size="sm" c="dimmed">
          No phones yet. Add the phone numbers this extension should ring.
        </Text>
      ) : null}
      {forwards.map((forward, index) => {
        const invalid = touched[index] && forward.number.trim() !== '' && parsePhone(forward.number) === null;
        return (
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap" data-testid="forward-row">
            <TextInput
              aria-label={`Forward number ${index + 1}`}
              placeholder="(202) 555-0123"
              value={forward.number}
              error={invalid ? INVALID_PHONE : errorAt(errors, `forwards.${index}.number`)}
              onChange={(e) => update(index, { number: e.currentTarget.value })}
              onBlur={() => setTouched((t) => ({ ...t, [index]: true }))}
              style={{ flex: 1 }}
              inputMode="tel"
            />
            {geo ? (
              <MultiSelect
                aria-label={`States for forward ${index + 1}`}
                placeholder={(forward.states ?? []).length ? undefined : 'Any state (fallback)'}
                data={STATE_DATA}
                value={forward.states ?? []}
                onChange={(states) => update(index, { states: normalizeGeoStates(states) })}
                searchable
                clearable
                hidePickedOptions
                style={{ flex: 1.4 }}
                maxDropdownHeight={240}
              />
            ) : null}
            <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove forward ${index + 1}`} onClick={() => remove(index)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        );
      })}
      {geo ? (
        <Text size="xs" c="dimmed">
          Callers ring the forwards serving their state (from their area code). Forwards without states are the fallback.
        </Text>
      ) : null}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => onChange([...forwards, { number: '' }])}>
          Add forward
        </Button>
      </Group>
    </Stack>
  );
}
