/**
 * "Call" and "Text" buttons for a phone number (a contact, a conversation, a call, a voicemail):
 * Call opens the header dialer with the number (lib/dialer); Text opens the inbox composer for it.
 * Hidden for roles without `calls.work` / `inbox.work`.
 */
import { Button, Group } from '@mantine/core';
import { IconMessage, IconPhoneOutgoing } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCan } from '../lib/access';
import { openDialer } from '../lib/dialer';

export function CallButton({ number, text = true, size = 'xs' }: { number: string; text?: boolean; size?: 'xs' | 'sm' }) {
  const canCall = useCan('calls.work');
  const canText = useCan('inbox.work');
  return (
    <Group gap="xs">
      {canCall && (
        <Button
          size={size}
          variant="light"
          color="teal"
          leftSection={<IconPhoneOutgoing size={14} />}
          onClick={() => openDialer(number)}
          aria-label={`Call ${number}`}
        >
          Call
        </Button>
      )}
      {text && canText && (
        <Button
          size={size}
          variant="light"
          component={Link}
          to={`/inbox?to=${encodeURIComponent(number)}`}
          leftSection={<IconMessage size={14} />}
          aria-label={`Text ${number}`}
        >
          Text
        </Button>
      )}
    </Group>
  );
}
