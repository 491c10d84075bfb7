import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface ConfirmModalProps {
  opened: boolean;
  title: ReactNode;
  /** What confirming does, shown as small text above the buttons. */
  children: ReactNode;
  /** The confirm button's label; "Delete" unless told. */
  confirmLabel?: ReactNode;
  /** A destructive action (red confirm button); true unless told. */
  danger?: boolean;
  /** Shows the confirm button busy (the mutation is pending). */
  loading?: boolean;
  /** Runs on confirm; closing after success is the caller's call (errors keep the modal open). */
  onConfirm: () => unknown;
  /** Cancel, the close button, Escape and the overlay. */
  onClose: () => void;
}

/** A confirmation dialog: title, what happens, Cancel and a (red by default) confirm button. */
export function ConfirmModal({ opened, title, children, confirmLabel = 'Delete', danger = true, loading, onConfirm, onClose }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        <Text size="sm">{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} loading={loading} onClick={() => void onConfirm()}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
