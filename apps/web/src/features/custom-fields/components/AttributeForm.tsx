import { ActionIcon, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSaveAttribute } from '../api/save-attribute';
import { VALUE_TYPES, type Attribute, type Choice, type ValueType } from '../types';

const TYPE_LABELS: Record<ValueType, string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  select: 'Single choice',
  multiselect: 'Multiple choice',
  boolean: 'Yes / no',
};

/** Create or edit a custom field: name, value type, choices and the default value. */
export function AttributeForm({ entityType, attribute, onClose }: { entityType: number; attribute: Attribute | null; onClose: () => void }) {
  const save = useSaveAttribute(entityType);
  const [name, setName] = useState(attribute?.name ?? '');
  const [type, setType] = useState<ValueType>(attribute?.type ?? 'text');
  const [choices, setChoices] = useState<Choice[]>(attribute?.choices.map((c) => ({ ...c })) ?? []);
  const [defaultValue, setDefaultValue] = useState<unknown>(attribute?.defaultValue ?? null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const hasChoices = type === 'select' || type === 'multiselect';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      const cleaned = hasChoices ? choices.filter((c) => c.value.trim()).map((c, i) => ({ ...c, value: c.value.trim(), sort_order: i })) : [];
      const result = await save.mutateAsync({
        id: attribute?.id ?? null,
        input: { name: name.trim(), type, defaultValue: defaultValue === '' ? null : defaultValue, choices: cleaned },
      });
      notify.success(result.message);
      onClose();
    } catch (e) {
      if (e instanceof HttpError) {
        setErrors(e.fieldErrors);
        notify.danger(e.message, 10_000);
      }
    }
  };

  const choiceOptions = choices.filter((c) => c.value.trim()).map((c) => ({ value: c.id ? String(c.id) : c.value, label: c.value }));

  return (
    <Modal opened onClose={onClose} title={attribute ? 'Edit custom field' : 'New custom field'}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name?.[0]} data-autofocus />
          <Select
            label="Value type"
            data={VALUE_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
            value={type}
            onChange={(v) => v && setType(v as ValueType)}
            allowDeselect={false}
            error={errors.type?.[0]}
          />
          {hasChoices ? (
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Choices
              </Text>
              {choices.map((c, i) => (
                <Group key={i} gap="xs" wrap="nowrap">
                  <TextInput
                    aria-label={`Choice ${i + 1}`}
                    value={c.value}
                    style={{ flex: 1 }}
                    onChange={(e) => {
                      const value = e.currentTarget.value;
                      setChoices((cs) => cs.map((x, j) => (j === i ? { ...x, value } : x)));
                    }}
                    error={errors[`choices.${i}.value`]?.[0]}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove choice ${i + 1}`}
                    onClick={() => setChoices((cs) => cs.filter((_, j) => j !== i))}
                  >
                    <IconX size={16} />
                  </ActionIcon>
                </Group>
              ))}
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={14} />}
                onClick={() => setChoices((cs) => [...cs, { value: '', sort_order: cs.length }])}
                w="fit-content"
              >
                Add choice
              </Button>
            </Stack>
          ) : null}
          {type === 'boolean' ? (
            <Checkbox label="Checked by default" checked={defaultValue === true} onChange={(e) => setDefaultValue(e.currentTarget.checked)} />
          ) : type === 'number' ? (
            <NumberInput
              label="Default value"
              value={typeof defaultValue === 'number' ? defaultValue : ''}
              onChange={(v) => setDefaultValue(v === '' ? null : v)}
              error={errors.defaultValue?.[0]}
            />
          ) : type === 'select' ? (
            <Select
              label="Default value"
              clearable
              data={choiceOptions}
              value={defaultValue === null || defaultValue === undefined ? null : String(defaultValue)}
              onChange={setDefaultValue}
              error={errors.defaultValue?.[0]}
            />
          ) : type === 'date' ? (
            <TextInput
              type="date"
              label="Default value"
              value={typeof defaultValue === 'string' ? defaultValue : ''}
              onChange={(e) => setDefaultValue(e.currentTarget.value || null)}
              error={errors.defaultValue?.[0]}
            />
          ) : type === 'text' ? (
            <TextInput
              label="Default value"
              value={typeof defaultValue === 'string' ? defaultValue : ''}
              onChange={(e) => setDefaultValue(e.currentTarget.value || null)}
              error={errors.defaultValue?.[0]}
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!name.trim()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
