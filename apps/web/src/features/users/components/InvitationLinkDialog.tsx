/**
 * The invitation link handed to the inviter while mail goes to the development outbox (no mail server: the invitee
 * could not receive the mail; docs/accounts.md "Invitations"), after inviting or resending. The link opens the
 * invitation, its e-mail, and joining.
 */
import { Anchor, Button, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

export function InvitationLinkDialog({ email, url, onClose, title = 'Invitation sent' }: { email: string; url: string; onClose: () => void; title?: string }) {
  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack data-testid="invitation-link">
        <Text size="sm">
          No mail server is configured, so the invitation e-mail to {email} waits in the development outbox. Give them this link: it shows the invitation and
          its e-mail, and lets them join.
        </Text>
        <Anchor href={url} size="sm" style={{ wordBreak: 'break-all' }}>
          {url}
        </Anchor>
        <Group justify="flex-end">
          <CopyButton value={url}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? 'Link copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
