import { Button, Card, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconTag, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { useCan } from '../../../lib/access';
import { notify } from '../../../lib/notify';
import { useBulkUpdateNumbers } from '../api/bulk-update-numbers';
import { useReleaseNumbers } from '../api/release-numbers';
import { trackJob } from '../realtime/number-jobs';

/**
 * Actions on the selected numbers: Release (after a confirmation; `numbers.purchase`) and Set label (`numbers.manage`),
 * both background jobs. A role with neither sees no bar.
 */
export function BulkActionsBar({ selected, onClear }: { selected: number[]; onClear: () => void }) {
  const canLabel = useCan('numbers.manage');
  const canRelease = useCan('numbers.purchase');
  const [confirming, setConfirming] = useState(false);
  const [labeling, setLabeling] = useState(false);
  const [label, setLabel] = useState('');
  const release = useReleaseNumbers();
  const update = useBulkUpdateNumbers();
  if (selected.length === 0 || !(canLabel || canRelease)) return null;
  const count = `${selected.length} ${selected.length === 1 ? 'number' : 'numbers'}`;

  const doRelease = () =>
    release.mutate(selected, {
      onSuccess: (result) => {
        trackJob(result.batchId, 'release', result.data.total);
        notify.success(result.message);
        setConfirming(false);
        onClear();
      },
    });
  const doLabel = () =>
    update.mutate(
      { ids: selected, label: label.trim() },
      {
        onSuccess: (result) => {
          trackJob(result.batchId, 'update', result.data.total);
          notify.success(result.message);
          setLabeling(false);
          setLabel('');
          onClear();
        },
      },
    );

  return (
    <>
      <Card withBorder radius="md" padding="xs" mb="sm" bg="var(--mantine-color-blue-light)" data-testid="bulk-actions">
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {count} selected
          </Text>
          <Group gap="xs">
            {canLabel ? (
              <Button size="xs" variant="default" leftSection={<IconTag size={14} />} onClick={() => setLabeling(true)}>
                Set label
              </Button>
            ) : null}
            {canRelease ? (
              <Button size="xs" color="red" variant="light" leftSection={<IconTrash size={14} />} onClick={() => setConfirming(true)}>
                Release
              </Button>
            ) : null}
            <Button size="xs" variant="subtle" leftSection={<IconX size={14} />} onClick={onClear}>
              Clear
            </Button>
          </Group>
        </Group>
      </Card>
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Release ${count}?`}
        confirmLabel={`Release ${count}`}
        loading={release.isPending}
        onConfirm={doRelease}
      >
        Released numbers go back to the carrier and stop receiving calls and texts. Their history stays in Activity. This cannot be undone.
      </ConfirmModal>
      <Modal opened={labeling} onClose={() => setLabeling(false)} title={`Label ${count}`}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            doLabel();
          }}
        >
          <Stack>
            <TextInput
              label="Label"
              description="Replaces the label of every selected number."
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
              maxLength={100}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setLabeling(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={update.isPending}>
                Update {count}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
