import { Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { SETTINGS_UPDATED } from '@switchboard/domain';
import { IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import type { CustomFieldAttribute } from '../../../components/CustomFieldValuesEditor';
import { PageHeader } from '../../../components/PageHeader';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useDeleteMfa } from '../api/delete-mfa';
import { useMfaStatus } from '../api/get-mfa-status';
import { CustomFieldsSettingsCard } from './CustomFieldsSettingsCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { MfaCodeForm } from './MfaCodeForm';
import { MessagingSettingsCard } from './MessagingSettingsCard';
import { MfaEnrolment } from './MfaEnrolment';

/**
 * Settings: the signed-in profile, multi-factor sign-in enrolment, the company's messaging settings
 * and the custom-field values of the company and the user; for the owner, deleting the account (typed name to confirm). `companyAttributes` / `userAttributes`
 * (the company's Company and User custom fields) are handed in by the app.
 */
export function SettingsPage({
  companyAttributes = [],
  userAttributes = [],
}: {
  companyAttributes?: CustomFieldAttribute[];
  userAttributes?: CustomFieldAttribute[];
}) {
  const { user } = useSession();
  const status = useMfaStatus();
  const remove = useDeleteMfa();
  const [enrolling, setEnrolling] = useState(false);

  return (
    <>
      <PageHeader title="Settings" description="Your profile, sign-in security and the company's messaging." />
      <Stack gap="lg" maw={720}>
        <Card withBorder radius="md" padding="lg">
          <Title order={4} mb="xs">
            Profile
          </Title>
          <Text>{user?.name}</Text>
          <Text size="sm" c="dimmed">
            {user?.email} · {user?.timezone}
          </Text>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" mb="sm">
            <Group gap="xs">
              <IconShieldLock size={20} />
              <Title order={4}>Two-step verification</Title>
            </Group>
            {status.isPending ? (
              <Skeleton h={22} w={80} />
            ) : (
              <Badge color={status.data?.enabled ? 'teal' : 'gray'} data-testid="mfa-status">
                {status.data?.enabled ? 'On' : 'Off'}
              </Badge>
            )}
          </Group>
          {status.data?.enabled ? (
            <Stack gap="sm">
              <Text size="sm">Sign-in asks for a code from your authenticator app. To turn it off, enter a current code.</Text>
              <MfaCodeForm
                submitLabel="Turn off"
                color="red"
                loading={remove.isPending}
                onSubmit={(code) => remove.mutate(code, { onSuccess: () => notify.success(SETTINGS_UPDATED) })}
              />
            </Stack>
          ) : enrolling ? (
            <MfaEnrolment />
          ) : (
            <Stack gap="sm" align="flex-start">
              <Text size="sm">Protect your account with a code from an authenticator app at every sign-in.</Text>
              <Button onClick={() => setEnrolling(true)} disabled={status.isPending}>
                Set up two-step verification
              </Button>
            </Stack>
          )}
        </Card>
        <MessagingSettingsCard />
        <CustomFieldsSettingsCard companyAttributes={companyAttributes} userAttributes={userAttributes} />
        <DeleteAccountCard />
      </Stack>
    </>
  );
}
