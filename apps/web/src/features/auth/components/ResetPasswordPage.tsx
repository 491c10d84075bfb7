import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { PasswordField } from '../../../components/PasswordField';
import { useForm } from '@mantine/form';
import { PASSWORD_CHANGED } from '@switchboard/domain';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useResetPassword } from '../api/reset-password';

/**
 * Reset password from the mailed link `/reset-password?token=..&email=..`. An expired link shows the
 * server's message ("Your reset link has expired. Please try to resend it again.") with a way back.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const token = params.get('token') ?? '';
  const form = useForm({
    initialValues: { email: params.get('email') ?? '', password: '', password_confirmation: '' },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address'),
      password: (v) => (v.length >= 8 ? null : 'Use at least 8 characters'),
      password_confirmation: (v, values) => (v === values.password ? null : 'The passwords do not match'),
    },
  });

  const submit = form.onSubmit((values) =>
    reset.mutate(
      { token, ...values, email: values.email.trim() },
      {
        onSuccess: (result) => {
          notify.success(result.message || PASSWORD_CHANGED);
          navigate('/login', { replace: true });
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) {
            form.setErrors(Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.join(' ')])));
          }
        },
      },
    ),
  );

  const expired = reset.error instanceof HttpError && reset.error.status === 422 ? reset.error.message : null;

  return (
    <CenteredCard
      title="Choose a new password"
      footer={
        <Anchor component={Link} to="/forgot-password" size="sm">
          Send a new reset link
        </Anchor>
      }
    >
      {!token ? <Alert color="red">This reset link is incomplete. Please request a new one.</Alert> : null}
      {expired ? (
        <Alert color="red" data-testid="reset-error">
          {expired}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordField label="New password" autoComplete="new-password" required {...form.getInputProps('password')} />
          <PasswordField label="Confirm password" autoComplete="new-password" required {...form.getInputProps('password_confirmation')} />
          <Button type="submit" loading={reset.isPending} disabled={!token} fullWidth>
            Reset password
          </Button>
        </Stack>
      </form>
    </CenteredCard>
  );
}
