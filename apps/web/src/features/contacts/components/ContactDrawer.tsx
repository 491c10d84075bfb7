import { CallButton } from '../../../components/CallButton';
import { Badge, Button, Drawer, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { useCan } from '../../../lib/access';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useContact } from '../api/get-contact';
import { useDeleteContact } from '../api/delete-contact';
import type { ContactAttribute, EavValue, Ref } from '../types';
import { ContactForm } from './ContactForm';
import { ContactHistory } from './ContactHistory';
import { ContactStatus } from './ContactStatus';

function eavText(value: EavValue, attributes: ContactAttribute[]): string {
  const attribute = attributes.find((a) => a.id === value.attribute_id);
  const choice = (id: unknown) => attribute?.choices.find((c) => c.id === Number(id))?.value ?? String(id);
  if (value.value === null || value.value === undefined) return '—';
  if (value.type === 'select') return choice(value.value);
  if (value.type === 'multiselect' && Array.isArray(value.value)) return value.value.map(choice).join(', ');
  if (value.type === 'boolean') return value.value ? 'Yes' : 'No';
  return String(value.value);
}

interface ContactDrawerProps {
  /** The contact shown, 'new' for the create form, null when closed. */
  contactId: number | 'new' | null;
  onClose: () => void;
  groups: Ref[];
  attributes: ContactAttribute[];
}

/** A contact's details (labels, groups, custom-field values) and history (ContactHistory) with edit and delete; or the create form. */
export function ContactDrawer({ contactId, onClose, groups, attributes }: ContactDrawerProps) {
  const id = typeof contactId === 'number' ? contactId : null;
  const contact = useContact(id);
  const remove = useDeleteContact();
  const [editing, setEditing] = useState(false);
  const canWrite = useCan('contacts.write');
  const [confirm, setConfirm] = useState(false);
  const c = contact.data;
  const close = () => {
    setEditing(false);
    onClose();
  };

  const rows: Array<[string, string | null | undefined]> = c
    ? [
        ['Phone number', c.number ? formatPhone(c.number) : null],
        ['Email', [c.email, ...c.secondary_emails].filter(Boolean).join(', ')],
        ['Company', c.company_name],
        ['Address', [c.address1, c.address2, c.city, c.state, c.zip].filter(Boolean).join(', ')],
        ['Gender', c.gender],
        ['Age range', c.age_range],
        ['Type', c.type],
        ['Other names', c.alternative_names.join(', ')],
        ['Carrier', c.carrier],
        ['Opt-in', [c.optin_type, c.optin_source].filter(Boolean).join(' · ')],
        ['Source', c.source],
        ['Added', formatDateTime(c.added_at)],
        ['Notes', c.notes],
      ]
    : [];

  return (
    <Drawer
      opened={contactId !== null}
      onClose={close}
      position="right"
      size="lg"
      title={contactId === 'new' ? 'New contact' : editing ? 'Edit contact' : 'Contact'}
    >
      {contactId === 'new' ? (
        <ContactForm contact={null} groups={groups} attributes={attributes} onDone={close} onCancel={close} />
      ) : contact.isPending ? (
        <Stack>
          <Skeleton h={28} w="60%" />
          <Skeleton h={200} />
        </Stack>
      ) : !c ? (
        <Text c="dimmed">This contact could not be loaded.</Text>
      ) : editing ? (
        <ContactForm
          key={c.updated_at}
          contact={c}
          groups={groups}
          attributes={attributes}
          onDone={() => setEditing(false)}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <Stack data-testid="contact-detail">
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Title order={3}>{c.name}</Title>
              <ContactStatus contact={c} />
              {c.number ? <CallButton number={c.number} /> : null}
            </Stack>
            {canWrite ? (
              <Group gap="xs">
                <Button size="xs" variant="light" leftSection={<IconPencil size={14} />} onClick={() => setEditing(true)}>
                  Edit
                </Button>
                <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => setConfirm(true)}>
                  Delete
                </Button>
              </Group>
            ) : null}
          </Group>
          <Group gap={6}>
            <Text size="sm" fw={500}>
              Groups:
            </Text>
            {c.groups.length ? (
              c.groups.map((g) => (
                <Badge key={g.id} variant="light">
                  {g.name}
                </Badge>
              ))
            ) : (
              <Text size="sm" c="dimmed">
                none
              </Text>
            )}
          </Group>
          <Group gap={6}>
            <Text size="sm" fw={500}>
              Labels:
            </Text>
            {c.labels.length ? (
              c.labels.map((l) => (
                <Badge key={l.id} color="grape" variant="dot">
                  {l.label}
                </Badge>
              ))
            ) : (
              <Text size="sm" c="dimmed">
                none
              </Text>
            )}
          </Group>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              {rows
                .filter(([, v]) => v)
                .map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Th w={140}>{k}</Table.Th>
                    <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{v}</Table.Td>
                  </Table.Tr>
                ))}
              {c.eavAttributeValues.map((v) => (
                <Table.Tr key={`eav-${v.attribute_id}`}>
                  <Table.Th>{v.name}</Table.Th>
                  <Table.Td>{eavText(v, attributes)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ContactHistory number={c.number} />
        </Stack>
      )}
      <ConfirmModal
        opened={confirm}
        onClose={() => setConfirm(false)}
        title="Delete contact"
        loading={remove.isPending}
        onConfirm={async () => {
          await remove.mutateAsync(c!.id);
          notify.success('Contact deleted');
          setConfirm(false);
          close();
        }}
      >
        Delete {c?.name}? Their conversations stay in the inbox.
      </ConfirmModal>
    </Drawer>
  );
}
