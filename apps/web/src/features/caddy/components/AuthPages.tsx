/**
 * Consumer sign-up, sign-in and password reset (docs/consumer-area.md "Accounts and sessions"). Each is two steps: the
 * details (e-mail and password, or a phone number) send a 6-digit code by e-mail or text; the code returns the
 * session, kept by api/client.ts. 409 on sign-up means the account exists (a link to sign in); 401 on sign-in means no
 * account or a wrong password; 429 says how long to wait.
 */
import { Alert, Anchor, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PasswordField } from '../../../components/PasswordField';
import { notify } from '../../../lib/notify';
import { authStep, resetPassword, sendResetCode, type AuthInput, type AuthStep } from '../api/auth';
import { CaddyError, setCaddySession } from '../api/client';
import { AuthCard, FormError } from './ui';

type Channel = 'email' | 'phone';

/** The fields of the details step, by channel. */
interface Details {
  name: string;
  email: string;
  phoneNumber: string;
  password: string;
}

/** The field error of `field` in a CaddyError (422), else undefined. */
function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof CaddyError ? error.field(field) : undefined;
}

/** The code step: the 6-digit code, a new code, or back to the details. */
function CodeStep({
  sentTo,
  message,
  submitLabel,
  pending,
  error,
  onSubmit,
  onResend,
  resending,
  onBack,
}: {
  sentTo: string;
  message: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (code: string) => void;
  onResend: () => void;
  resending: boolean;
  onBack: () => void;
}) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(code.trim());
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Alert color="teal" icon={<IconInfoCircle size={18} />} data-testid="caddy-code-sent">
          {message}{' '}
          <Text span fw={600}>
            {sentTo}
          </Text>
        </Alert>
        <TextInput
          label="Code"
          description="6 digits, valid for 10 minutes"
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          autoFocus
          error={fieldError(error, 'code')}
        />
        {error && !fieldError(error, 'code') ? <FormError error={error} /> : null}
        <Button type="submit" loading={pending} disabled={code.length !== 6}>
          {submitLabel}
        </Button>
        <Group justify="space-between" gap="xs">
          <Button variant="subtle" size="compact-sm" onClick={onBack}>
            Change details
          </Button>
          <Button variant="subtle" size="compact-sm" onClick={onResend} loading={resending}>
            Send a new code
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The details step's fields for sign-up (`withName`) or sign-in. */
function DetailsFields({
  channel,
  setChannel,
  details,
  setDetails,
  withName,
  error,
}: {
  channel: Channel;
  setChannel: (c: Channel) => void;
  details: Details;
  setDetails: (d: Details) => void;
  withName: boolean;
  error: unknown;
}) {
  const set = (key: keyof Details) => (e: { currentTarget: { value: string } }) => setDetails({ ...details, [key]: e.currentTarget.value });
  return (
    <>
      <SegmentedControl
        fullWidth
        value={channel}
        onChange={(v) => setChannel(v as Channel)}
        data={[
          { value: 'email', label: 'E-mail' },
          { value: 'phone', label: 'Phone number' },
        ]}
        aria-label="Use your e-mail or your phone number"
      />
      {withName ? (
        <TextInput label="Your name" value={details.name} onChange={set('name')} autoComplete="name" maxLength={100} error={fieldError(error, 'name')} />
      ) : null}
      {channel === 'email' ? (
        <>
          <TextInput
            label="E-mail"
            type="email"
            value={details.email}
            onChange={set('email')}
            autoComplete="email"
            required
            maxLength={254}
            error={fieldError(error, 'email')}
          />
          <PasswordField
            label="Password"
            description={withName ? 'At least 8 characters' : undefined}
            value={details.password}
            onChange={set('password')}
            autoComplete={withName ? 'new-password' : 'current-password'}
            required
            maxLength={200}
            error={fieldError(error, 'password')}
          />
        </>
      ) : (
        <TextInput
          label="Phone number"
          description="We text you a code to confirm it"
          type="tel"
          value={details.phoneNumber}
          onChange={set('phoneNumber')}
          autoComplete="tel"
          required
          maxLength={32}
          error={fieldError(error, 'phoneNumber')}
        />
      )}
    </>
  );
}

/** The shared two-step flow of sign-up and sign-in. */
function useTwoStep(which: 'register' | 'login', onSession: () => void) {
  const [channel, setChannel] = useState<Channel>('email');
  const [details, setDetails] = useState<Details>({ name: '', email: '', phoneNumber: '', password: '' });
  const [sent, setSent] = useState<{ message: string; to: string } | null>(null);
  const input = (code?: string): AuthInput => ({
    provider: channel,
    ...(channel === 'email' ? { email: details.email.trim(), password: details.password } : { phoneNumber: details.phoneNumber.trim() }),
    ...(which === 'register' && details.name.trim() ? { name: details.name.trim() } : {}),
    ...(code ? { code } : {}),
  });
  const handle = (step: AuthStep) => {
    if (step.kind === 'code') {
      setSent({ message: step.sent.message, to: channel === 'email' ? details.email.trim() : details.phoneNumber.trim() });
      return;
    }
    setCaddySession(step.session);
    onSession();
  };
  const first = useMutation({ mutationFn: () => authStep(which, input()), onSuccess: handle });
  const second = useMutation({ mutationFn: (code: string) => authStep(which, input(code)), onSuccess: handle });
  const resend = useMutation({
    mutationFn: () => authStep(which, input()),
    onSuccess: (step) => {
      second.reset();
      handle(step);
      notify.success('We sent you a new code.');
    },
  });
  return { channel, setChannel, details, setDetails, sent, setSent, first, second, resend };
}

