import { Badge, Button, Card, Group, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { IconForms, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { notify } from '../../../lib/notify';
import { useAttributes } from '../api/get-attributes';
import { useCountStats } from '../api/get-count-stats';
import { useDeleteAttribute } from '../api/delete-attribute';
import { useEntityTypes } from '../api/get-entity-types';
import type { Attribute } from '../types';
import { AttributeForm } from './AttributeForm';
import { EditDeleteActions } from '../../../components/EditDeleteActions';
import { RequireAbility } from '../../../components/RequireAbility';

/** Entity types people fill custom fields on in this app (TrackingPool and Organization have no screens). */
const SHOWN_TYPES = [7, 6, 1, 2, 5];

function defaultText(a: Attribute): string {
  const v = a.defaultValue;
  if (v === null || v === undefined || v === '') return '—';
  if (a.type === 'select') return a.choices.find((c) => c.id === Number(v))?.value ?? String(v);
  if (a.type === 'boolean') return v ? 'Yes' : 'No';
  return String(v);
}

function Usage({ id }: { id: number }) {
  const stats = useCountStats(id);
  if (stats.isPending)
    return (
      <Text size="sm" c="dimmed">
        …
      </Text>
    );
  const s = stats.data?.data;
  return (
    <Tooltip
      label={
        s?.perValue.length
          ? s.perValue
              .slice(0, 8)
              .map((p) => `${String(p.value)}: ${p.count}`)
              .join(' · ')
          : 'No values yet'
      }
    >
      <Text size="sm">{s ? `${s.entities} filled` : '—'}</Text>
    </Tooltip>
  );
}

function AttributeTable({ entityType, onEdit, onDelete }: { entityType: number; onEdit: (a: Attribute) => void; onDelete: (a: Attribute) => void }) {
  const attributes = useAttributes(entityType);
  const list = attributes.data?.data ?? [];
  if (attributes.isPending) return <ListSkeleton rows={3} height={40} />;
  if (list.length === 0)
    return (
      <EmptyBlock
        icon={<IconForms />}
        title="No custom fields here yet"
        description="Add a field to record what matters to your business, e.g. a customer tier or a renewal date."
      />
    );
  return (
    <Table verticalSpacing="sm" data-testid="attributes-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Choices</Table.Th>
          <Table.Th>Default</Table.Th>
          <Table.Th>Usage</Table.Th>
          <Table.Th w={90} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {list.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              <Group gap={6}>
                <Text size="sm" fw={500}>
                  {a.name}
                </Text>
                {a.businessUnitId !== null && a.companyId === null ? (
                  <Badge size="xs" variant="outline">
                    Business unit
                  </Badge>
                ) : null}
                {a.isOverridden ? (
                  <Badge size="xs" color="yellow" variant="light">
                    Overridden
                  </Badge>
                ) : null}
              </Group>
            </Table.Td>
            <Table.Td>
              <Badge variant="light" color="gray">
                {a.type}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed" lineClamp={1}>
                {a.choices.map((c) => c.value).join(', ')}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{defaultText(a)}</Text>
            </Table.Td>
            <Table.Td>
              <Usage id={a.id} />
            </Table.Td>
            <Table.Td>
              <EditDeleteActions name={a.name} onEdit={() => onEdit(a)} onDelete={() => onDelete(a)} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Custom fields `/custom-fields`: one tab per entity type; create, edit, delete, usage counts. */
export function CustomFieldsPage() {
  // Custom-field definitions are company settings: `settings.manage` (docs/permissions.md).
  return (
    <RequireAbility ability="settings.manage" title="Custom fields">
      <CustomFieldsScreen />
    </RequireAbility>
  );
}

function CustomFieldsScreen() {
  const types = useEntityTypes();
  const [tab, setTab] = useState('7');
  const [editing, setEditing] = useState<Attribute | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Attribute | null>(null);
  const remove = useDeleteAttribute();
  const shown = (types.data?.data ?? []).filter((t) => SHOWN_TYPES.includes(t.id)).sort((a, b) => SHOWN_TYPES.indexOf(a.id) - SHOWN_TYPES.indexOf(b.id));

  return (
    <>
      <PageHeader
        title="Custom fields"
        description="Extra fields on contacts, calls, numbers, companies and users."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            New field
          </Button>
        }
      />
      <Card withBorder radius="md">
        {types.isPending ? (
          <ListSkeleton rows={3} />
        ) : (
          <Tabs value={tab} onChange={(v) => v && setTab(v)}>
            <Tabs.List mb="md">
              {shown.map((t) => (
                <Tabs.Tab key={t.id} value={String(t.id)}>
                  {t.name}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <AttributeTable key={tab} entityType={Number(tab)} onEdit={setEditing} onDelete={setDeleting} />
          </Tabs>
        )}
      </Card>
      {editing ? <AttributeForm entityType={Number(tab)} attribute={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete custom field"
        loading={remove.isPending}
        onConfirm={async () => {
          const result = await remove.mutateAsync(deleting!.id);
          notify.success(result.message);
          setDeleting(null);
        }}
      >
        Delete {deleting?.name}? Every value stored in it goes too.
      </ConfirmModal>
    </>
  );
}
