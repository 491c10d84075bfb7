import { ActionIcon, Badge, Button, Card, Group, SegmentedControl, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconBan, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatDateTime } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { useCreateBlock } from '../api/create-block';
import { useDeleteBlock } from '../api/delete-block';
import { useBlocks } from '../api/get-blocks';
import type { NumberChoice } from '../types';
import { useCan } from '../../../lib/access';

const ACTIONS = [{ value: 'reject', label: 'Reject the call' }];

/** Blocked callers: add a caller (on every number or one), see the list, unblock. `numbers` come from the app. */
export function BlocksPage({ numbers = [] }: { numbers?: NumberChoice[] }) {
  // Blocking and unblocking callers is `calls.work` (docs/permissions.md); reporting reads the list.
  const canBlock = useCan('calls.work');
  const companyId = useCompanyId();
  const blocks = useBlocks();
  const create = useCreateBlock();
  const remove = useDeleteBlock();
  const [target, setTarget] = useState('');
  const [scope, setScope] = useState<'global' | 'number'>('global');
  const [numberId, setNumberId] = useState<string | null>(null);
  const [action, setAction] = useState('reject');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const list = blocks.data ?? [];
  const numberLabel = (id: number | null) => numbers.find((n) => n.value === String(id))?.label ?? `Number #${id}`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (companyId === null) return;
    const local: Record<string, string[]> = {};
    if (!target.trim()) local.target = ['Enter the caller’s number.'];
    if (scope === 'number' && !numberId) local.number_id = ['Choose a number.'];
    setErrors(local);
    if (Object.keys(local).length) return;
    create.mutate(
      { company_id: companyId, target: target.trim(), global: scope === 'global', number_id: scope === 'number' ? Number(numberId) : null, action },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          setTarget('');
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) setErrors(error.fieldErrors);
        },
      },
    );
  };

  return (
    <>
      <PageHeader title="Blocked callers" description="Calls from blocked numbers are rejected and recorded in Activity as Blocked." />
      <Card withBorder radius="md" padding="md" mb="md" display={canBlock ? undefined : 'none'}>
        <form onSubmit={submit}>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label="Caller number"
              placeholder="(202) 555-0123"
              value={target}
              onChange={(e) => setTarget(e.currentTarget.value)}
              error={errors.target?.[0]}
              inputMode="tel"
              w={200}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Block on
              </Text>
              <SegmentedControl
                aria-label="Block on"
                value={scope}
                onChange={(v) => setScope(v as 'global' | 'number')}
                data={[
                  { value: 'global', label: 'All numbers' },
                  { value: 'number', label: 'One number' },
                ]}
              />
            </Stack>
            {scope === 'number' ? (
              <Select
                label="Number"
                placeholder={numbers.length ? 'Choose a number' : 'No numbers yet'}
                data={numbers}
                value={numberId}
                onChange={setNumberId}
                error={errors.number_id?.[0]}
                searchable
                w={240}
              />
            ) : null}
            <Select label="Action" data={ACTIONS} value={action} onChange={(v) => v && setAction(v)} allowDeselect={false} w={170} />
            <Button type="submit" mt={25} leftSection={<IconBan size={16} />} loading={create.isPending}>
              Block
            </Button>
          </Group>
        </form>
      </Card>
      {blocks.isPending ? (
        <ListSkeleton rows={3} height={44} />
      ) : list.length === 0 ? (
        <EmptyCard icon={<IconBan />} title="Nobody is blocked" description="Enter a caller's number above to stop their calls." />
      ) : (
        <Card withBorder radius="md" p={0}>
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm" data-testid="blocks-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Caller</Table.Th>
                  <Table.Th>Blocked on</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Since</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((b) => (
                  <Table.Tr key={b.id} data-testid="block-row">
                    <Table.Td ff="monospace">{formatPhone(b.target)}</Table.Td>
                    <Table.Td>{b.global ? <Badge variant="light">All numbers</Badge> : <Text size="sm">{numberLabel(b.number_id)}</Text>}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{ACTIONS.find((a) => a.value === b.action)?.label ?? b.action}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {formatDateTime(b.created_at)}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right" display={canBlock ? undefined : 'none'}>
                      <Tooltip label="Unblock">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Unblock ${formatPhone(b.target)}`}
                          loading={remove.isPending && remove.variables === b.id}
                          onClick={() => remove.mutate(b.id, { onSuccess: (r) => notify.success(r.message) })}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </>
  );
}
