import { ActionIcon, Group } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

/** The edit and delete icon buttons of a table row; `editVerb` names the edit action for screen readers. */
export function EditDeleteActions({
  name,
  onEdit,
  onDelete,
  editVerb = 'Edit',
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  editVerb?: string;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="subtle" aria-label={`${editVerb} ${name}`} onClick={onEdit}>
        <IconPencil size={16} />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" aria-label={`Delete ${name}`} onClick={onDelete}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}
