import { Alert, Anchor, Text } from '@mantine/core';
import { LINK_EXPIRED } from '@switchboard/domain';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { MfaStep } from './MfaStep';
import { SignInForm } from './SignInForm';

/**
 * Sign-in (foundation §2, §4): e-mail and password, then the MFA code step when the server asks for
 * it. `?expired=1` shows the session-expired notice "Link expired. Please log in.".
 */
export function SignInPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const [step, setStep] = useState<'credentials' | 'mfa'>('credentials');
  const complete = useCompleteSignIn();
  const from = (location.state as { from?: string } | null)?.from ?? '/inbox';

  return (
    <CenteredCard
      title={step === 'mfa' ? 'Two-step verification' : 'Sign in to Switchboard'}
      subtitle={step === 'mfa' ? undefined : 'Business numbers, call routing and a shared inbox.'}
      footer={
        <Text size="sm" c="dimmed">
          New here?{' '}
          <Anchor component={Link} to="/signup" size="sm">
            Create an account
          </Anchor>
        </Text>
      }
    >
      {params.get('expired') ? (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} data-testid="session-expired">
          {LINK_EXPIRED}
        </Alert>
      ) : null}
      {step === 'credentials' ? (
        <SignInForm onResult={(result) => ('mfa_required' in result ? setStep('mfa') : void complete(result.user, from))} />
      ) : (
        <MfaStep onVerified={(user) => void complete(user, from)} onBack={() => setStep('credentials')} />
      )}
    </CenteredCard>
  );
}
