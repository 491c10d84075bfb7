/**
 * /users (docs/accounts.md "Users of an account"): the selected account's users with their role
 * (changed in place), the numbers that ring them, active or deactivated, removal; the pending
 * invitations with resend and cancel; inviting by e-mail. Owners and administrators only; only an
 * owner gives or takes the owner role.
 */
import { ActionIcon, Badge, Button, Card, Group, Menu, Modal, MultiSelect, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { CustomFieldValuesEditor } from '../../../components/CustomFieldValuesEditor';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconMailForward, IconSearch, IconUserPlus, IconUsers, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatStamp } from '../../../lib/format';
import { roleCan } from '@switchboard/domain';
import { useRole } from '../../../lib/access';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useAssignableNumbers } from '../api/company-numbers';
import {
  useCancelInvitation,
  useInvitations,
  useMembers,
  useRemoveMember,
  useResendInvitation,
  useRoles,
  useSetMemberActive,
  useUpdateMember,
  useUserAttributes,
  type Member,
} from '../api/users';
import { ROLE_LABELS, type AssignableRole } from '../roles';
import { InvitationLinkDialog } from './InvitationLinkDialog';
import { InviteUserModal } from './InviteUserModal';

export function UsersPage() {
  const session = useSession();
  // The role known from the session; an account reached since sign-in (a new one of an organization) asks the
  // server. Every decision below is the matrix's (docs/permissions.md): `users.read`, `users.manage`, `ownership.manage`.
  const knownRole = useRole();
  const members = useMembers(knownRole === null || roleCan(knownRole, 'users.read'));
  const refused = members.error instanceof HttpError && members.error.status === 403;
  const myRole = knownRole ?? members.data?.find((m) => m.id === session.user?.id)?.role ?? null;
  const canManage = !refused && (knownRole === null || roleCan(knownRole, 'users.manage'));
  const canOwn = roleCan(myRole, 'ownership.manage');
  const invitations = useInvitations(canManage);
  const [inviting, setInviting] = useState(false);
  const [search, setSearch] = useState('');
  const [needle] = useDebouncedValue(search.trim().toLowerCase(), 200);

  if (!canManage) {
    return (
      <>
        <PageHeader title="Users" />
        <EmptyCard
          icon={<IconUsers />}
          title="Only owners and administrators manage users"
          description="Ask an owner or administrator of this account to invite someone or change a role."
        />
      </>
    );
  }
  const list = (members.data ?? []).filter((m) => !needle || `${m.first_name} ${m.last_name} ${m.email}`.toLowerCase().includes(needle));

  return (
    <>
      <PageHeader
        title="Users"
        description="Who can use this account, with which role. A person can belong to several accounts with a different role in each."
        actions={
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setInviting(true)}>
            Invite user
          </Button>
        }
      />
      <Stack gap="lg">
        <Card withBorder radius="md" p={0}>
          <Group p="sm">
            <TextInput
              aria-label="Search users"
              placeholder="Search by name or e-mail"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: '100%', sm: 320 }}
            />
          </Group>
          {members.isPending ? (
            <ListSkeleton />
          ) : members.isError ? (
            <LoadError what="users" onRetry={() => void members.refetch()} />
          ) : list.length === 0 ? (
            <Text p="md" c="dimmed">
              No user matches “{search}”.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" aria-label="Users">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Numbers</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th aria-label="Actions" />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((m) => (
                    <MemberRow key={m.id} member={m} self={m.id === session.user?.id} canOwn={canOwn} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
        <Invitations loading={invitations.isPending} error={invitations.isError} list={invitations.data ?? []} />
      </Stack>
      <InviteUserModal opened={inviting} onClose={() => setInviting(false)} canGiveOwner={canOwn} />
    </>
  );
}

