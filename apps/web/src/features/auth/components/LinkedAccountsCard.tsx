import { Alert, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { OidcIdentity } from '@switchboard/contracts';
import { IconBrandGoogle, IconBrandWindows, IconLink } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { notify } from '../../../lib/notify';
import { useOidcIdentities, useUnlinkOidcIdentity } from '../api/oidc';
import { formatDate } from '../../../lib/dates';

const ICONS: Record<string, typeof IconBrandGoogle> = { google: IconBrandGoogle, microsoft: IconBrandWindows };

/**
 * "Linked accounts" for the profile (docs/auth.md "OIDC sign-in"): the Google and Microsoft accounts that sign this
 * person in, with when each was linked and last used, and Unlink (confirmed; the password keeps working). Accounts are
 * linked from the sign-in page ("Continue with Google"), not here.
 */
export function LinkedAccountsCard() {
  const identities = useOidcIdentities();
  const unlink = useUnlinkOidcIdentity();
  const [target, setTarget] = useState<OidcIdentity | null>(null);
  const rows = identities.data?.data ?? [];

  return (
    <Card withBorder radius="md" padding="lg" data-testid="linked-accounts">
      <Group gap="xs" mb="sm">
        <IconLink size={20} aria-hidden />
        <Title order={4}>Linked accounts</Title>
      </Group>
      {identities.isPending ? (
        <Skeleton h={40} />
      ) : identities.isError ? (
        <Alert color="red">The linked accounts could not be loaded.</Alert>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No Google or Microsoft account is linked. To link one, choose “Continue with Google” or “Continue with Microsoft” on the sign-in page with an account
          that has the same e-mail address as this one.
        </Text>
      ) : (
        <Stack gap="sm">
          {rows.map((r) => {
            const Icon = ICONS[r.provider];
            return (
              <Group key={r.id} justify="space-between" wrap="nowrap">
                <Group gap="sm" wrap="nowrap">
                  {Icon ? <Icon size={20} aria-hidden /> : null}
                  <div>
                    <Text size="sm" fw={500}>
                      {r.provider_name}
                      {r.email ? ` · ${r.email}` : ''}
                    </Text>
                    <Text size="xs" c="dimmed">
                      Linked {formatDate(r.created_at)}
                      {r.last_used_at ? ` · last used ${formatDate(r.last_used_at)}` : ''}
                    </Text>
                  </div>
                </Group>
                <Button size="xs" variant="default" onClick={() => setTarget(r)} aria-label={`Unlink ${r.provider_name} account ${r.email ?? ''}`.trim()}>
                  Unlink
                </Button>
              </Group>
            );
          })}
        </Stack>
      )}
      <ConfirmModal
        opened={target !== null}
        title={`Unlink ${target?.provider_name ?? ''} account?`}
        confirmLabel="Unlink"
        loading={unlink.isPending}
        onClose={() => setTarget(null)}
        onConfirm={() =>
          target &&
          unlink.mutate(target.id, {
            onSuccess: () => {
              setTarget(null);
              notify.success(`${target.provider_name} account unlinked`);
            },
          })
        }
      >
        You will no longer be able to sign in with {target?.provider_name} {target?.email ? `(${target.email})` : ''}. Your password keeps working.
      </ConfirmModal>
    </Card>
  );
}
