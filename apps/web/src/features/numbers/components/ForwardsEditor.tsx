import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { parsePhone, type Forward } from '@switchboard/domain';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { errorAt, type FieldErrors } from './field-errors';

interface ForwardsEditorProps {
  forwards: Forward[];
  errors: FieldErrors;
  onChange: (forwards: Forward[]) => void;
}

const INVALID_PHONE = 'Enter a valid phone number';

/** The phones an extension rings: add, edit (validated with parsePhone on blur) and remove. */
export function ForwardsEditor({ forwards, errors, onChange }: ForwardsEditorProps) {
  const [touched, setTouched] = useState<Record<number, boolean>>({});
  const update = (index: number, number: string) => onChange(forwards.map((f, i) => (i === index ? { ...f, number } : f)));
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
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label={`Forward number ${index + 1}`}
              placeholder="(202) 555-0123"
              value={forward.number}
              error={invalid ? INVALID_PHONE : errorAt(errors, `forwards.${index}.number`)}
              onChange={(e) => update(index, e.currentTarget.value)}
              onBlur={() => setTouched((t) => ({ ...t, [index]: true }))}
              style={{ flex: 1 }}
              inputMode="tel"
            />
            <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove forward ${index + 1}`} onClick={() => remove(index)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => onChange([...forwards, { number: '' }])}>
          Add forward
        </Button>
      </Group>
    </Stack>
  );
}
