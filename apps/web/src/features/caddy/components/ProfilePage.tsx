/**
 * `/caddy/profile`: name, the e-mail or phone signed up with, the password (set or change: the other sessions end),
 * sign-out, and deleting the account (confirmed by typing DELETE; the answer says the app-store subscription is not
 * cancelled; docs/consumer-area.md "Account deletion").
 */
import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { PasswordField } from '../../../components/PasswordField';
import { notify } from '../../../lib/notify';
import { useCaddyProfile, useDeleteAccount, useSaveProfile } from '../api/account';
import { changePassword, logoutOnServer } from '../api/auth';
import { CaddyError, clearCaddySession } from '../api/client';
import { CaddyPage, FormError, formatDay, LoadFailed, Loading } from './ui';

function NameForm({ initial }: { initial: string }) {
  const save = useSaveProfile();
  const [name, setName] = useState(initial);
  useEffect(() => setName(initial), [initial]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ name: name.trim() }, { onSuccess: (r) => notify.success(r.message) });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          autoComplete="name"
          maxLength={100}
          required
          error={save.error instanceof CaddyError ? save.error.field('name') : undefined}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!name.trim() || name.trim() === initial}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const qc = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => changePassword({ ...(hasPassword ? { currentPassword: current } : {}), password: next }),
    onSuccess: (r) => {
      setCurrent('');
      setNext('');
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: ['caddy'] });
    },
  });
  const err = (f: string) => (change.error instanceof CaddyError ? change.error.field(f) : undefined);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        change.mutate();
      }}
    >
      <Stack gap="sm">
        <Text fw={600} component="h2" size="md" m={0}>
          {hasPassword ? 'Change password' : 'Set a password'}
        </Text>
        {hasPassword ? (
          <PasswordField
            label="Current password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            autoComplete="current-password"
            error={err('currentPassword')}
          />
        ) : (
          <Text size="sm" c="dimmed">
            You sign in with a code texted to your phone. A password is optional.
          </Text>
        )}
        <PasswordField
          label="New password"
          description="At least 8 characters. You stay signed in here; your other devices are signed out."
          value={next}
          onChange={(e) => setNext(e.currentTarget.value)}
          autoComplete="new-password"
          maxLength={200}
          error={err('password')}
        />
        {change.error && !err('currentPassword') && !err('password') ? <FormError error={change.error} /> : null}
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending} disabled={next.length === 0 || (hasPassword && current.length === 0)}>
            {hasPassword ? 'Change password' : 'Set password'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DeleteAccount() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const remove = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: (r) => {
        clearCaddySession();
        qc.removeQueries({ queryKey: ['caddy'] });
        notify.show({ type: 'success', message: r.message, autoClose: 15_000 });
        void navigate('/caddy/signup', { replace: true });
      },
    });
  return (
    <>
      <Stack gap="xs">
        <Text fw={600} component="h2" size="md" m={0} c="red.8">
          Delete account
        </Text>
        <Text size="sm">
          Your numbers are released and your texts, calls and recordings deleted. This cannot be undone. Your App Store or Google Play subscription is not
          cancelled by this: cancel it there.
        </Text>
        <Group justify="flex-end">
          <Button color="red" variant="light" onClick={() => setOpen(true)}>
            Delete account
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={open}
        onClose={() => {
          setOpen(false);
          setTyped('');
        }}
        title="Delete your account?"
      >
        <Stack gap="sm">
          <Alert color="red">
            All your numbers are released now and your data deleted. Your app-store subscription keeps running until you cancel it there.
          </Alert>
          <TextInput label="Type DELETE to confirm" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" />
          <FormError error={remove.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={confirm} loading={remove.isPending} disabled={typed.trim() !== 'DELETE'}>
              Delete account
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** The profile page. */
export function ProfilePage() {
  const profile = useCaddyProfile();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const signOut = () => {
    void logoutOnServer();
    clearCaddySession();
    qc.removeQueries({ queryKey: ['caddy'] });
    notify.success('You are signed out.');
    void navigate('/caddy/signin', { replace: true });
  };
  return (
    <CaddyPage title="Profile">
      {profile.isPending ? (
        <Loading rows={2} height={120} label="Loading your profile" />
      ) : profile.isError ? (
        <LoadFailed what="your profile" error={profile.error} onRetry={() => void profile.refetch()} />
      ) : (
        <>
          <Card withBorder radius="md">
            <Stack gap="sm">
              <Stack gap={2}>
                <Text size="sm" c="dimmed">
                  {profile.data.email ? 'E-mail' : 'Phone number'}
                </Text>
                <Text fw={600} data-testid="caddy-profile-login">
                  {profile.data.email ?? profile.data.phoneNumber}
                </Text>
                <Text size="xs" c="dimmed">
                  Member since {formatDay(profile.data.createdAt)}
                </Text>
              </Stack>
              <NameForm initial={profile.data.name} />
            </Stack>
          </Card>
          <Card withBorder radius="md">
            <PasswordForm hasPassword={profile.data.hasPassword} />
          </Card>
          <Card withBorder radius="md">
            <Group justify="space-between">
              <Text size="sm">Sign out of Caddy on this device.</Text>
              <Button variant="default" onClick={signOut}>
                Sign out
              </Button>
            </Group>
          </Card>
          <Card withBorder radius="md">
            <DeleteAccount />
          </Card>
        </>
      )}
    </CaddyPage>
  );
}
