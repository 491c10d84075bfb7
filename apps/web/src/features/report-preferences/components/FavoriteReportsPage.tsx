/**
 * /favorite-reports (spec 002 "Favorite reports"): the person's saved reports and dashboards in the selected company:
 * open (its screen with its saved state), rename, delete (confirmed). Phone widths: the table scrolls sideways.
 */
import { ActionIcon, Anchor, Badge, Button, Card, Group, Modal, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconExternalLink, IconPencil, IconStar, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatDateTime } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useDeleteFavoriteReport, useFavoriteReports, useSaveFavoriteReport, type ParsedFavorite } from '../api/favorite-reports';
import { favoriteHref, screenLabel } from '../favorites';

export function FavoriteReportsPage() {
  const favorites = useFavoriteReports();
  const save = useSaveFavoriteReport();
  const remove = useDeleteFavoriteReport();
  const [renaming, setRenaming] = useState<ParsedFavorite | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ParsedFavorite | null>(null);
  const list = favorites.data ?? [];

  const rename = (e: FormEvent) => {
    e.preventDefault();
    if (!renaming?.state) return;
    if (!name.trim()) return setError('Enter a name.');
    save.mutate(
      { id: renaming.id, state: { ...renaming.state, name: name.trim() } },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          setRenaming(null);
        },
        onError: (err) => {
          if (err instanceof HttpError && err.status === 422) setError(Object.values(err.fieldErrors).flat()[0] ?? err.message);
          else notify.danger(err.message, 10_000);
        },
      },
    );
  };

  return (
    <>
      <PageHeader title="Favorite reports" description="Reports and dashboards you saved with their filters, grouping and columns." />
      {favorites.isPending ? (
        <ListSkeleton rows={3} height={44} />
      ) : favorites.isError ? (
        <Card withBorder radius="md">
          <LoadError what="favorite reports" onRetry={() => void favorites.refetch()} />
        </Card>
      ) : list.length === 0 ? (
        <EmptyCard
          icon={<IconStar />}
          title="No favorite reports yet"
          description="Open a call report or the dashboard, set it up, then choose “Save as favorite”."
          action={
            <Button component={Link} to="/reports">
              Open call reports
            </Button>
          }
        />
      ) : (
        <Card withBorder radius="md" p={0}>
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm" data-testid="favorites-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Screen</Table.Th>
                  <Table.Th>Saved</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((f) => {
                  const label = f.state?.name ?? `Favorite #${f.id}`;
                  return (
                    <Table.Tr key={f.id} data-testid="favorite-row">
                      <Table.Td>
                        {f.state ? (
                          <Anchor component={Link} to={favoriteHref(f.state)} fw={500}>
                            {label}
                          </Anchor>
                        ) : (
                          <Text size="sm">{label}</Text>
                        )}
                      </Table.Td>
                      <Table.Td>{f.state ? <Badge variant="light">{screenLabel(f.state.path)}</Badge> : <Text c="dimmed">Unreadable</Text>}</Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {formatDateTime(f.updatedAt)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} justify="flex-end" wrap="nowrap">
                          {f.state ? (
                            <Tooltip label="Open">
                              <ActionIcon component={Link} to={favoriteHref(f.state)} variant="subtle" aria-label={`Open ${label}`}>
                                <IconExternalLink size={16} />
                              </ActionIcon>
                            </Tooltip>
                          ) : null}
                          {f.state ? (
                            <Tooltip label="Rename">
                              <ActionIcon
                                variant="subtle"
                                aria-label={`Rename ${label}`}
                                onClick={() => {
                                  setRenaming(f);
                                  setName(f.state!.name);
                                  setError(null);
                                }}
                              >
                                <IconPencil size={16} />
                              </ActionIcon>
                            </Tooltip>
                          ) : null}
                          <Tooltip label="Delete">
                            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${label}`} onClick={() => setDeleting(f)}>
                              <IconTrash size={16} />
                            </ActionIcon>
                          </Tooltip>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <Modal opened={renaming !== null} onClose={() => setRenaming(null)} title="Rename favorite">
        <form onSubmit={rename}>
          <Stack>
            <TextInput label="Name" data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} maxLength={100} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRenaming(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                Rename
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        title="Delete the favorite?"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          remove.mutate(deleting!.id, {
            onSuccess: (r) => {
              notify.success(r.message);
              setDeleting(null);
            },
          })
        }
      >
        “{deleting?.state?.name ?? `Favorite #${deleting?.id}`}” is removed from your favorites. The report itself is not affected.
      </ConfirmModal>
    </>
  );
}
