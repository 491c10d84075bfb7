/**
 * Shared editor of custom-field (EAV) values for one entity (a number, a call, the company, a user):
 * one input per attribute, typed (text, number, date, select, multi-select, yes/no), and a Save
 * button that hands every attribute's value (null clears) to `onSave` as
 * `[{attribute_id, value}]`. Field errors of a 422 (`eavAttributeValues.{i}.value`, i = the
 * attribute's position) show under the inputs. Takes plain props: no feature imports.
 */
import { Alert, Button, Checkbox, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { HttpError } from '../lib/http';

/** What the editor needs of an attribute (the custom-fields API shape fits). */
export interface CustomFieldAttribute {
  id: number;
  name: string;
  type: string;
  defaultValue?: unknown;
  choices: Array<{ id: number; value: string }>;
}

/** A stored value (`eavAttributeValues` / `eav_attribute_values` items). */
export interface CustomFieldValue {
  attribute_id: number;
  value: unknown;
}

export interface CustomFieldValuesEditorProps {
  attributes: CustomFieldAttribute[];
  values: CustomFieldValue[];
  /** Resolves when saved; a rejection with HttpError 422 shows its field errors. */
  onSave: (values: CustomFieldValue[]) => Promise<unknown>;
  /** Read-only (no Save, inputs disabled), e.g. for members who may not edit. */
  readOnly?: boolean;
  /** Shown when the company has no custom fields of this kind. */
  emptyText?: string;
  saveLabel?: string;
  columns?: number;
}

function initial(attributes: CustomFieldAttribute[], values: CustomFieldValue[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const a of attributes) out[a.id] = values.find((v) => v.attribute_id === a.id)?.value ?? null;
  return out;
}

function ValueInput({
  attribute,
  value,
  onChange,
  error,
  disabled,
}: {
  attribute: CustomFieldAttribute;
  value: unknown;
  onChange: (v: unknown) => void;
  error?: string;
  disabled?: boolean;
}) {
  const choices = attribute.choices.map((c) => ({ value: String(c.id), label: c.value }));
  const common = { label: attribute.name, error, disabled };
  switch (attribute.type) {
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : value === null || value === undefined || value === '' ? '' : Number(value)}
          onChange={(v) => onChange(v === '' ? null : v)}
        />
      );
    case 'boolean':
      return (
        <Checkbox
          mt="lg"
          label={attribute.name}
          disabled={disabled}
          error={error}
          checked={value === true || value === 'true' || value === 1}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={choices}
          clearable
          value={value === null || value === undefined ? null : String(value)}
          onChange={(v) => onChange(v === null ? null : Number(v))}
        />
      );
    case 'multiselect':
      return (
        <MultiSelect
          {...common}
          data={choices}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={(v) => onChange(v.length ? v.map(Number) : null)}
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          value={typeof value === 'string' ? value.slice(0, 10) : ''}
          onChange={(e) => onChange(e.currentTarget.value || null)}
        />
      );
    default:
      return (
        <TextInput {...common} value={value === null || value === undefined ? '' : String(value)} onChange={(e) => onChange(e.currentTarget.value || null)} />
      );
  }
}

/** Typed inputs for the entity's custom fields with one Save. */
export function CustomFieldValuesEditor({
  attributes,
  values,
  onSave,
  readOnly = false,
  emptyText = 'No custom fields yet. Add them under Custom fields.',
  saveLabel = 'Save custom fields',
  columns = 1,
}: CustomFieldValuesEditorProps) {
  const start = useMemo(() => initial(attributes, values), [attributes, values]);
  const [draft, setDraft] = useState<Record<number, unknown>>(start);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  // New data from the server (a save, a live refresh) replaces the draft.
  useEffect(() => setDraft(start), [start]);

  if (attributes.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {emptyText}
      </Text>
    );
  }

  const dirty = attributes.some((a) => JSON.stringify(draft[a.id] ?? null) !== JSON.stringify(start[a.id] ?? null));
  const save = async () => {
    setSaving(true);
    setErrors({});
    try {
      await onSave(attributes.map((a) => ({ attribute_id: a.id, value: draft[a.id] ?? null })));
    } catch (e) {
      if (e instanceof HttpError && e.status === 422) setErrors(e.fieldErrors);
    } finally {
      setSaving(false);
    }
  };
  const general = Object.entries(errors)
    .filter(([k]) => !/^eavAttributeValues\.\d+\.value$/.test(k))
    .flatMap(([, m]) => m);

  return (
    <Stack gap="sm" data-testid="custom-field-values">
      {general.length ? (
        <Alert color="red" variant="light">
          {general[0]}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: columns }} spacing="sm">
        {attributes.map((a, i) => (
          <ValueInput
            key={a.id}
            attribute={a}
            value={draft[a.id]}
            disabled={readOnly}
            error={errors[`eavAttributeValues.${i}.value`]?.[0]}
            onChange={(v) => setDraft((d) => ({ ...d, [a.id]: v }))}
          />
        ))}
      </SimpleGrid>
      {readOnly ? null : (
        <Group justify="flex-end">
          <Button variant="light" onClick={() => void save()} loading={saving} disabled={!dirty}>
            {saveLabel}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
