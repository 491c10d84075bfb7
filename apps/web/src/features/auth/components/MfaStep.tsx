import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { HttpError } from '../../../lib/http';
import type { SessionUser } from '../../../lib/session';
import { useVerifyMfaCode } from '../api/verify-mfa-code';
import { useSendMfaCode } from '../api/send-mfa-code';

interface MfaStepProps {
  onVerified: (user: SessionUser) => void;
  onBack: () => void;
}

/** Second sign-in step: the 6-digit code from the authenticator app, or one texted to the phone on file (docs/auth.md "MFA by SMS"). */
export function MfaStep({ onVerified, onBack }: MfaStepProps) {
  const verify = useVerifyMfaCode();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const sendCode = useSendMfaCode();
  const [texted, setTexted] = useState<string | null>(null);
  const textMe = () =>
    sendCode.mutate(undefined, {
      onSuccess: () => setTexted('We texted a 6-digit code to your phone. It expires in 10 minutes.'),
      onError: (e) => setTexted(e instanceof HttpError ? e.message : 'The code could not be sent. Please try again.'),
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError('Enter the 6-digit code');
      return;
    }
    setError(null);
    verify.mutate(code, {
      onSuccess: (result) => onVerified(result.user),
      onError: (e) => {
        if (e instanceof HttpError && e.status === 422) setError(Object.values(e.fieldErrors).flat()[0] ?? e.message);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">Open your authenticator app and enter the 6-digit code for Switchboard.</Text>
        <TextInput
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          value={code}
          error={error}
          onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
        />
        <Button type="submit" loading={verify.isPending} fullWidth>
          Verify
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={textMe} disabled={sendCode.isPending}>
          Text me a code instead
        </Anchor>
        {texted ? (
          <Text size="sm" role="status">
            {texted}
          </Text>
        ) : null}
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Use a different account
        </Anchor>
      </Stack>
    </form>
  );
}
