import { Badge, Button, Card, Group, Modal, Progress, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus, IconUsersGroup } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCreateGroup } from '../api/create-group';
import { useDeleteGroup } from '../api/delete-group';
import { useGroups } from '../api/get-groups';
import { useUpdateGroup } from '../api/update-group';
import type { ContactGroup } from '../types';
import { EditDeleteActions } from '../../../components/EditDeleteActions';

/** A stacked bar: active, unsubscribed and invalid members of a group. */
function MemberBar({ group }: { group: ContactGroup }) {
  const total = Math.max(group.contact_count, 1);
  const pct = (n: number) => (n / total) * 100;
  return (
    <Tooltip label={`${group.active_count} active · ${group.unsubscriber_count} unsubscribed · ${group.invalid_count} invalid`}>
      <Progress.Root size="lg" w={160} aria-label={`Members of ${group.name}`}>
        <Progress.Section value={group.contact_count === 0 ? 0 : pct(group.active_count)} color="teal" aria-label={`Active members of ${group.name}`} />
        <Progress.Section
          value={group.contact_count === 0 ? 0 : pct(group.unsubscriber_count)}
          color="orange"
          aria-label={`Unsubscribed members of ${group.name}`}
        />
        <Progress.Section value={group.contact_count === 0 ? 0 : pct(group.invalid_count)} color="red" aria-label={`Invalid members of ${group.name}`} />
      </Progress.Root>
    </Tooltip>
  );
}

function NameModal({
  opened,
  onClose,
  initial,
  title,
  onSubmit,
  pending,
}: {
  opened: boolean;
  onClose: () => void;
  initial: string;
  title: string;
  onSubmit: (name: string) => Promise<unknown>;
  pending: boolean;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await onSubmit(name.trim());
      onClose();
    } catch (e) {
      if (e instanceof HttpError) setError(e.fieldErrors.name?.[0] ?? null);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Group name" data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} required />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} disabled={!name.trim()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Groups `/groups`: each group's members as counters and a bar; create, rename, delete. `extra` shows below (labels). */
export function GroupsPage({ extra }: { extra?: ReactNode }) {
  const groups = useGroups();
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const remove = useDeleteGroup();
  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const [editing, setEditing] = useState<ContactGroup | null>(null);
  const [deleting, setDeleting] = useState<ContactGroup | null>(null);
  const list = groups.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Groups"
        description="Groups are the audiences of your campaigns. Labels tag contacts for your team."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
            New group
          </Button>
        }
      />
      <Card withBorder radius="md" p={0} mb="lg">
        {groups.isPending ? (
          <ListSkeleton rows={4} height={44} />
        ) : groups.isError ? (
          <LoadError what="groups" />
        ) : list.length === 0 ? (
          <EmptyBlock
            icon={<IconUsersGroup />}
            title="No groups yet"
            description="Create a group, then add contacts to it from Contacts or while importing."
            action={<Button onClick={openCreate}>New group</Button>}
          />
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" data-testid="groups-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th ta="right">Contacts</Table.Th>
                  <Table.Th ta="right">Active</Table.Th>
                  <Table.Th ta="right">Invalid</Table.Th>
                  <Table.Th ta="right">Unsubscribed</Table.Th>
                  <Table.Th>Members</Table.Th>
                  <Table.Th w={90} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((g) => (
                  <Table.Tr key={g.id} data-testid="group-row">
                    <Table.Td>
                      <Text component={Link} to={`/contacts?group_id=${g.id}`} fw={500} size="sm" c="blue">
                        {g.name}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{g.contact_count}</Table.Td>
                    <Table.Td ta="right">{g.active_count}</Table.Td>
                    <Table.Td ta="right">
                      {g.invalid_count > 0 ? (
                        <Badge color="red" variant="light">
                          {g.invalid_count}
                        </Badge>
                      ) : (
                        0
                      )}
                    </Table.Td>
                    <Table.Td ta="right">
                      {g.unsubscriber_count > 0 ? (
                        <Badge color="orange" variant="light">
                          {g.unsubscriber_count}
                        </Badge>
                      ) : (
                        0
                      )}
                    </Table.Td>
                    <Table.Td>
                      <MemberBar group={g} />
                    </Table.Td>
                    <Table.Td>
                      <EditDeleteActions name={g.name} editVerb="Rename" onEdit={() => setEditing(g)} onDelete={() => setDeleting(g)} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {extra}
      {creating ? (
        <NameModal
          opened
          onClose={closeCreate}
          initial=""
          title="New group"
          pending={create.isPending}
          onSubmit={async (name) => {
            await create.mutateAsync(name);
            notify.success(`Group "${name}" created`);
          }}
        />
      ) : null}
      {editing ? (
        <NameModal
          opened
          onClose={() => setEditing(null)}
          initial={editing.name}
          title="Rename group"
          pending={update.isPending}
          onSubmit={async (name) => {
            await update.mutateAsync({ id: editing.id, name });
            notify.success('Group renamed');
          }}
        />
      ) : null}
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete group"
        loading={remove.isPending}
        onConfirm={async () => {
          await remove.mutateAsync(deleting!.id);
          notify.success('Group deleted');
          setDeleting(null);
        }}
      >
        Delete <b>{deleting?.name}</b>? Its {deleting?.contact_count ?? 0} contacts stay in your contact book.
      </ConfirmModal>
    </>
  );
}