/** `/caddy/signup`: create an account with an e-mail (and password) or a phone number, then the code. */
export function SignUpPage() {
  const navigate = useNavigate();
  const flow = useTwoStep('register', () => void navigate('/caddy/catalog', { replace: true, state: { welcome: true } }));
  const exists = flow.first.error instanceof CaddyError && flow.first.error.status === 409;
  return (
    <AuthCard
      title={flow.sent ? 'Enter your code' : 'Get your second number'}
      lead={flow.sent ? undefined : 'A private number for calls and texts, on the phone you already have.'}
      footer={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to="/caddy/signin" size="sm">
            Sign in
          </Anchor>
        </>
      }
    >
      {flow.sent ? (
        <CodeStep
          sentTo={flow.sent.to}
          message={flow.sent.message}
          submitLabel="Create account"
          pending={flow.second.isPending}
          error={flow.second.error}
          onSubmit={(code) => flow.second.mutate(code)}
          onResend={() => flow.resend.mutate()}
          resending={flow.resend.isPending}
          onBack={() => {
            flow.second.reset();
            flow.setSent(null);
          }}
        />
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            flow.first.mutate();
          }}
        >
          <Stack gap="md">
            <DetailsFields
              channel={flow.channel}
              setChannel={flow.setChannel}
              details={flow.details}
              setDetails={flow.setDetails}
              withName
              error={flow.first.error}
            />
            {exists ? (
              <Alert color="yellow" role="alert" data-testid="caddy-account-exists">
                {flow.first.error!.message}{' '}
                <Anchor component={Link} to="/caddy/signin" size="sm">
                  Sign in
                </Anchor>
              </Alert>
            ) : flow.first.error && !Object.keys((flow.first.error as CaddyError).fieldErrors ?? {}).length ? (
              <FormError error={flow.first.error} />
            ) : null}
            <Button type="submit" loading={flow.first.isPending}>
              Send me a code
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

/** `/caddy/signin`: e-mail and password, or a phone number, then the code. */
export function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const target = from && from.startsWith('/caddy/') && !/^\/caddy\/(signin|signup)/.test(from) ? from : '/caddy/numbers';
  const flow = useTwoStep('login', () => void navigate(target, { replace: true }));
  return (
    <AuthCard
      title={flow.sent ? 'Enter your code' : `Sign in`}
      lead={flow.sent ? undefined : 'Your second number, wherever you are.'}
      footer={
        <>
          New here?{' '}
          <Anchor component={Link} to="/caddy/signup" size="sm">
            Get a number
          </Anchor>
        </>
      }
    >
      {flow.sent ? (
        <CodeStep
          sentTo={flow.sent.to}
          message={flow.sent.message}
          submitLabel="Sign in"
          pending={flow.second.isPending}
          error={flow.second.error}
          onSubmit={(code) => flow.second.mutate(code)}
          onResend={() => flow.resend.mutate()}
          resending={flow.resend.isPending}
          onBack={() => {
            flow.second.reset();
            flow.setSent(null);
          }}
        />
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            flow.first.mutate();
          }}
        >
          <Stack gap="md">
            <DetailsFields
              channel={flow.channel}
              setChannel={flow.setChannel}
              details={flow.details}
              setDetails={flow.setDetails}
              withName={false}
              error={flow.first.error}
            />
            {flow.first.error && !Object.keys((flow.first.error as CaddyError).fieldErrors ?? {}).length ? <FormError error={flow.first.error} /> : null}
            <Button type="submit" loading={flow.first.isPending}>
              Continue
            </Button>
            {flow.channel === 'email' ? (
              <Anchor component={Link} to="/caddy/reset-password" size="sm" ta="center">
                Forgot your password?
              </Anchor>
            ) : null}
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

/** `/caddy/reset-password`: the e-mail gets a code; the code and a new password reset it (every session ends). */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const ask = useMutation({ mutationFn: () => sendResetCode(email.trim()), onSuccess: (r) => setSentMessage(r.message) });
  const reset = useMutation({
    mutationFn: () => resetPassword({ email: email.trim(), code: code.trim(), password }),
    onSuccess: (r) => {
      notify.success(r.message);
      void navigate('/caddy/signin', { replace: true });
    },
  });
  return (
    <AuthCard
      title="Reset your password"
      lead={sentMessage ? undefined : 'We e-mail you a code to set a new password.'}
      footer={
        <Anchor component={Link} to="/caddy/signin" size="sm">
          Back to sign in
        </Anchor>
      }
    >
      {sentMessage ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            reset.mutate();
          }}
        >
          <Stack gap="md">
            <Alert color="teal" icon={<IconInfoCircle size={18} />}>
              {sentMessage}
            </Alert>
            <TextInput
              label="Code"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              error={fieldError(reset.error, 'code')}
            />
            <PasswordField
              label="New password"
              description="At least 8 characters"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              autoComplete="new-password"
              required
              maxLength={200}
              error={fieldError(reset.error, 'password')}
            />
            {reset.error && !fieldError(reset.error, 'code') && !fieldError(reset.error, 'password') ? <FormError error={reset.error} /> : null}
            <Button type="submit" loading={reset.isPending} disabled={code.length !== 6 || password.length === 0}>
              Set new password
            </Button>
            <Button variant="subtle" size="compact-sm" onClick={() => ask.mutate()} loading={ask.isPending}>
              Send a new code
            </Button>
          </Stack>
        </form>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            ask.mutate();
          }}
        >
          <Stack gap="md">
            <TextInput
              label="E-mail"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoComplete="email"
              required
              error={fieldError(ask.error, 'email')}
            />
            {ask.error && !fieldError(ask.error, 'email') ? <FormError error={ask.error} /> : null}
            <Button type="submit" loading={ask.isPending}>
              Send code
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
