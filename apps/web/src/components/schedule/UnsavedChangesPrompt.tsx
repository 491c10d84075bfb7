import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * Asks before unsaved edits are lost (docs/telephony.md "Routing editor: unsaved changes"): while
 * `dirty`, leaving the page inside the app (a link, Back) opens a dialog, Stay or Leave without
 * saving (React Router's `useBlocker`), and closing or reloading the tab triggers the browser's own
 * "Leave site?" question (`beforeunload`). Used by the routing editor and the company schedule.
 */
export function UnsavedChangesPrompt({ dirty, what = 'changes' }: { dirty: boolean; what?: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  // Saved meanwhile (or the edits were undone): let the pending navigation go.
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  const stay = () => blocker.state === 'blocked' && blocker.reset();
  return (
    <Modal opened={blocker.state === 'blocked'} onClose={stay} title="Leave without saving?" data-testid="unsaved-changes">
      <Stack>
        <Text size="sm">You have unsaved {what}. If you leave this page now, they are lost.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={stay} data-autofocus>
            Stay on this page
          </Button>
          <Button color="red" onClick={() => blocker.state === 'blocked' && blocker.proceed()}>
            Leave without saving
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
