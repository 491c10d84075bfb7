/**
 * Data groups (spec 002 "Data groups"; docs/workspace.md): named sets of the company's numbers, contacts, users and
 * tags. Create, rename, delete (confirmed); add members of a chosen type through a searchable picker; remove one with
 * its badge's button.
 */
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconPlus, IconTrash, IconUsersGroup, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import {
  useAttach,
  useCandidates,
  useCreateDataGroup,
  useDataGroups,
  useDeleteDataGroup,
  useDetach,
  useUpdateDataGroup,
  type DataGroup,
  type EntityType,
} from '../api/data-groups';

const TYPES: Array<{ value: EntityType; label: string; plural: string }> = [
  { value: 'number', label: 'Number', plural: 'Numbers' },
  { value: 'contact', label: 'Contact', plural: 'Contacts' },
  { value: 'user', label: 'User', plural: 'Users' },
  { value: 'tag', label: 'Tag', plural: 'Tags' },
];

function GroupForm({ initial, onClose }: { initial?: DataGroup; onClose: () => void }) {
  const create = useCreateDataGroup();
  const update = useUpdateDataGroup();
  const m = initial ? update : create;
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const nameError = m.error instanceof HttpError ? m.error.fieldErrors.name?.[0] : undefined;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const v = { name: name.trim(), description: description.trim() };
        if (initial) update.mutate({ id: initial.id, ...v }, { onSuccess: onClose });
        else create.mutate(v, { onSuccess: onClose });
      }}
    >
      <Stack>
        <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} data-autofocus />
        <Textarea label="Description" autosize minRows={2} maxLength={500} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={m.isPending} disabled={!name.trim()}>
            {initial ? 'Save' : 'Create group'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AddMembers({ group, onClose }: { group: DataGroup; onClose: () => void }) {
  const [type, setType] = useState<EntityType>('number');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [chosen, setChosen] = useState<string[]>([]);
  const candidates = useCandidates(type, debounced, true);
  const attach = useAttach();
  const inGroup = new Set(group.entities.filter((e) => e.type === type).map((e) => String(e.id)));
  const data = (candidates.data ?? []).filter((c) => !inGroup.has(String(c.id))).map((c) => ({ value: String(c.id), label: c.label }));
  return (
    <Stack>
      <SegmentedControl
        aria-label="Type of members"
        data={TYPES.map((t) => ({ value: t.value, label: t.plural }))}
        value={type}
        onChange={(v) => {
          setType(v as EntityType);
          setChosen([]);
          setSearch('');
        }}
      />
      <MultiSelect
        label={`${TYPES.find((t) => t.value === type)!.plural} to add`}
        placeholder="Search"
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        data={data}
        value={chosen}
        onChange={setChosen}
        nothingFoundMessage={candidates.isLoading ? 'Loading…' : 'Nothing found'}
        comboboxProps={{ withinPortal: true }}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          disabled={chosen.length === 0}
          loading={attach.isPending}
          onClick={() => attach.mutate({ id: group.id, entities: chosen.map((id) => ({ type, id: Number(id) })) }, { onSuccess: onClose })}
        >
          Add {chosen.length || ''}
        </Button>
      </Group>
    </Stack>
  );
}

function GroupCard({ group, onEdit, onDelete, onAdd }: { group: DataGroup; onEdit: () => void; onDelete: () => void; onAdd: () => void }) {
  const detach = useDetach();
  return (
    <Card withBorder aria-label={`Data group ${group.name}`} component="section">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Title order={2} size="h4">
            {group.name}
          </Title>
          {group.description ? (
            <Text size="sm" c="dimmed">
              {group.description}
            </Text>
          ) : null}
        </div>
        <Group gap={4} wrap="nowrap">
          <Tooltip label="Rename">
            <ActionIcon variant="subtle" aria-label={`Rename ${group.name}`} onClick={onEdit}>
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${group.name}`} onClick={onDelete}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Stack gap="xs" mt="sm">
        {group.entities.length === 0 ? (
          <Text size="sm" c="dimmed">
            No members yet.
          </Text>
        ) : (
          TYPES.filter((t) => group.entities.some((e) => e.type === t.value)).map((t) => (
            <Group key={t.value} gap="xs" align="center">
              <Text size="xs" fw={600} w={70}>
                {t.plural}
              </Text>
              {group.entities
                .filter((e) => e.type === t.value)
                .map((e) => (
                  <Badge
                    key={`${e.type}:${e.id}`}
                    variant="light"
                    pr={3}
                    rightSection={
                      <ActionIcon
                        size="xs"
                        variant="transparent"
                        aria-label={`Remove ${e.label} from ${group.name}`}
                        onClick={() => detach.mutate({ id: group.id, entities: [{ type: e.type, id: e.id }] })}
                      >
                        <IconX size={12} />
                      </ActionIcon>
                    }
                  >
                    {e.label}
                  </Badge>
                ))}
            </Group>
          ))
        )}
      </Stack>
      <Group mt="sm">
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={onAdd}>
          Add members
        </Button>
      </Group>
    </Card>
  );
}

/** The /data-groups page. */
export function DataGroupsPage() {
  const groups = useDataGroups();
  const remove = useDeleteDataGroup();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<DataGroup | null>(null);
  const [deleting, setDeleting] = useState<DataGroup | null>(null);
  const [adding, setAdding] = useState<number | null>(null);
  const addingGroup = groups.data?.find((g) => g.id === adding) ?? null;

  return (
    <>
      <PageHeader
        title="Data groups"
        description="Group numbers, contacts, users and tags to filter reports and organise work."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New group
          </Button>
        }
      />
      {groups.isLoading ? (
        <ListSkeleton />
      ) : groups.isError ? (
        <EmptyBlock title="The data groups could not be loaded" action={<Button onClick={() => void groups.refetch()}>Try again</Button>} />
      ) : !groups.data?.length ? (
        <EmptyBlock icon={<IconUsersGroup />} title="No data groups yet" action={<Button onClick={() => setCreating(true)}>Create a group</Button>} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {groups.data.map((g) => (
            <GroupCard key={g.id} group={g} onEdit={() => setEditing(g)} onDelete={() => setDeleting(g)} onAdd={() => setAdding(g.id)} />
          ))}
        </SimpleGrid>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="New data group">
        <GroupForm onClose={() => setCreating(false)} />
      </Modal>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Rename data group">
        {editing ? <GroupForm initial={editing} onClose={() => setEditing(null)} /> : null}
      </Modal>
      <Modal opened={addingGroup !== null} onClose={() => setAdding(null)} title={`Add members to ${addingGroup?.name ?? ''}`} size="lg">
        {addingGroup ? <AddMembers group={addingGroup} onClose={() => setAdding(null)} /> : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        The group goes away; its numbers, contacts, users and tags stay as they are.
      </ConfirmModal>
    </>
  );
}
