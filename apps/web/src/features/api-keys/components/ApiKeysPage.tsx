/**
 * /api-keys (spec 001 "API keys"; docs/api-and-webhooks.md): the person's API keys with their scopes, business unit
 * and last use; "Create API key" asks a name, scopes (read and write per area), an optional business unit and an
 * expiry, then shows the key ONCE with a copy button; deleting asks for confirmation.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { API_KEY_AREA_LABELS, API_KEY_AREAS, type ApiKey, type ApiKeyCreated, type ApiKeyScope } from '@switchboard/contracts';
import { IconCheck, IconCopy, IconKey, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatStamp } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { useApiKeys, useBusinessUnitIds, useCreateApiKey, useDeleteApiKey } from '../api/api-keys';

const EXPIRY = [
  { value: '', label: 'Never' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
];

export function ApiKeysPage() {
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const remove = useDeleteApiKey();
  const list = keys.data ?? [];

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let other systems use the Switchboard API as you, limited to the scopes you choose. Send one as Authorization: Bearer <key>."
        actions={
          <Button leftSection={<IconKey size={16} />} onClick={() => setCreating(true)}>
            Create API key
          </Button>
        }
      />
      {keys.isPending ? (
        <ListSkeleton rows={3} height={48} />
      ) : keys.isError ? (
        <Card withBorder radius="md">
          <LoadError what="API keys" onRetry={() => void keys.refetch()} />
        </Card>
      ) : list.length === 0 ? (
        <EmptyCard icon={<IconKey />} title="No API keys yet" description="Create a key to connect a CRM, a script or another system." />
      ) : (
        <Card withBorder radius="md" p={0}>
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" data-testid="api-keys-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Scopes</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((k) => (
                  <Table.Tr key={k.id} data-testid="api-key-row">
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {k.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        Created {formatStamp(k.created_at)}
                        {k.business_unit_id !== null ? ` · Business unit #${k.business_unit_id}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Code>{k.prefix ? `${k.prefix}…` : '—'}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {k.scopes.map((s) => (
                          <Badge key={s} size="sm" variant="light" color={s.endsWith(':write') ? 'orange' : 'blue'}>
                            {s}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{k.last_used_at ? formatStamp(k.last_used_at) : 'Never'}</Text>
                      {k.last_used_ip ? (
                        <Text size="xs" c="dimmed">
                          from {k.last_used_ip}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{k.expires_at ? formatStamp(k.expires_at) : 'Never'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Tooltip label="Delete">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete API key ${k.name}`} onClick={() => setDeleting(k)}>
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
      <CreateApiKeyModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(k) => {
          setCreating(false);
          setCreated(k);
        }}
      />
      <Modal opened={created !== null} onClose={() => setCreated(null)} title="Your new API key" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {created ? (
          <Stack>
            <Alert color="orange" title="Copy it now">
              This is the only time the key is shown. Store it somewhere safe; if you lose it, delete it and create another.
            </Alert>
            <Group wrap="nowrap" gap="xs">
              <Code block style={{ flex: 1, wordBreak: 'break-all' }} data-testid="new-api-key">
                {created.token}
              </Code>
              <CopyButton value={created.token}>
                {({ copied, copy }) => (
                  <Button variant="light" onClick={copy} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Group justify="flex-end">
              <Button onClick={() => setCreated(null)}>Done</Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        title="Delete API key"
        confirmLabel="Delete key"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        Delete “{deleting?.name}”? Systems using it stop working at once.
      </ConfirmModal>
    </>
  );
}

function CreateApiKeyModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (k: ApiKeyCreated) => void }) {
  const unitIds = useBusinessUnitIds();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Set<ApiKeyScope>>(new Set());
  const [unit, setUnit] = useState<string | null>(null);
  const [expiry, setExpiry] = useState<string>('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const units = useMemo(() => (unitIds.data ?? []).map((id) => ({ value: String(id), label: `Business unit #${id}` })), [unitIds.data]);
  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((s) => {
      const next = new Set(s);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  const reset = () => {
    setName('');
    setScopes(new Set());
    setUnit(null);
    setExpiry('');
    setErrors({});
  };
  const submit = () => {
    setErrors({});
    create.mutate(
      { name, scopes: [...scopes], business_unit_id: unit ? Number(unit) : null, expires_in_days: expiry ? Number(expiry) : null },
      {
        onSuccess: (r) => {
          reset();
          onCreated(r.data);
        },
        onError: (e) => {
          if (e instanceof HttpError) setErrors(Object.keys(e.fieldErrors).length ? e.fieldErrors : { name: [e.message] });
        },
      },
    );
  };
  return (
    <Modal
      opened={opened}
      onClose={() => {
        reset();
        onClose();
      }}
      title="Create API key"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <TextInput
          label="Name"
          description="What uses this key, e.g. “CRM sync”."
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name?.[0]}
          data-autofocus
        />
        <div>
          <Text size="sm" fw={500}>
            Scopes
          </Text>
          <Text size="xs" c="dimmed" mb="xs">
            A key never does more than your role allows in a company.
          </Text>
          <Table withRowBorders={false} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Area</Table.Th>
                <Table.Th>Read</Table.Th>
                <Table.Th>Write</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {API_KEY_AREAS.map((area) => (
                <Table.Tr key={area}>
                  <Table.Td>
                    <Text size="sm" tt="capitalize">
                      {area}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {API_KEY_AREA_LABELS[area]}
                    </Text>
                  </Table.Td>
                  {(['read', 'write'] as const).map((level) => {
                    const scope = `${area}:${level}` as ApiKeyScope;
                    return (
                      <Table.Td key={level}>
                        <Checkbox aria-label={`${area} ${level}`} checked={scopes.has(scope)} onChange={(e) => toggle(scope, e.currentTarget.checked)} />
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {errors.scopes ? (
            <Text size="xs" c="red" role="alert">
              {errors.scopes[0]}
            </Text>
          ) : null}
        </div>
        <Group grow align="flex-start">
          <Select
            label="Business unit"
            placeholder="Every company you belong to"
            clearable
            data={units}
            value={unit}
            onChange={setUnit}
            disabled={units.length === 0}
            error={errors.business_unit_id?.[0]}
          />
          <Select label="Expires" data={EXPIRY} value={expiry} onChange={(v) => setExpiry(v ?? '')} allowDeselect={false} />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
