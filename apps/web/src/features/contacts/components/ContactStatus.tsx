import { Badge, Group } from '@mantine/core';

/** Unsubscribed / invalid number badges (nothing for a reachable contact). */
export function ContactStatus({ contact }: { contact: { is_unsubscribed: boolean; is_invalid: boolean } }) {
  if (!contact.is_unsubscribed && !contact.is_invalid) return null;
  return (
    <Group gap={4}>
      {contact.is_unsubscribed ? (
        <Badge color="orange" variant="light" data-testid="contact-unsubscribed">
          Unsubscribed
        </Badge>
      ) : null}
      {contact.is_invalid ? (
        <Badge color="red" variant="light">
          Invalid number
        </Badge>
      ) : null}
    </Group>
  );
}
