/**
 * /organizations/:organizationId (docs/accounts.md "Organizations"): one organization's accounts
 * (search, status filter, pages of 100, the status call, bulk update of the chosen accounts, new
 * account with company_info and billing_info, delete), its users with their role in each account,
 * and its administrators (add by e-mail, remove: removal detaches them from the accounts).
 */
import { ActionIcon, Anchor, Badge, Button, Card, Checkbox, Group, Modal, Select, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { ACCOUNT_STATUS_LABELS, type AccountStatus } from '@switchboard/contracts';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { TimezoneSelect } from '../../../components/TimezoneSelect';
import { formatStamp } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { selectCompany, useSession } from '../../../lib/session';
import {
  useAddAdmin,
  useBulkUpdateAccounts,
  useCreateAccount,
  useDeleteAccount,
  useOrganization,
  useOrganizationAdmins,
  useOrganizationCompanies,
  useOrganizationUsers,
  useRemoveAdmin,
  useSetAccountStatus,
  type OrganizationCompany,
} from '../api/organizations';

const STATUS_OPTIONS = ([0, 1, 2] as AccountStatus[]).map((s) => ({ value: String(s), label: ACCOUNT_STATUS_LABELS[s] }));
const STATUS_COLORS: Record<AccountStatus, string> = { 0: 'teal', 1: 'yellow', 2: 'gray' };

export function OrganizationPage() {
  const id = Number(useParams().organizationId);
  const org = useOrganization(id);
  if (org.isPending) return <ListSkeleton />;
  if (org.isError) {
    const status = org.error instanceof HttpError ? org.error.status : 0;
    return (
      <EmptyCard
        title={status === 404 ? 'Organization not found' : status === 403 ? 'You do not administer this organization' : 'The organization could not be loaded'}
        action={
          <Anchor component={Link} to="/organizations">
            Back to organizations
          </Anchor>
        }
      />
    );
  }
  return (
    <>
      <PageHeader title={org.data.name} description="Accounts, users and administrators of this organization." />
      <Tabs defaultValue="accounts" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="accounts">Accounts ({org.data.companies_count})</Tabs.Tab>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="admins">Administrators ({org.data.admins_count})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="accounts">
          <Accounts organizationId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <Users organizationId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="admins">
          <Admins organizationId={id} ownerId={org.data.owner_id} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

function Accounts({ organizationId }: { organizationId: number }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<AccountStatus | null>(null);
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<number[]>([]);
  const [creating, setCreating] = useState(false);
  const [bulkStatus, setBulkStatus] = useState<string | null>(null);
  const companies = useOrganizationCompanies(organizationId, { page, search: debounced, status });
  const bulk = useBulkUpdateAccounts(organizationId);
  const list = companies.data?.data ?? [];
  const toggle = (cid: number, on: boolean) => setChosen((c) => (on ? [...c, cid] : c.filter((x) => x !== cid)));

  return (
    <Card withBorder radius="md" p={0}>
      <Group p="sm" justify="space-between" wrap="wrap">
        <Group wrap="wrap">
          <TextInput
            aria-label="Search accounts"
            placeholder="Search accounts"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
            w={{ base: '100%', sm: 260 }}
          />
          <Select
            aria-label="Status"
            placeholder="Any status"
            data={STATUS_OPTIONS}
            value={status === null ? null : String(status)}
            onChange={(v) => {
              setStatus(v === null ? null : (Number(v) as AccountStatus));
              setPage(1);
            }}
            clearable
            w={160}
          />
        </Group>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New account
        </Button>
      </Group>
      {chosen.length ? (
        <Group p="sm" bg="var(--mantine-color-blue-light)" data-testid="bulk-bar">
          <Text size="sm">{chosen.length} chosen</Text>
          <Select
            aria-label="New status of the chosen accounts"
            placeholder="Set status"
            data={STATUS_OPTIONS}
            value={bulkStatus}
            onChange={setBulkStatus}
            w={160}
          />
          <Button
            size="xs"
            disabled={bulkStatus === null}
            loading={bulk.isPending}
            onClick={() =>
              bulk.mutate(
                { company_ids: chosen, account_status: Number(bulkStatus) as AccountStatus },
                {
                  onSuccess: (r) => {
                    notify.success(r.message);
                    setChosen([]);
                    setBulkStatus(null);
                  },
                },
              )
            }
          >
            Apply
          </Button>
          <Button size="xs" variant="subtle" onClick={() => setChosen([])}>
            Clear
          </Button>
        </Group>
      ) : null}
      {companies.isPending ? (
        <ListSkeleton />
      ) : companies.isError ? (
        <LoadError what="accounts" onRetry={() => void companies.refetch()} />
      ) : list.length === 0 ? (
        <Text p="md" c="dimmed">
          {debounced || status !== null ? 'No account matches.' : 'No account yet: create the first one.'}
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={680}>
            <Table verticalSpacing="sm" aria-label="Accounts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Choose every account of this page"
                      checked={list.every((c) => chosen.includes(c.id))}
                      onChange={(e) => setChosen(e.currentTarget.checked ? list.map((c) => c.id) : [])}
                    />
                  </Table.Th>
                  <Table.Th>Account</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Users</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((c) => (
                  <AccountRow key={c.id} organizationId={organizationId} account={c} chosen={chosen.includes(c.id)} onChoose={(on) => toggle(c.id, on)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {companies.data && companies.data.meta.last_page > 1 ? (
            <TablePager page={page} totalPages={companies.data.meta.last_page} onChange={setPage} p="sm" />
          ) : null}
        </>
      )}
      <CreateAccountModal organizationId={organizationId} opened={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}

function AccountRow({
  organizationId,
  account: c,
  chosen,
  onChoose,
}: {
  organizationId: number;
  account: OrganizationCompany;
  chosen: boolean;
  onChoose: (on: boolean) => void;
}) {
  const setStatus = useSetAccountStatus(organizationId);
  const remove = useDeleteAccount(organizationId);
  const session = useSession();
  const [confirming, setConfirming] = useState(false);
  return (
    <Table.Tr data-testid={`account-row-${c.name}`}>
      <Table.Td>
        <Checkbox aria-label={`Choose ${c.name}`} checked={chosen} onChange={(e) => onChoose(e.currentTarget.checked)} />
      </Table.Td>
      <Table.Td>
        <Text fw={500}>{c.name}</Text>
        <Text size="xs" c="dimmed">
          {c.timezone}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Badge color={STATUS_COLORS[c.account_status]} variant="light">
            {ACCOUNT_STATUS_LABELS[c.account_status]}
          </Badge>
          <Select
            aria-label={`Status of ${c.name}`}
            data={STATUS_OPTIONS}
            value={String(c.account_status)}
            allowDeselect={false}
            w={140}
            size="xs"
            disabled={setStatus.isPending}
            comboboxProps={{ withinPortal: true }}
            onChange={(v) =>
              v !== null &&
              Number(v) !== c.account_status &&
              setStatus.mutate({ accountId: c.id, status: Number(v) as AccountStatus }, { onSuccess: (r) => notify.success(r.message) })
            }
          />
        </Group>
      </Table.Td>
      <Table.Td>{c.users_count}</Table.Td>
      <Table.Td>{formatStamp(c.created_at)}</Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          {c.account_status !== 2 ? (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => selectCompany(c.id)}
              disabled={session.companyId === c.id}
              aria-label={`Switch to ${c.name}`}
            >
              {session.companyId === c.id ? 'Current' : 'Switch to'}
            </Button>
          ) : null}
          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${c.name}`} onClick={() => setConfirming(true)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <ConfirmModal
          opened={confirming}
          title={`Delete ${c.name}?`}
          loading={remove.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(c.id, {
              onSuccess: (r) => {
                notify.success(r.message);
                setConfirming(false);
              },
            })
          }
        >
          The account and everything in it are deleted. An account that has numbers or any activity on them cannot be deleted: park or deactivate it instead.
        </ConfirmModal>
      </Table.Td>
    </Table.Tr>
  );
}

function CreateAccountModal({ organizationId, opened, onClose }: { organizationId: number; opened: boolean; onClose: () => void }) {
  const create = useCreateAccount(organizationId);
  const form = useForm({
    initialValues: { name: '', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', plan_id: '', billing_name: '', billing_email: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Enter a name'),
      billing_email: (v) => (!v.trim() || /^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address'),
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="New account">
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          create.mutate(
            {
              company_info: {
                name: v.name.trim(),
                timezone: v.timezone,
                business_unit_id: organizationId,
                plan_id: v.plan_id.trim() || null,
                skip_number: true,
              },
              billing_info: {
                ...(v.billing_name.trim() ? { name: v.billing_name.trim() } : {}),
                ...(v.billing_email.trim() ? { email: v.billing_email.trim() } : {}),
              },
            },
            {
              onSuccess: (r) => {
                notify.success(r.message);
                close();
              },
              onError: (e) => {
                if (e instanceof HttpError && e.status === 422) {
                  const f = e.fieldErrors;
                  form.setErrors({
                    name: f['company_info.name']?.join(' '),
                    timezone: f['company_info.timezone']?.join(' '),
                    billing_email: f['billing_info.email']?.join(' '),
                  });
                  if (!Object.keys(f).length) notify.danger(e.message, 10_000);
                } else notify.danger(e.message, 10_000);
              },
            },
          ),
        )}
      >
        <Stack>
          <TextInput label="Account name" required data-autofocus {...form.getInputProps('name')} />
          <TimezoneSelect label="Time zone" searchable comboboxProps={{ withinPortal: true }} {...form.getInputProps('timezone')} />
          <TextInput label="Plan" description="Optional: the plan this account is billed on." {...form.getInputProps('plan_id')} />
          <Title order={3} size="h6">
            Billing contact
          </Title>
          <Group grow>
            <TextInput label="Billing name" {...form.getInputProps('billing_name')} />
            <TextInput label="Billing e-mail" type="email" {...form.getInputProps('billing_email')} />
          </Group>
          <Text size="xs" c="dimmed">
            Numbers are bought from the account&apos;s Numbers page once it exists.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Users({ organizationId }: { organizationId: number }) {
  const users = useOrganizationUsers(organizationId);
  if (users.isPending) return <ListSkeleton />;
  if (users.isError) return <LoadError what="users" onRetry={() => void users.refetch()} />;
  return (
    <Card withBorder radius="md" p={0}>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm" aria-label="Users of the organization">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Accounts and roles</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.data.map((u) => (
              <Table.Tr key={u.id}>
                <Table.Td>
                  <Group gap="xs">
                    <Text fw={500}>{`${u.first_name} ${u.last_name}`.trim() || u.email}</Text>
                    {u.is_org_admin ? (
                      <Badge size="sm" color="grape" variant="light">
                        Org administrator
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {u.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {u.companies.map((c) => (
                      <Badge key={c.id} variant="outline" tt="none">
                        {c.name}: {c.role}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function Admins({ organizationId, ownerId }: { organizationId: number; ownerId: number | null }) {
  const admins = useOrganizationAdmins(organizationId);
  const add = useAddAdmin(organizationId);
  const remove = useRemoveAdmin(organizationId);
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  const form = useForm({ initialValues: { email: '' }, validate: { email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address') } });
  return (
    <Stack>
      <Card withBorder radius="md">
        <form
          noValidate
          onSubmit={form.onSubmit((v) =>
            add.mutate(v.email.trim(), {
              onSuccess: (r) => {
                notify.success(r.message);
                form.reset();
              },
              onError: (e) => e instanceof HttpError && form.setErrors({ email: e.fieldErrors.email?.join(' ') ?? e.message }),
            }),
          )}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Add an administrator"
              description="An existing user, by e-mail: they get the administrator role in every account."
              placeholder="name@example.com"
              w={{ base: '100%', sm: 360 }}
              {...form.getInputProps('email')}
            />
            <Button type="submit" loading={add.isPending}>
              Add
            </Button>
          </Group>
        </form>
      </Card>
      {admins.isPending ? (
        <ListSkeleton rows={2} />
      ) : admins.isError ? (
        <LoadError what="administrators" />
      ) : (
        <Card withBorder radius="md" p={0}>
          <Table verticalSpacing="sm" aria-label="Administrators">
            <Table.Tbody>
              {admins.data.map((a) => {
                const name = `${a.first_name} ${a.last_name}`.trim() || a.email;
                return (
                  <Table.Tr key={a.id} data-testid={`admin-row-${a.email}`}>
                    <Table.Td>
                      <Group gap="xs">
                        <Text fw={500}>{name}</Text>
                        {a.id === ownerId ? (
                          <Badge size="sm" variant="light">
                            Owner
                          </Badge>
                        ) : null}
                      </Group>
                      <Text size="xs" c="dimmed">
                        {a.email}
                      </Text>
                    </Table.Td>
                    <Table.Td align="right">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${name} as administrator`}
                        onClick={() => setRemoving({ id: a.id, name })}
                      >
                        Remove
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      <ConfirmModal
        opened={removing !== null}
        title={`Remove ${removing?.name ?? ''} as administrator?`}
        confirmLabel="Remove"
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: (r) => {
              notify.success(r.message);
              setRemoving(null);
            },
          })
        }
      >
        They are also removed from every account of this organization.
      </ConfirmModal>
    </Stack>
  );
}
