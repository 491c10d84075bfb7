/**
 * /organizations (docs/accounts.md "Organizations"): the organizations (business units) the person
 * administers, with their number of accounts and administrators; creating one.
 */
import { Badge, Button, Card, Group, Modal, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingCommunity, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCreateOrganization, useOrganizations } from '../api/organizations';

export function OrganizationsPage() {
  const orgs = useOrganizations();
  const [creating, setCreating] = useState(false);
  const list = orgs.data?.data ?? [];
  const createButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      New organization
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Organizations"
        description="Business units group accounts: their administrators reach every account of the organization."
        actions={list.length ? createButton : null}
      />
      {orgs.isPending ? (
        <ListSkeleton />
      ) : orgs.isError ? (
        <LoadError what="organizations" onRetry={() => void orgs.refetch()} />
      ) : list.length === 0 ? (
        <EmptyCard
          icon={<IconBuildingCommunity />}
          title="No organization yet"
          description="Create an organization to run several accounts (for example your clients') from one place."
          action={createButton}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {list.map((o) => (
            <UnstyledButton key={o.id} component={Link} to={`/organizations/${o.id}`}>
              <Card withBorder radius="md" h="100%">
                <Stack gap={6}>
                  <Text fw={600}>{o.name}</Text>
                  <Group gap="xs">
                    <Badge variant="light">
                      {o.companies_count} account{o.companies_count === 1 ? '' : 's'}
                    </Badge>
                    <Badge variant="light" color="grape">
                      {o.admins_count} administrator{o.admins_count === 1 ? '' : 's'}
                    </Badge>
                  </Group>
                </Stack>
              </Card>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
      <CreateOrganizationModal opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}

function CreateOrganizationModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateOrganization();
  const navigate = useNavigate();
  const form = useForm({ initialValues: { name: '' }, validate: { name: (v) => (v.trim() ? null : 'Enter a name') } });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="New organization">
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          create.mutate(v.name.trim(), {
            onSuccess: (r) => {
              notify.success(r.message);
              close();
              navigate(`/organizations/${r.data.id}`);
            },
            onError: (e) => e instanceof HttpError && form.setErrors({ name: e.fieldErrors.name?.join(' ') ?? e.message }),
          }),
        )}
      >
        <Stack>
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
