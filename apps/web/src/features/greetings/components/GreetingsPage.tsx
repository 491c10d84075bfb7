import { ActionIcon, Badge, Button, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconMicrophone, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useDeleteGreeting } from '../api/delete-greeting';
import { useGreetings } from '../api/get-greetings';
import type { Greeting } from '../types';
import { GreetingFormModal } from './GreetingFormModal';
import { fileSrc } from '../../../lib/files';
import { useCan } from '../../../lib/access';
import { RequireAbility } from '../../../components/RequireAbility';

/** Greetings: the company's recorded and spoken messages for menus, voicemail and whispers. Roles without `numbers.read` see "not available with your role" (components/RequireAbility). */
export function GreetingsPage() {
  return (
    <RequireAbility ability="numbers.read" title="Greetings">
      <GreetingsScreen />
    </RequireAbility>
  );
}

function GreetingsScreen() {
  // Greetings are created, changed and deleted with `numbers.manage`; other roles listen to them.
  const canManage = useCan('numbers.manage');
  const greetings = useGreetings();
  const remove = useDeleteGreeting();
  const [editing, setEditing] = useState<Greeting | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<Greeting | null>(null);
  const open = (g: Greeting | null) => {
    setEditing(g);
    setFormOpen(true);
  };
  const list = greetings.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Greetings"
        description="Messages callers hear: menu prompts, voicemail greetings, whispers and hold music. Assign them in a number's routing."
        actions={
          canManage ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
              New greeting
            </Button>
          ) : undefined
        }
      />
      {greetings.isPending ? (
        <ListSkeleton rows={3} height={72} />
      ) : list.length === 0 ? (
        <EmptyCard
          icon={<IconMicrophone />}
          title="No greetings yet"
          description="Type what callers should hear and pick a voice, or upload a recording."
          action={canManage ? <Button onClick={() => open(null)}>Create a greeting</Button> : undefined}
        />
      ) : (
        <Stack gap="sm">
          {list.map((g) => (
            <Card key={g.id} withBorder radius="md" padding="md" data-testid="greeting-row">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                  <Group gap="xs">
                    <Text fw={600}>{g.name}</Text>
                    <Badge size="sm" variant="light" color={g.source === 'tts' ? 'blue' : 'grape'}>
                      {g.source === 'tts' ? 'Text to speech' : 'Uploaded'}
                    </Badge>
                  </Group>
                  {g.content ? (
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {g.content}
                    </Text>
                  ) : null}
                  <Text size="xs" c="dimmed">
                    Updated {formatDateTime(g.updated_at)}
                  </Text>
                </Stack>
                <audio controls preload="none" src={fileSrc(g.url)} style={{ height: 36, maxWidth: 280 }} aria-label={`Play ${g.name}`} />
                <Group gap={4} wrap="nowrap" display={canManage ? undefined : 'none'}>
                  <Tooltip label="Edit">
                    <ActionIcon variant="subtle" aria-label={`Edit ${g.name}`} onClick={() => open(g)}>
                      <IconEdit size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete">
                    <ActionIcon variant="subtle" color="red" aria-label={`Delete ${g.name}`} onClick={() => setDeleting(g)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <GreetingFormModal opened={formOpen} greeting={editing} onClose={() => setFormOpen(false)} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.name ?? 'greeting'}?`}
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: (r) => {
              notify.success(r.message);
              setDeleting(null);
            },
          })
        }
      >
        Numbers using this greeting fall back to the spoken default.
      </ConfirmModal>
    </>
  );
}
