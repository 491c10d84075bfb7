/**
 * Settings → Delete this account (docs/accounts.md "Deleting an account"): for the owner only (`account.delete`).
 * The confirmation asks for the account's name, typed exactly; the server checks it again and refuses an account
 * that has numbers or activity on them with the spec's message, shown in the dialog.
 */
import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCan } from '../../../lib/access';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId, useSession } from '../../../lib/session';
import { useDeleteAccount } from '../api/delete-account';

export function DeleteAccountCard() {
  const canDelete = useCan('account.delete');
  const companyId = useCompanyId();
  const { user } = useSession();
  const company = user?.companies.find((c) => c.id === companyId);
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteAccount(companyId);
  const navigate = useNavigate();
  if (!canDelete || !company) return null;
  const matches = typed.trim() === company.name.trim();

  const dismiss = () => {
    close();
    setTyped('');
    setError(null);
  };

  return (
    <Card withBorder radius="md" padding="lg" data-testid="delete-account">
      <Group gap="xs" mb="xs">
        <IconTrash size={20} />
        <Title order={4}>Delete this account</Title>
      </Group>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          Deletes {company.name} with its contacts, settings and users&apos; access. An account that has numbers or any activity on them cannot be deleted.
        </Text>
        <Button color="red" variant="light" onClick={open}>
          Delete account
        </Button>
      </Stack>
      <Modal opened={opened} onClose={dismiss} title="Delete this account">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!matches) return;
            setError(null);
            remove.mutate(
              { name: typed },
              {
                onSuccess: (r) => {
                  notify.success(r.message);
                  dismiss();
                  navigate('/', { replace: true });
                },
                onError: (err) => {
                  const fields = err instanceof HttpError ? err.fieldErrors : {};
                  setError(fields.account?.[0] ?? fields.name?.[0] ?? (err instanceof HttpError ? err.message : 'The account could not be deleted.'));
                },
              },
            );
          }}
        >
          <Stack>
            <Text size="sm">
              This cannot be undone. Type <b>{company.name}</b> to confirm.
            </Text>
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <TextInput label="Account name" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus required />
            <Group justify="flex-end">
              <Button variant="default" onClick={dismiss}>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={remove.isPending} disabled={!matches}>
                Delete this account
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
}
