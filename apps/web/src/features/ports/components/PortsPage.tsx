import { Badge, Button, Card, FileInput, Group, Modal, Progress, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { formatPhone, parsePhone } from '@switchboard/domain';
import { IconArrowsTransferDown, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatDateTime } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCreatePort, usePorts } from '../api/ports';
import { usePortUpdates } from '../realtime/use-port-updates';
import type { PortRequest, PortState } from '../types';
import { useCan } from '../../../lib/access';
import { RequireAbility } from '../../../components/RequireAbility';

const STATE_COLOR: Record<PortState, string> = { submitted: 'blue', in_progress: 'yellow', completed: 'teal', rejected: 'red' };
const STATE_PROGRESS: Record<PortState, number> = { submitted: 20, in_progress: 60, completed: 100, rejected: 100 };

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function PortForm({ onClose }: { onClose: () => void }) {
  const create = useCreatePort();
  const [numbersText, setNumbersText] = useState('');
  const [carrier, setCarrier] = useState('');
  const [account, setAccount] = useState('');
  const [pin, setPin] = useState('');
  const [authorized, setAuthorized] = useState('');
  const [address, setAddress] = useState('');
  const [bill, setBill] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const entries = numbersText
    .split(/[\n,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const invalid = entries.filter((e) => parsePhone(e) === null);
  const err = (k: string) => errors[k]?.[0];
  const numberErrors = Object.entries(errors)
    .filter(([k]) => k.startsWith('numbers.'))
    .map(([k, v]) => `${entries[Number(k.split('.')[1])] ?? k}: ${v[0]}`);

  const submit = async () => {
    const local: Record<string, string[]> = {};
    if (entries.length === 0) local.numbers = ['Enter at least one number.'];
    else if (invalid.length) local.numbers = [`Not a phone number: ${invalid.join(', ')}`];
    if (!carrier.trim()) local.carrier_name = ['Enter the current carrier.'];
    if (!account.trim()) local.account_number = ['Enter the account number.'];
    if (!pin.trim()) local.pin = ['Enter the account PIN.'];
    if (!authorized.trim()) local.authorized_name = ['Enter the account holder.'];
    if (!address.trim()) local.service_address = ['Enter the service address.'];
    setErrors(local);
    if (Object.keys(local).length) return;
    const bill_copy = bill ? await readDataUrl(bill) : null;
    create.mutate(
      {
        numbers: entries.map((e) => parsePhone(e) ?? e),
        carrier_name: carrier.trim(),
        account_number: account.trim(),
        pin: pin.trim(),
        authorized_name: authorized.trim(),
        service_address: address.trim(),
        bill_copy,
      },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          onClose();
        },
        onError: (e) => {
          if (e instanceof HttpError && e.status === 422) setErrors(e.fieldErrors);
        },
      },
    );
  };

  return (
    <Stack>
      <Textarea
        label="Numbers to move"
        description="One or several, one per line or separated by commas."
        placeholder={'(212) 555-0100\n(212) 555-0101'}
        autosize
        minRows={3}
        value={numbersText}
        onChange={(e) => setNumbersText(e.currentTarget.value)}
        error={err('numbers') ?? (numberErrors.length ? numberErrors.join('; ') : undefined)}
      />
      {entries.length > 0 && invalid.length === 0 ? (
        <Text size="xs" c="dimmed">
          {entries.length} {entries.length === 1 ? 'number' : 'numbers'}: {entries.map((e) => formatPhone(parsePhone(e) ?? e)).join(', ')}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Current carrier"
          placeholder="Verizon"
          value={carrier}
          onChange={(e) => setCarrier(e.currentTarget.value)}
          error={err('carrier_name')}
        />
        <TextInput label="Account number" value={account} onChange={(e) => setAccount(e.currentTarget.value)} error={err('account_number')} />
        <TextInput
          label="Account PIN"
          description="Never shown again after you submit."
          value={pin}
          onChange={(e) => setPin(e.currentTarget.value)}
          error={err('pin')}
        />
        <TextInput
          label="Authorized name"
          description="As on the carrier account."
          value={authorized}
          onChange={(e) => setAuthorized(e.currentTarget.value)}
          error={err('authorized_name')}
        />
      </SimpleGrid>
      <TextInput
        label="Service address"
        placeholder="1 Main St, Springfield, IL 62701"
        value={address}
        onChange={(e) => setAddress(e.currentTarget.value)}
        error={err('service_address')}
      />
      <FileInput
        label="Copy of a recent bill (optional)"
        placeholder="PDF or image"
        accept="application/pdf,image/*"
        value={bill}
        onChange={setBill}
        clearable
        error={err('bill_copy')}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={create.isPending}>
          Submit port request
        </Button>
      </Group>
    </Stack>
  );
}

function PortCard({ port }: { port: PortRequest }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid="port-row" data-state={port.state}>
      <Group justify="space-between" mb={4}>
        <Text fw={600}>{port.numbers.map((n) => formatPhone(n)).join(', ')}</Text>
        <Badge color={STATE_COLOR[port.state]} variant="light" data-testid="port-state">
          {port.state_label}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed">
        From {port.carrier_name} · {port.authorized_name} · submitted {formatDateTime(port.created_at)}
        {port.completed_at ? ` · finished ${formatDateTime(port.completed_at)}` : ''}
      </Text>
      {port.state === 'rejected' && port.reason ? (
        <Text size="sm" c="red" mt={4}>
          Rejected: {port.reason}
        </Text>
      ) : null}
      <Progress
        mt="sm"
        value={STATE_PROGRESS[port.state]}
        color={STATE_COLOR[port.state]}
        animated={port.state === 'submitted' || port.state === 'in_progress'}
        aria-label={`Port progress: ${port.state_label}`}
      />
    </Card>
  );
}

/** Port requests: move numbers from another carrier; states update live. Roles without `numbers.read` see "not available with your role" (components/RequireAbility). */
export function PortsPage() {
  return (
    <RequireAbility ability="numbers.read" title="Port requests">
      <PortsScreen />
    </RequireAbility>
  );
}

function PortsScreen() {
  // Porting a number in costs money: `numbers.purchase` (docs/permissions.md); other roles follow the requests.
  const canPort = useCan('numbers.purchase');
  usePortUpdates();
  const ports = usePorts();
  const [creating, setCreating] = useState(false);
  const list = ports.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Port requests"
        description="Bring numbers you already have from another carrier. They keep ringing there until the move completes."
        actions={
          canPort ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              New port request
            </Button>
          ) : undefined
        }
      />
      {ports.isPending ? (
        <ListSkeleton rows={3} height={90} />
      ) : list.length === 0 ? (
        <EmptyCard
          icon={<IconArrowsTransferDown />}
          title="No port requests"
          description="Have your current carrier account details ready: account number, PIN and the name on the account."
          action={canPort ? <Button onClick={() => setCreating(true)}>Start a port request</Button> : undefined}
        />
      ) : (
        <Stack gap="sm">
          {list.map((p) => (
            <PortCard key={p.id} port={p} />
          ))}
        </Stack>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="New port request" size="lg">
        {creating ? <PortForm onClose={() => setCreating(false)} /> : null}
      </Modal>
    </>
  );
}
