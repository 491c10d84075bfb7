import { Alert, Anchor, Loader, Text } from '@mantine/core';
import { LINK_EXPIRED } from '@switchboard/domain';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { oidcErrorMessage } from '../oidc-messages';
import { OidcButtons } from './OidcButtons';
import { SignInForm } from './SignInForm';

// The code step and the OIDC consent screen are their own chunks: most visitors only see the password form, which
// keeps the first page small (apps/web/README.md "First page").
const MfaStep = lazy(() => import('./MfaStep').then((m) => ({ default: m.MfaStep })));
const OidcConsent = lazy(() => import('./OidcConsent').then((m) => ({ default: m.OidcConsent })));

/** Provider names for the refusal messages (the server sends the id). */
const PROVIDER_NAMES: Record<string, string> = { google: 'Google', microsoft: 'Microsoft' };

/** A path of this app (not `//host`), else undefined. */
function appPath(value: string | null | undefined): string | undefined {
  return value && /^\/(?![/\\])[^\s\\\u0000-\u001f\u007f]*$/.test(value) ? value : undefined;
}

/**
 * Sign-in (foundation §2, §4): e-mail and password, then the MFA code step when the server asks for
 * it. `?expired=1` shows the session-expired notice "Link expired. Please log in.".
 * OIDC (docs/auth.md "OIDC sign-in"): "Continue with Google/Microsoft" for the configured providers; the provider's
 * callback comes back here with `?oauth_error=<code>&provider=<id>` (the refusal shown above the form),
 * `?oauth_consent=<nonce>` (the consent screen before an account is linked) or `?oauth=mfa&from=<path>` (the code step).
 */
export function SignInPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const consentNonce = params.get('oauth_consent');
  const [step, setStep] = useState<'credentials' | 'mfa' | 'consent'>(params.get('oauth') === 'mfa' ? 'mfa' : consentNonce ? 'consent' : 'credentials');
  const [remember, setRemember] = useState(false);
  const complete = useCompleteSignIn();
  const from = appPath((location.state as { from?: string } | null)?.from) ?? appPath(params.get('from')) ?? '/inbox';
  const oauthError = params.get('oauth_error');
  const providerName = PROVIDER_NAMES[params.get('provider') ?? ''] ?? 'the provider';
  const backToCredentials = () => {
    setParams({}, { replace: true });
    setStep('credentials');
  };

  const title = step === 'mfa' ? 'Two-step verification' : step === 'consent' ? 'Link your account' : 'Sign in to Switchboard';
  return (
    <CenteredCard
      title={title}
      subtitle={step === 'credentials' ? 'Business numbers, call routing and a shared inbox.' : undefined}
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
      {oauthError && step === 'credentials' ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="oidc-error">
          {oidcErrorMessage(oauthError, providerName)}
        </Alert>
      ) : null}
      {step === 'credentials' ? (
        <>
          <SignInForm onResult={(result) => ('mfa_required' in result ? setStep('mfa') : void complete(result.user, from))} onRememberChange={setRemember} />
          <OidcButtons remember={remember} returnTo={appPath((location.state as { from?: string } | null)?.from)} />
        </>
      ) : (
        <Suspense fallback={<Loader aria-label="Loading" mx="auto" />}>
          {step === 'consent' && consentNonce ? (
            <OidcConsent nonce={consentNonce} onSignedIn={(user) => void complete(user, from)} onMfa={() => setStep('mfa')} onDone={backToCredentials} />
          ) : (
            <MfaStep onVerified={(user) => void complete(user, from)} onBack={backToCredentials} />
          )}
        </Suspense>
      )}
    </CenteredCard>
  );
}
