import { Button, Checkbox, Divider, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { ContactFormSchema } from '@switchboard/contracts';
import { AGE_RANGES, CONTACT_GENDERS, CONTACT_TYPES } from '@switchboard/domain';
import { useState, type FormEvent } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useLabels } from '../api/get-labels';
import { useSaveContact } from '../api/save-contact';
import type { Contact, ContactAttribute, Ref } from '../types';

const TEXT_FIELDS = [
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['name', 'Full name'],
  ['number', 'Phone number'],
  ['email', 'Email'],
  ['company_name', 'Company'],
  ['address1', 'Address 1'],
  ['address2', 'Address 2'],
  ['city', 'City'],
  ['state', 'State'],
  ['zip', 'Zip'],
  ['carrier', 'Carrier'],
  ['optin_type', 'Opt-in type'],
  ['optin_source', 'Opt-in source'],
] as const;

type Values = Record<string, string>;

function initialValues(contact: Contact | null): Values {
  const v: Values = {};
  for (const [key] of TEXT_FIELDS) v[key] = contact ? String((contact as unknown as Record<string, unknown>)[key] ?? '') : '';
  v.notes = contact?.notes ?? '';
  v.gender = contact?.gender ?? '';
  v.age_range = contact?.age_range ?? '';
  v.type = contact?.type ?? '';
  v.country = String(contact?.custom?.country ?? '');
  v.title = String(contact?.custom?.title ?? '');
  return v;
}

function initialEav(contact: Contact | null, attributes: ContactAttribute[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const a of attributes) {
    const stored = contact?.eavAttributeValues.find((e) => e.attribute_id === a.id);
    out[a.id] = stored ? stored.value : contact ? null : (a.defaultValue ?? null);
  }
  return out;
}

/** One custom-field input by its value type. */
function EavInput({ attribute, value, onChange, error }: { attribute: ContactAttribute; value: unknown; onChange: (v: unknown) => void; error?: string }) {
  const choices = attribute.choices.map((c) => ({ value: String(c.id), label: c.value }));
  switch (attribute.type) {
    case 'number':
      return (
        <NumberInput
          label={attribute.name}
          value={typeof value === 'number' ? value : value === null || value === undefined || value === '' ? '' : Number(value)}
          onChange={(v) => onChange(v === '' ? null : v)}
          error={error}
        />
      );
    case 'boolean':
      return (
        <Checkbox
          mt="lg"
          label={attribute.name}
          checked={value === true || value === 'true' || value === 1}
          onChange={(e) => onChange(e.currentTarget.checked)}
          error={error}
        />
      );
    case 'select':
      return (
        <Select
          label={attribute.name}
          data={choices}
          clearable
          value={value === null || value === undefined ? null : String(value)}
          onChange={(v) => onChange(v === null ? null : Number(v))}
          error={error}
        />
      );
    case 'multiselect':
      return (
        <MultiSelect
          label={attribute.name}
          data={choices}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={(v) => onChange(v.map(Number))}
          error={error}
        />
      );
    case 'date':
      return (
        <TextInput
          type="date"
          label={attribute.name}
          value={typeof value === 'string' ? value.slice(0, 10) : ''}
          onChange={(e) => onChange(e.currentTarget.value || null)}
          error={error}
        />
      );
    default:
      return (
        <TextInput
          label={attribute.name}
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.currentTarget.value || null)}
          error={error}
        />
      );
  }
}

interface ContactFormProps {
  contact: Contact | null;
  groups: Ref[];
  attributes: ContactAttribute[];
  onDone: (contact: Contact) => void;
  onCancel: () => void;
}

/**
 * Create or edit a contact: every field of the spec, groups, labels and custom-field values. The
 * required marks follow the rule (a phone number; a full name unless a first or last name is given)
 * and the form is checked in the browser with the server's schema and messages before it is sent.
 */
