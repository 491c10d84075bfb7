import { Anchor, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconChecks, IconClock } from '@tabler/icons-react';
import { formatDateTime } from '../../../lib/format';
import type { ConversationItem } from '../types';
import { fileSrc } from '../../../lib/files';

function mediaUrl(m: NonNullable<ConversationItem['details']['media']>[number]): string {
  return fileSrc(typeof m === 'string' ? m : m.url);
}

function DeliveryState({ item }: { item: ConversationItem }) {
  const state = item.details.deliveryState ?? 'sent';
  const failed = state === 'undelivered' || state === 'failed';
  const Icon = failed ? IconAlertCircle : state === 'delivered' ? IconChecks : state === 'sending' || state === 'queued' ? IconClock : IconCheck;
  return (
    <Group gap={4} justify="flex-end" data-testid="delivery-state" data-state={state}>
      <Icon size={12} color={failed ? 'var(--mantine-color-red-6)' : undefined} />
      <Text size="xs" c={failed ? 'red' : 'dimmed'}>
        {state}
        {failed && (item.details.errorText || item.details.errorCode) ? `: ${item.details.errorText ?? `error ${item.details.errorCode}`}` : ''}
      </Text>
    </Group>
  );
}

/**
 * Under an inbound text the carrier adapter cut to the carrier's limit (1,600 characters; docs/messaging.md
 * "Long messages"): how many characters were received, so nobody takes the cut text for the whole.
 */
function TruncationNote({ item }: { item: ConversationItem }) {
  if (!item.details.truncated) return null;
  const received = item.details.originalLength;
  return (
    <Text size="xs" c="gray.7" fs="italic" mt={4} data-testid="message-truncated">
      {received ? `message truncated: ${received.toLocaleString('en-US')} characters received` : 'message truncated'}
    </Text>
  );
}

/** One item of a thread: inbound on the left, outbound on the right with its delivery state. */
export function MessageBubble({ item }: { item: ConversationItem }) {
  const inbound = item.isInbound;
  const type = item.details.type;
  const content = item.details.content ?? (type === 'call' ? 'Call' : type === 'voicemail' ? 'Voicemail' : '');
  return (
    <Stack gap={2} align={inbound ? 'flex-start' : 'flex-end'} data-testid="message-bubble" data-direction={inbound ? 'inbound' : 'outbound'}>
      <Paper
        px="md"
        py="xs"
        radius="lg"
        maw="75%"
        bg={inbound ? 'var(--mantine-color-gray-1)' : 'var(--mantine-color-blue-6)'}
        c={inbound ? undefined : 'white'}
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
      >
        {content ? <Text size="sm">{content}</Text> : null}
        <TruncationNote item={item} />
        {(item.details.media ?? []).map((m, i) => {
          const url = mediaUrl(m);
          return /\.(png|jpe?g|gif|webp)(\?|$)/i.test(url) ? (
            <Image key={i} src={url} alt="Attachment" maw={240} radius="sm" mt={4} />
          ) : (
            <Anchor key={i} href={url} target="_blank" c={inbound ? undefined : 'white'} size="sm">
              Attachment {i + 1}
            </Anchor>
          );
        })}
      </Paper>
      <Group gap={6}>
        <Text size="xs" c="dimmed">
          {formatDateTime(item.createdAt)}
        </Text>
        {!inbound && type === 'message' ? <DeliveryState item={item} /> : null}
      </Group>
    </Stack>
  );
}
