/**
 * /accept-invitation?token=… (public; docs/accounts.md "Invitations"): shows which account the
 * link invites to and with which role, then takes the person's name and password; once accepted it
 * sends to sign-in with the e-mail filled in. A used, cancelled or expired link says so.
 */
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PasswordField } from '../../../components/PasswordField';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useAcceptInvitation, useInvitationPreview } from '../api/users';
import { ROLE_LABELS } from '../roles';

export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation(token);
  const form = useForm({
    initialValues: { first_name: '', last_name: '', password: '', password_confirmation: '' },
    validate: {
      first_name: (v) => (v.trim() ? null : 'Enter your first name'),
      last_name: (v) => (v.trim() ? null : 'Enter your last name'),
      password: (v) => (v.length >= 8 ? null : 'Use at least 8 characters'),
      password_confirmation: (v, values) => (v === values.password ? null : 'The passwords do not match'),
    },
  });
  const inv = preview.data;
  // Names given by the inviter are offered once the preview arrives.
  if (inv && !form.isTouched() && !form.values.first_name && !form.values.last_name && (inv.first_name || inv.last_name)) {
    form.setValues({ first_name: inv.first_name, last_name: inv.last_name });
  }

  const submit = form.onSubmit((values) =>
    accept.mutate(
      {
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        password: values.password,
        password_confirmation: values.password_confirmation,
      },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          navigate(`/login?email=${encodeURIComponent(r.email)}`, { replace: true });
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) {
            form.setErrors(Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.join(' ')])));
          }
        },
      },
    ),
  );

  const failed =
    preview.error instanceof HttpError ? preview.error.message : accept.error instanceof HttpError && accept.error.status !== 422 ? accept.error.message : null;

  return (
    <CenteredCard
      title="Join your team"
      footer={
        <Anchor component={Link} to="/login" size="sm">
          Already have an account? Sign in
        </Anchor>
      }
    >
      {!token ? (
        <Alert color="red">This invitation link is incomplete. Open the link from the e-mail again.</Alert>
      ) : preview.isPending ? (
        <ListSkeleton rows={3} />
      ) : failed ? (
        <Alert color="red" data-testid="invitation-error" title="This invitation cannot be used">
          {failed}
        </Alert>
      ) : inv ? (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" data-testid="invitation-summary">
              {inv.invited_by ? `${inv.invited_by} invited you` : 'You are invited'} to <strong>{inv.company_name}</strong> as{' '}
              <strong>{ROLE_LABELS[inv.role]}</strong>.
            </Text>
            <TextInput label="E-mail" value={inv.email} readOnly />
            <Group grow>
              <TextInput label="First name" required autoComplete="given-name" {...form.getInputProps('first_name')} />
              <TextInput label="Last name" required autoComplete="family-name" {...form.getInputProps('last_name')} />
            </Group>
            <PasswordField label="Password" required autoComplete="new-password" description="At least 8 characters." {...form.getInputProps('password')} />
            <PasswordField label="Confirm password" required autoComplete="new-password" {...form.getInputProps('password_confirmation')} />
            <Button type="submit" loading={accept.isPending}>
              Join {inv.company_name}
            </Button>
          </Stack>
        </form>
      ) : null}
    </CenteredCard>
  );
}
