import { Alert, Code, Group, Image, Skeleton, Stack, Text } from '@mantine/core';
import { SETTINGS_UPDATED } from '@switchboard/domain';
import { notify } from '../../../lib/notify';
import { useMfaQr } from '../api/get-mfa-qr';
import { useVerifyMfa } from '../api/verify-mfa';
import { MfaCodeForm } from './MfaCodeForm';

/** Enrolment: scan the QR code (or type the secret), then confirm with a code. */
export function MfaEnrolment() {
  const qr = useMfaQr(true);
  const verify = useVerifyMfa();
  return (
    <Stack gap="md">
      <Text size="sm">Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy), then enter the 6-digit code it shows.</Text>
      <Group align="flex-start" gap="lg">
        {qr.data ? <Image src={qr.data.qr} alt="MFA QR code" w={180} h={180} data-testid="mfa-qr" /> : <Skeleton w={180} h={180} />}
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            Can't scan? Enter this key:
          </Text>
          {qr.data ? <Code data-testid="mfa-secret">{qr.data.secret}</Code> : <Skeleton h={20} w={220} />}
        </Stack>
      </Group>
      {verify.isError ? <Alert color="red">That code did not match. Try the newest code from your app.</Alert> : null}
      <MfaCodeForm
        submitLabel="Verify and turn on"
        loading={verify.isPending}
        onSubmit={(code) => verify.mutate(code, { onSuccess: () => notify.success(SETTINGS_UPDATED) })}
      />
    </Stack>
  );
}
