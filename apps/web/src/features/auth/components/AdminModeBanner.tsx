/**
 * Admin mode in the app shell (spec 000 §3 `isAdmin`, §4 "Admin login"; docs/auth.md "Admin mode").
 * - In an admin session: a banner naming the operator, the account and the time left, with "Leave admin mode"
 *   (back to the operator's own session). When the hour is over the person is sent to sign-in.
 * - For an operator outside admin mode: "Open an account" (by account id), which starts an admin session.
 * Everyone else sees nothing.
 */
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { CurrentUser } from '@switchboard/contracts';
import { connectRealtime, disconnectRealtime } from '../../../lib/realtime';
import { clearSession, selectCompany, signIn } from '../../../lib/session';
import { useAdminSession, useLeaveAdminMode, useRemoteLogin } from '../api/admin-session';

/** Whole minutes left until `iso` (UTC), at least 0. */
function minutesLeft(iso: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - now) / 60_000));
}

/** Switches the app to another session's person: fresh cache, live connection and company. */
function useSwitchSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (user: CurrentUser, companyId?: number) => {
    disconnectRealtime();
    // Every cached answer belonged to the other person: reset them all (active ones, the banner's included, refetch).
    void queryClient.resetQueries();
    signIn(user);
    if (companyId) selectCompany(companyId);
    connectRealtime();
    navigate('/inbox', { replace: true });
  };
}

export function AdminModeBanner() {
  const admin = useAdminSession();
  const leave = useLeaveAdminMode();
  const switchTo = useSwitchSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [now, setNow] = useState(() => Date.now());
  const data = admin.data;
  const expiresAt = data?.isAdmin ? data.expires_at : null;

  useEffect(() => {
    if (!expiresAt) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [expiresAt]);

  useEffect(() => {
    if (expiresAt && Date.parse(expiresAt) <= now) {
      // The server ended the session at this moment: sign-in, as after any expired session.
      disconnectRealtime();
      queryClient.clear();
      clearSession();
      navigate('/login', { replace: true });
    }
  }, [expiresAt, now, navigate, queryClient]);

  if (!data) return null;
  if (data.can_open_accounts) return <OpenAccount />;
  if (!data.isAdmin || !data.expires_at) return null;
  // `now` ticks every 15 s: read the clock again so a fresh 60-minute session never shows 61.
  const left = minutesLeft(data.expires_at, Date.now());
  return (
    <Alert
      role="region"
      aria-label="Admin mode"
      color="orange"
      variant="filled"
      icon={<IconShieldLock size={20} />}
      mb="md"
      title="Admin mode"
      data-testid="admin-banner"
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">
          {data.operator?.name ?? 'An operator'} is acting in {data.company?.name ?? 'this account'}. Every action is recorded under the operator's name. {left}{' '}
          {left === 1 ? 'minute' : 'minutes'} left.
        </Text>
        <Button
          size="xs"
          color="dark"
          variant="white"
          loading={leave.isPending}
          onClick={() => leave.mutate(undefined, { onSuccess: (r) => switchTo(r.user) })}
        >
          Leave admin mode
        </Button>
      </Group>
    </Alert>
  );
}

/** An operator's entry into admin mode: the id of the account to open. */
function OpenAccount() {
  const [opened, { open, close }] = useDisclosure(false);
  const [companyId, setCompanyId] = useState<number | ''>('');
  const remote = useRemoteLogin();
  const switchTo = useSwitchSession();
  return (
    <>
      <Group justify="flex-end" mb="xs">
        <Button size="xs" variant="light" color="orange" leftSection={<IconShieldLock size={16} />} onClick={open}>
          Open an account
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title="Open an account in admin mode">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (typeof companyId !== 'number') return;
            remote.mutate(companyId, {
              onSuccess: (r) => {
                close();
                switchTo(r.user, companyId);
              },
            });
          }}
        >
          <Stack>
            <Text size="sm">You act as the account's owner for one hour. Your own session ends; every action is recorded under your name.</Text>
            <NumberInput
              label="Account id"
              min={1}
              allowDecimal={false}
              value={companyId}
              onChange={(v) => setCompanyId(typeof v === 'number' ? v : '')}
              required
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="orange" loading={remote.isPending} disabled={typeof companyId !== 'number'}>
                Open in admin mode
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
