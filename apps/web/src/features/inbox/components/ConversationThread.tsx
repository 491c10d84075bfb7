import { Button, Center, ScrollArea, Stack, Text } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useRef } from 'react';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { useConversationItems } from '../api/get-conversation-items';
import { useSendMessage } from '../api/send-message';
import { useMarkRead } from '../hooks/use-mark-read';
import type { Conversation } from '../types';
import { Composer } from './Composer';
import { MessageBubble } from './MessageBubble';
import { ThreadHeader } from './ThreadHeader';

interface ConversationThreadProps {
  conversationId: number;
  /** The list's copy of the conversation (header, number to reply from); null while unknown. */
  conversation: Conversation | null;
  onBack?: () => void;
}

/** A conversation: its items oldest to newest, older pages on demand, and the composer. */
export function ConversationThread({ conversationId, conversation, onBack }: ConversationThreadProps) {
  const items = useConversationItems(conversationId);
  const send = useSendMessage();
  useMarkRead(conversationId, conversation?.numUnreadItems);
  const viewport = useRef<HTMLDivElement>(null);

  const ordered = useMemo(() => (items.data?.pages.flatMap((p) => p.data) ?? []).slice().reverse(), [items.data]);
  const newestId = ordered[ordered.length - 1]?.id;

  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [newestId]);

  return (
    <Stack gap="sm" h="100%" data-testid="conversation-thread">
      {conversation ? <ThreadHeader conversation={conversation} onBack={onBack} /> : null}
      <ScrollArea viewportRef={viewport} style={{ flex: 1 }} offsetScrollbars>
        {items.isPending ? (
          <ListSkeleton rows={4} height={40} />
        ) : ordered.length === 0 ? (
          <EmptyBlock icon={<IconMessageCircle />} title="No messages yet" description="Write the first message below." />
        ) : (
          <Stack gap="sm" py="xs">
            {items.hasNextPage ? (
              <Center>
                <Button variant="subtle" size="xs" onClick={() => void items.fetchNextPage()} loading={items.isFetchingNextPage}>
                  Load older messages
                </Button>
              </Center>
            ) : null}
            {ordered.map((item) => (
              <MessageBubble key={item.id} item={item} />
            ))}
          </Stack>
        )}
      </ScrollArea>
      {conversation ? (
        <Composer onSend={(content) => send.mutate({ conversation_id: conversationId, number_id: conversation.number.id, to: conversation.recipient, content })} />
      ) : (
        <Text size="sm" c="dimmed">
          Loading conversation…
        </Text>
      )}
    </Stack>
  );
}
