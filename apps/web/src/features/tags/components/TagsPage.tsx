/**
 * The tags screen (docs/workspace.md "Tags"): the company's tags with their colour and where they are used (calls,
 * contacts, numbers); add one (name, colour); owners and administrators rename, recolour and delete (with a
 * confirmation: the tag leaves every call, contact and number).
 */
import { ActionIcon, Badge, Button, Card, ColorInput, ColorSwatch, Group, Modal, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTag, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import { useCreateTag, useDeleteTag, useTags, useUpdateTag, type Tag } from '../api/tags';
import { useCan } from '../../../lib/access';

const SWATCHES = ['#228be6', '#40c057', '#fab005', '#fd7e14', '#fa5252', '#be4bdb', '#15aabf', '#868e96'];

function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof HttpError ? error.fieldErrors[field]?.[0] : undefined;
}

function TagForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  initial?: Tag;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (v: { name: string; color: string }) => void;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [color, setColor] = useState(initial?.color ?? SWATCHES[0]!);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ name: name.trim(), color });
      }}
    >
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Tag name"
          required
          maxLength={50}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fieldError(error, 'name')}
          style={{ flex: '1 1 200px' }}
        />
        <ColorInput
          label="Colour"
          value={color}
          onChange={setColor}
          swatches={SWATCHES}
          format="hex"
          error={fieldError(error, 'color')}
          style={{ flex: '0 1 160px' }}
        />
        <Button type="submit" loading={pending} disabled={!name.trim()}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}

/** The /tags page. */
export function TagsPage() {
  // Anyone who works calls adds tags (`calls.work`); renaming and deleting a company's tag is `settings.manage`.
  const canEdit = useCan('settings.manage');
  const tags = useTags();
  const create = useCreateTag();
  const update = useUpdateTag();
  const remove = useDeleteTag();
  const [editing, setEditing] = useState<Tag | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const [formKey, setFormKey] = useState(0);

  return (
    <>
      <PageHeader title="Tags" description="Label calls, contacts and numbers to find and report on them." />
      <Card withBorder mb="lg">
        <TagForm
          key={formKey}
          submitLabel="Add tag"
          pending={create.isPending}
          error={create.error}
          onSubmit={(v) => create.mutate(v, { onSuccess: () => setFormKey((k) => k + 1) })}
        />
      </Card>
      {tags.isLoading ? (
        <ListSkeleton />
      ) : tags.isError ? (
        <EmptyBlock title="The tags could not be loaded" action={<Button onClick={() => void tags.refetch()}>Try again</Button>} />
      ) : !tags.data?.length ? (
        <EmptyBlock icon={<IconTag />} title="No tags yet" description="Add a tag above, or tag a call from its details." />
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table striped highlightOnHover aria-label="Tags">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Tag</Table.Th>
                <Table.Th ta="right">Calls</Table.Th>
                <Table.Th ta="right">Contacts</Table.Th>
                <Table.Th ta="right">Numbers</Table.Th>
                <Table.Th w={100}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tags.data.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <ColorSwatch color={t.color} size={14} aria-hidden />
                      <Badge variant="light" color={t.color} autoContrast>
                        {t.name}
                      </Badge>
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{t.usage.calls ?? '—'}</Table.Td>
                  <Table.Td ta="right">{t.usage.contacts}</Table.Td>
                  <Table.Td ta="right">{t.usage.numbers}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap" display={canEdit ? undefined : 'none'}>
                      <Tooltip label="Edit">
                        <ActionIcon variant="subtle" aria-label={`Edit tag ${t.name}`} onClick={() => setEditing(t)}>
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete tag ${t.name}`} onClick={() => setDeleting(t)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Edit tag">
        {editing ? (
          <Stack>
            <TagForm
              initial={editing}
              submitLabel="Save"
              pending={update.isPending}
              error={update.error}
              onSubmit={(v) => update.mutate({ id: editing.id, ...v }, { onSuccess: () => setEditing(null) })}
            />
            <Text size="xs" c="dimmed">
              Renaming changes the tag everywhere it is used.
            </Text>
          </Stack>
        ) : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete tag ${deleting?.name ?? ''}?`}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        The tag is removed from every call, contact and number that carries it.
      </ConfirmModal>
    </>
  );
}