export function ContactForm({ contact, groups, attributes, onDone, onCancel }: ContactFormProps) {
  const labels = useLabels();
  const save = useSaveContact();
  const [values, setValues] = useState<Values>(() => initialValues(contact));
  const [groupIds, setGroupIds] = useState<string[]>(() => contact?.groups.map((g) => String(g.id)) ?? []);
  const [labelIds, setLabelIds] = useState<string[]>(() => contact?.labels.map((l) => String(l.id)) ?? []);
  const [altNames, setAltNames] = useState<string[]>(contact?.alternative_names ?? []);
  const [emails, setEmails] = useState<string[]>(contact?.secondary_emails ?? []);
  const [unsubscribed, setUnsubscribed] = useState(contact?.is_unsubscribed ?? false);
  const [eav, setEav] = useState<Record<number, unknown>>(() => initialEav(contact, attributes));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const set = (key: string) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const err = (key: string) => errors[key]?.[0];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const input: Record<string, unknown> = {};
    for (const [key] of TEXT_FIELDS) input[key] = values[key]!.trim() || null;
    if (!input.name) delete input.name;
    input.notes = values.notes || null;
    input.gender = values.gender || null;
    input.age_range = values.age_range || null;
    input.type = values.type || null;
    input.custom = { country: values.country || null, title: values.title || null };
    input.alternative_names = altNames;
    input.secondary_emails = emails;
    input.is_unsubscribed = unsubscribed;
    input.groups = groupIds.map(Number);
    input.labels = labelIds.map(Number);
    input.eavAttributeValues = attributes.map((a) => ({ attribute_id: a.id, value: eav[a.id] ?? null }));
    // The server's rules and messages, checked here first (packages/contracts ContactFormSchema).
    const checked = ContactFormSchema.safeParse(input);
    if (!checked.success) {
      const found: Record<string, string[]> = {};
      for (const issue of checked.error.issues) (found[issue.path.join('.')] ??= []).push(issue.message);
      setErrors(found);
      return;
    }
    try {
      const saved = await save.mutateAsync({ id: contact?.id ?? null, input });
      notify.success(contact ? 'Contact updated' : 'Contact created');
      onDone(saved);
    } catch (error) {
      if (error instanceof HttpError && error.status === 422) {
        setErrors(error.fieldErrors);
        notify.danger(error.message, 10_000);
      } else if (error instanceof HttpError) notify.danger(error.message, 10_000);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {TEXT_FIELDS.map(([key, label]) => (
            <TextInput
              key={key}
              label={label}
              required={key === 'number' || (key === 'name' && !values.first_name!.trim() && !values.last_name!.trim())}
              description={key === 'name' ? 'Or fill in first and/or last name' : undefined}
              value={values[key]}
              onChange={(e) => set(key)(e.currentTarget.value)}
              error={err(key)}
            />
          ))}
          <Select
            label="Gender"
            data={[...CONTACT_GENDERS]}
            clearable
            value={values.gender || null}
            onChange={(v) => set('gender')(v ?? '')}
            error={err('gender')}
          />
          <Select
            label="Age range"
            data={[...AGE_RANGES]}
            clearable
            value={values.age_range || null}
            onChange={(v) => set('age_range')(v ?? '')}
            error={err('age_range')}
          />
          <Select label="Type" data={[...CONTACT_TYPES]} clearable value={values.type || null} onChange={(v) => set('type')(v ?? '')} error={err('type')} />
          <TextInput label="Job title" value={values.title} onChange={(e) => set('title')(e.currentTarget.value)} />
          <TextInput label="Country" value={values.country} onChange={(e) => set('country')(e.currentTarget.value)} />
        </SimpleGrid>
        <TagsInput label="Other names" value={altNames} onChange={setAltNames} error={err('alternative_names')} />
        <TagsInput
          label="Other emails"
          value={emails}
          onChange={setEmails}
          error={err('secondary_emails') ?? Object.entries(errors).find(([k]) => k.startsWith('secondary_emails'))?.[1]?.[0]}
        />
        <Textarea label="Notes" autosize minRows={2} value={values.notes} onChange={(e) => set('notes')(e.currentTarget.value)} />
        <MultiSelect
          label="Groups"
          data={groups.map((g) => ({ value: String(g.id), label: g.name }))}
          value={groupIds}
          onChange={setGroupIds}
          searchable
          clearable
        />
        <MultiSelect
          label="Labels"
          data={(labels.data?.data ?? []).map((l) => ({ value: String(l.id), label: l.label }))}
          value={labelIds}
          onChange={setLabelIds}
          searchable
          clearable
        />
        <Checkbox label="Unsubscribed (receives no messages or campaigns)" checked={unsubscribed} onChange={(e) => setUnsubscribed(e.currentTarget.checked)} />
        {attributes.length > 0 ? (
          <>
            <Divider label="Custom fields" labelPosition="left" />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {attributes.map((a, i) => (
                <EavInput
                  key={a.id}
                  attribute={a}
                  value={eav[a.id]}
                  onChange={(v) => setEav((e) => ({ ...e, [a.id]: v }))}
                  error={errors[`eavAttributeValues.${i}.value`]?.[0]}
                />
              ))}
            </SimpleGrid>
          </>
        ) : (
          <Text size="xs" c="dimmed">
            Custom fields for contacts can be added on the Custom fields page.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {contact ? 'Save contact' : 'Create contact'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
