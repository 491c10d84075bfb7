/**
 * /accept-invitation?token=… (public; docs/accounts.md "Invitations"): the link itself shows the invitation (account,
 * role, who invited, the e-mail) without an account, and, while mail goes to the development outbox, the invitation
 * e-mail itself (the token-scoped view). The person sets their name and a password once; the accept answer signs them
 * in and they land in the account. A used, cancelled or expired link shows one message.
 */
import { Accordion, Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PasswordField } from '../../../components/PasswordField';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { connectRealtime } from '../../../lib/realtime';
import { selectCompany, signIn, useSession } from '../../../lib/session';
import { getSignedInUser, useAcceptInvitation, useInvitationMail, useInvitationPreview } from '../api/users';
import { ROLE_LABELS } from '../roles';

/** The invitation e-mail as the development outbox keeps it (only while no mail server is configured). */
function InvitationMail({ token }: { token: string }) {
  const mail = useInvitationMail(token, true);
  const first = mail.data?.[0];
  if (!first) return null;
  return (
    <Accordion variant="contained" data-testid="invitation-mail">
      <Accordion.Item value="mail">
        <Accordion.Control>The invitation e-mail (development outbox)</Accordion.Control>
        <Accordion.Panel>
          <Text size="sm" fw={600}>
            {first.subject}
          </Text>
          <Text size="xs" c="dimmed" mb="xs">
            To: {first.to}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {first.text}
          </Text>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const token = params.get('token') ?? '';
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation(token);
  const [landing, setLanding] = useState(false);
  const form = useForm({
    initialValues: { first_name: '', last_name: '', password: '' },
    validate: {
      first_name: (v) => (v.trim() ? null : 'Enter your first name'),
      last_name: (v) => (v.trim() ? null : 'Enter your last name'),
      password: (v) => (v.length >= 8 ? null : 'Use at least 8 characters'),
    },
  });
  const inv = preview.data;
  // Names given by the inviter are offered once the preview arrives.
  if (inv && !form.isTouched() && !form.values.first_name && !form.values.last_name && (inv.first_name || inv.last_name)) {
    form.setValues({ first_name: inv.first_name, last_name: inv.last_name });
  }
  const signedInAs = session.status === 'authenticated' ? session.user?.email : undefined;

  const submit = form.onSubmit((values) =>
    accept.mutate(
      { first_name: values.first_name.trim(), last_name: values.last_name.trim(), password: values.password },
      {
        onSuccess: async (r) => {
          // The answer signed the invitee in: read who that is, open the account they joined and go in.
          setLanding(true);
          try {
            signIn(await getSignedInUser());
            selectCompany(r.company_id);
            connectRealtime();
            notify.success(r.message);
            navigate('/', { replace: true });
          } catch (error) {
            if (!(error instanceof HttpError)) throw error;
            setLanding(false);
            navigate(`/login?email=${encodeURIComponent(r.email)}`, { replace: true });
          }
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) {
            form.setErrors(Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.join(' ')])));
          }
        },
      },
    ),
  );

  // One message for a link that cannot be used (unknown, used, cancelled, expired), whether found on opening or on joining.
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
        <Stack>
          <Text size="sm" data-testid="invitation-summary">
            {inv.invited_by ? `${inv.invited_by} invited you` : 'You are invited'} to <strong>{inv.company_name}</strong> as{' '}
            <strong>{ROLE_LABELS[inv.role]}</strong>.
          </Text>
          {inv.dev_outbox ? <InvitationMail token={token} /> : null}
          {signedInAs && signedInAs !== inv.email ? (
            <Alert color="yellow" variant="light">
              You are signed in as {signedInAs}. Joining signs you in as {inv.email} instead.
            </Alert>
          ) : null}
          <form onSubmit={submit} noValidate>
            <Stack>
              <TextInput label="E-mail" value={inv.email} readOnly />
              <Group grow>
                <TextInput label="First name" required autoComplete="given-name" {...form.getInputProps('first_name')} />
                <TextInput label="Last name" required autoComplete="family-name" {...form.getInputProps('last_name')} />
              </Group>
              <PasswordField
                label="Choose a password"
                required
                autoComplete="new-password"
                description="At least 8 characters. You sign in with it from now on."
                {...form.getInputProps('password')}
              />
              <Button type="submit" loading={accept.isPending || landing}>
                Join {inv.company_name}
              </Button>
            </Stack>
          </form>
        </Stack>
      ) : null}
    </CenteredCard>
  );
}
