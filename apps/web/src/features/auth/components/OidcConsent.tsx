import { Alert, Anchor, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import type { UserEnvelope } from '@switchboard/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { HttpError } from '../../../lib/http';
import { useDecideOidcConsent, useOidcConsentContext } from '../api/oidc';

interface OidcConsentProps {
  nonce: string;
  onSignedIn: (user: UserEnvelope['user']) => void;
  onMfa: () => void;
  /** Back to the password form (after a refusal, or when the request expired). */
  onDone: () => void;
}

/**
 * The consent screen (spec 000 §7 `GET /oauth/consent/context`; docs/auth.md "OIDC sign-in"): before a Google or
 * Microsoft account is linked to the Switchboard account with the same verified e-mail, the person sees which app
 * asks, the provider account, the Switchboard account and what each scope gives, then links or cancels.
 */
export function OidcConsent({ nonce, onSignedIn, onMfa, onDone }: OidcConsentProps) {
  const context = useOidcConsentContext(nonce);
  const decide = useDecideOidcConsent();

  if (context.isPending) return <Loader aria-label="Loading" mx="auto" />;
  if (context.isError) {
    return (
      <Stack gap="sm">
        <Alert color="yellow" icon={<IconAlertCircle size={18} />} role="alert">
          {context.error instanceof HttpError && context.error.status === 404
            ? 'This sign-in request has expired. Please sign in again.'
            : 'The sign-in request could not be loaded. Please try again.'}
        </Alert>
        <Anchor component="button" type="button" size="sm" onClick={onDone}>
          Back to sign in
        </Anchor>
      </Stack>
    );
  }

  const c = context.data;
  const answer = (approve: boolean) =>
    decide.mutate(
      { nonce, approve },
      {
        onSuccess: (r) => {
          if ('user' in r) onSignedIn(r.user);
          else if ('mfa_required' in r) onMfa();
          else onDone();
        },
      },
    );

  return (
    <Stack gap="md" data-testid="oidc-consent">
      <Text size="sm">
        {c.client_name} wants to link the {c.provider.name} account <b>{c.identity.email}</b>
        {c.identity.name ? ` (${c.identity.name})` : ''} to your {c.client_name} account <b>{c.user.email}</b> ({c.user.name}). You can then sign in with{' '}
        {c.provider.name}; your password keeps working.
      </Text>
      <div>
        <Text size="sm" fw={600} mb={4}>
          {c.client_name} receives from {c.provider.name}:
        </Text>
        <List size="sm" fz="sm" spacing={2}>
          {c.scopes.map((s) => (
            <List.Item key={s.scope}>{s.description}</List.Item>
          ))}
        </List>
      </div>
      {decide.isError ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
          {decide.error instanceof HttpError ? decide.error.message : 'Something went wrong. Please try again.'}
        </Alert>
      ) : null}
      <Group grow>
        <Button variant="default" onClick={() => answer(false)} disabled={decide.isPending}>
          Cancel
        </Button>
        <Button onClick={() => answer(true)} loading={decide.isPending && decide.variables?.approve === true}>
          Link and sign in
        </Button>
      </Group>
    </Stack>
  );
}
