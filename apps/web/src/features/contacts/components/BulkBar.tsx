import { Button, Group, Menu, Paper, Text } from '@mantine/core';
import { IconDownload, IconTag, IconTagOff, IconTrash, IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { useCan } from '../../../lib/access';
import { notify } from '../../../lib/notify';
import { useAddToGroup } from '../api/add-to-group';
import { useBulkDestroy } from '../api/bulk-destroy';
import { useBulkExport } from '../api/bulk-export';
import { useChangeLabel } from '../api/change-label';
import { useLabels } from '../api/get-labels';
import type { BulkSelection, Ref } from '../types';

interface BulkBarProps {
  selection: BulkSelection;
  /** How many contacts the selection covers. */
  count: number;
  groups: Ref[];
  onDone: () => void;
}

/**
 * Actions on the chosen contacts (or every contact matching the filters): group and labels (`contacts.write`), export
 * and delete (`contacts.bulk`: owners and administrators; docs/permissions.md).
 */
export function BulkBar({ selection, count, groups, onDone }: BulkBarProps) {
  const canWrite = useCan('contacts.write');
  const canBulk = useCan('contacts.bulk');
  const labels = useLabels().data?.data ?? [];
  const addToGroup = useAddToGroup();
  const changeLabel = useChangeLabel();
  const exportCsv = useBulkExport();
  const destroy = useBulkDestroy();
  const [confirm, setConfirm] = useState(false);

  const done = (message: string) => {
    notify.success(message);
    onDone();
  };

  return (
    <Paper withBorder p="xs" radius="md" mb="sm" bg="var(--mantine-color-blue-light)" data-testid="bulk-bar">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={500}>
          {count} {count === 1 ? 'contact' : 'contacts'} selected
        </Text>
        <Group gap="xs">
          {canWrite ? (
            <Menu withinPortal>
              <Menu.Target>
                <Button size="xs" variant="default" leftSection={<IconUsersPlus size={14} />} loading={addToGroup.isPending}>
                  Add to group
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {groups.length === 0 ? <Menu.Label>No groups yet</Menu.Label> : null}
                {groups.map((g) => (
                  <Menu.Item key={g.id} onClick={async () => done((await addToGroup.mutateAsync({ groupId: g.id, selection })).message)}>
                    {g.name}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          ) : null}
          {canWrite ? (
            <Menu withinPortal>
              <Menu.Target>
                <Button size="xs" variant="default" leftSection={<IconTag size={14} />} loading={changeLabel.isPending}>
                  Labels
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {labels.length === 0 ? <Menu.Label>No labels yet (create them on the Groups page)</Menu.Label> : <Menu.Label>Add label</Menu.Label>}
                {labels.map((l) => (
                  <Menu.Item
                    key={`a${l.id}`}
                    leftSection={<IconTag size={14} />}
                    onClick={async () => done((await changeLabel.mutateAsync({ labelId: l.id, add: true, selection })).message)}
                  >
                    {l.label}
                  </Menu.Item>
                ))}
                {labels.length > 0 ? <Menu.Label>Remove label</Menu.Label> : null}
                {labels.map((l) => (
                  <Menu.Item
                    key={`r${l.id}`}
                    leftSection={<IconTagOff size={14} />}
                    onClick={async () => done((await changeLabel.mutateAsync({ labelId: l.id, add: false, selection })).message)}
                  >
                    {l.label}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          ) : null}
          {canBulk ? (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconDownload size={14} />}
              loading={exportCsv.isPending}
              onClick={async () => {
                const result = await exportCsv.mutateAsync(selection);
                const link = document.createElement('a');
                link.href = result.url;
                link.download = 'contacts.csv';
                link.click();
                notify.success(`Exported ${result.count} contacts`);
              }}
            >
              Export CSV
            </Button>
          ) : null}
          {canBulk ? (
            <Button size="xs" color="red" variant="light" leftSection={<IconTrash size={14} />} onClick={() => setConfirm(true)}>
              Delete
            </Button>
          ) : null}
        </Group>
      </Group>
      <ConfirmModal
        opened={confirm}
        onClose={() => setConfirm(false)}
        title="Delete contacts"
        confirmLabel={`Delete ${count}`}
        loading={destroy.isPending}
        onConfirm={async () => {
          const result = await destroy.mutateAsync(selection);
          setConfirm(false);
          done(result.message);
        }}
      >
        Delete {count} {count === 1 ? 'contact' : 'contacts'}? This cannot be undone.
      </ConfirmModal>
    </Paper>
  );
}