/** One member; `canOwn`: the viewer's role may make or unmake owners (`ownership.manage`). */
function MemberRow({ member: m, self, canOwn }: { member: Member; self: boolean; canOwn: boolean }) {
  const roles = useRoles();
  const update = useUpdateMember();
  const setActive = useSetMemberActive();
  const remove = useRemoveMember();
  const [confirming, setConfirming] = useState(false);
  const [editingNumbers, setEditingNumbers] = useState(false);
  const [editingFields, setEditingFields] = useState(false);
  const numbers = useAssignableNumbers(editingNumbers);
  const attributes = useUserAttributes(editingFields);
  const name = `${m.first_name} ${m.last_name}`.trim() || m.email;
  const ownerLocked = (m.role === 'owner' && !canOwn) || self;
  const roleOptions = (roles.data ?? []).filter((r) => r.assignable && (r.value !== 'owner' || canOwn)).map((r) => ({ value: r.value, label: r.label }));
  if (m.role === 'owner' && !canOwn) roleOptions.unshift({ value: 'owner', label: 'Owner' });

  return (
    <Table.Tr data-testid={`user-row-${m.email}`}>
      <Table.Td>
        <Text fw={500}>{name}</Text>
        <Text size="xs" c="dimmed">
          {m.email}
          {self ? ' (you)' : ''}
        </Text>
      </Table.Td>
      <Table.Td>
        {m.active ? (
          <Select
            aria-label={`Role of ${name}`}
            data={roleOptions}
            value={m.role}
            disabled={ownerLocked || update.isPending}
            allowDeselect={false}
            w={160}
            comboboxProps={{ withinPortal: true }}
            onChange={(role) =>
              role && role !== m.role && update.mutate({ userId: m.id, role: role as AssignableRole }, { onSuccess: (r) => notify.success(r.message) })
            }
          />
        ) : (
          <Text size="sm">{ROLE_LABELS[m.role]}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {editingNumbers ? (
          <MultiSelect
            aria-label={`Numbers of ${name}`}
            data={(numbers.data ?? []).map((n) => ({ value: String(n.id), label: n.national_number }))}
            defaultValue={m.numbers.map(String)}
            searchable
            w={220}
            comboboxProps={{ withinPortal: true }}
            onDropdownClose={() => undefined}
            onChange={(v) => update.mutate({ userId: m.id, numbers: v.map(Number) }, { onSuccess: (r) => notify.success(r.message) })}
          />
        ) : (
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setEditingNumbers(true)}
            aria-label={`${m.numbers.length ? `${m.numbers.length} number${m.numbers.length === 1 ? '' : 's'}` : 'All numbers'} of ${name}`}
          >
            {m.numbers.length ? `${m.numbers.length} number${m.numbers.length === 1 ? '' : 's'}` : 'All numbers'}
          </Button>
        )}
      </Table.Td>
      <Table.Td>
        <Badge color={m.active ? 'teal' : 'gray'} variant="light">
          {m.active ? 'Active' : 'Deactivated'}
        </Badge>
      </Table.Td>
      <Table.Td>
        {ownerLocked ? null : (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`Actions for ${name}`}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setActive.mutate({ userId: m.id, active: !m.active }, { onSuccess: (r) => notify.success(r.message) })}>
                {m.active ? 'Deactivate' : 'Activate'}
              </Menu.Item>
              <Menu.Item onClick={() => setEditingFields(true)}>Custom fields</Menu.Item>
              <Menu.Item color="red" onClick={() => setConfirming(true)}>
                Remove from account
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
        <Modal opened={editingFields} onClose={() => setEditingFields(false)} title={`Custom fields of ${name}`}>
          {attributes.isPending ? (
            <Text size="sm">Loading…</Text>
          ) : (
            <CustomFieldValuesEditor
              attributes={attributes.data ?? []}
              values={m.eavAttributeValues}
              emptyText="This account has no custom fields for users yet (Custom fields page)."
              columns={1}
              onSave={(values) =>
                update.mutateAsync({ userId: m.id, eavAttributeValues: values }).then((r) => {
                  notify.success(r.message);
                  setEditingFields(false);
                })
              }
            />
          )}
        </Modal>
        <ConfirmModal
          opened={confirming}
          title={`Remove ${name}?`}
          confirmLabel="Remove"
          loading={remove.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(m.id, {
              onSuccess: (r) => {
                notify.success(r.message);
                setConfirming(false);
              },
            })
          }
        >
          {name} will no longer reach this account. Their other accounts are not affected.
        </ConfirmModal>
      </Table.Td>
    </Table.Tr>
  );
}

function Invitations({ loading, error, list }: { loading: boolean; error: boolean; list: Array<import('../api/users').Invitation> }) {
  const resend = useResendInvitation();
  const [resent, setResent] = useState<{ email: string; url: string } | null>(null);
  const cancel = useCancelInvitation();
  return (
    <Card withBorder radius="md">
      {resent ? <InvitationLinkDialog title="Invitation resent" email={resent.email} url={resent.url} onClose={() => setResent(null)} /> : null}
      <Title order={2} size="h4" mb="sm">
        Pending invitations
      </Title>
      {loading ? (
        <ListSkeleton rows={2} />
      ) : error ? (
        <LoadError what="invitations" />
      ) : list.length === 0 ? (
        <Text c="dimmed" size="sm">
          No invitation is waiting for an answer.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Pending invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((i) => (
                <Table.Tr key={i.id} data-testid={`invitation-row-${i.email}`}>
                  <Table.Td>
                    <Text size="sm">{i.email}</Text>
                    {i.invited_by ? (
                      <Text size="xs" c="dimmed">
                        Invited by {i.invited_by}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{ROLE_LABELS[i.role]}</Table.Td>
                  <Table.Td>
                    {i.expired ? (
                      <Badge color="orange" variant="light">
                        Expired
                      </Badge>
                    ) : (
                      <Text size="sm">{formatStamp(i.expires_at)}</Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconMailForward size={14} />}
                        loading={resend.isPending && resend.variables === i.id}
                        onClick={() =>
                          resend.mutate(i.id, {
                            onSuccess: (r) => {
                              notify.success(r.message);
                              // No mail server: the new link is handed to the inviter (the old one stopped working).
                              if (r.invitation_url) setResent({ email: i.email, url: r.invitation_url });
                            },
                          })
                        }
                        aria-label={`Resend the invitation to ${i.email}`}
                      >
                        Resend
                      </Button>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Cancel the invitation to ${i.email}`}
                        onClick={() => cancel.mutate(i.id, { onSuccess: (r) => notify.success(r.message) })}
                      >
                        <IconX size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
