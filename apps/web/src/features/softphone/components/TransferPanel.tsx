/**
 * The dialer's blind transfer (docs/calling.md "Transfer"): during a connected call, choose a user
 * of the call's company who takes in-app calls right now, or type a number, confirm, and the other
 * side is moved there while this browser leaves the call. Refusals are shown in the panel with the
 * server's reason: 422 (the user is away or not such a member, the number is invalid), 409 (the
 * call is no longer in progress), 502 (the carrier's own reason).
 */
import { Alert, Button, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconArrowForwardUp } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as inApp from '../api/in-app-calling';
import * as api from '../api/outbound-calls';

type Target = { kind: 'user'; userId: number; label: string } | { kind: 'number'; number: string; label: string };

/**
 * The transfer picker of call `callId` of company `companyId`. `meId`: the signed-in user (not
 * offered). `onTransferred(label)`: the transfer was accepted. `errorText`: the server's reason of a refusal.
 */
export function TransferPanel({
  companyId,
  callId,
  meId,
  onTransferred,
  onClose,
  errorText,
}: {
  companyId: number;
  callId: number;
  meId: number;
  onTransferred: (label: string) => void;
  onClose: () => void;
  errorText: (e: unknown, fallback: string) => string;
}) {
  const [kind, setKind] = useState<'user' | 'number'>('user');
  const [userId, setUserId] = useState<string | null>(null);
  const [number, setNumber] = useState('');
  const [confirming, setConfirming] = useState<Target | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const users = useQuery({ queryKey: ['in-app-users', companyId], queryFn: () => inApp.listUsers(companyId), staleTime: 5_000 });
  const available = (users.data?.data ?? []).filter((u) => u.id !== meId && u.can_take_calls);
  const nameOf = (u: { first_name: string; last_name: string; email: string }) => `${u.first_name} ${u.last_name}`.trim() || u.email;

  const target = (): Target | null => {
    if (kind === 'user') {
      const u = available.find((x) => String(x.id) === userId);
      return u ? { kind: 'user', userId: u.id, label: nameOf(u) } : null;
    }
    const n = number.trim();
    return n.length >= 3 ? { kind: 'number', number: n, label: /[a-z]/i.test(n) ? n : formatPhone(n) } : null;
  };

  const transfer = async (t: Target) => {
    setBusy(true);
    setError(null);
    try {
      await api.control.transfer(companyId, callId, t.kind === 'user' ? { user_id: t.userId } : { number: t.number });
      onTransferred(t.label);
    } catch (e) {
      setConfirming(null);
      setError(errorText(e, 'The call could not be transferred.'));
    } finally {
      setBusy(false);
    }
  };

  const edit = () => {
    setError(null);
    setConfirming(null);
  };

  return (
    <Stack gap="xs" data-testid="dialer-transfer">
      <SegmentedControl
        aria-label="Transfer to"
        size="xs"
        value={kind}
        onChange={(v) => {
          setKind(v as 'user' | 'number');
          edit();
        }}
        data={[
          { value: 'user', label: 'A user' },
          { value: 'number', label: 'A number' },
        ]}
      />
      {kind === 'user' ? (
        <Select
          label="User to transfer to"
          placeholder={users.isLoading ? 'Loading…' : available.length ? 'Choose a user' : 'No one else is taking in-app calls'}
          data={available.map((u) => ({ value: String(u.id), label: nameOf(u) }))}
          value={userId}
          onChange={(v) => {
            setUserId(v);
            edit();
          }}
          disabled={available.length === 0}
          comboboxProps={{ withinPortal: false }}
        />
      ) : (
        <TextInput
          label="Number to transfer to"
          value={number}
          inputMode="tel"
          placeholder="(312) 555-0100"
          onChange={(e) => {
            setNumber(e.currentTarget.value);
            edit();
          }}
        />
      )}
      {error && (
        <Alert color="red" variant="light" p="xs" role="alert" data-testid="dialer-transfer-error">
          {error}
        </Alert>
      )}
      {confirming ? (
        <Stack gap={4}>
          <Text size="sm">Transfer this call to {confirming.label}? You will leave the call.</Text>
          <Group grow preventGrowOverflow={false}>
            <Button color="grape" onClick={() => void transfer(confirming)} loading={busy}>
              Confirm transfer
            </Button>
            <Button variant="default" onClick={() => setConfirming(null)} disabled={busy}>
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group grow>
          <Button color="grape" variant="light" leftSection={<IconArrowForwardUp size={16} />} disabled={!target()} onClick={() => setConfirming(target())}>
            Transfer…
          </Button>
          <Button variant="default" onClick={onClose}>
            Back
          </Button>
        </Group>
      )}
    </Stack>
  );
}
