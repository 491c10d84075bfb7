import { Button, Center, ScrollArea, Stack, Text } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { useAddNote } from '../api/add-note';
import { useCancelScheduled } from '../api/cancel-scheduled';
import { useConversationItems } from '../api/get-conversation-items';
import { useScheduleMessage } from '../api/schedule-message';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSendMessage } from '../api/send-message';
import { useMarkRead } from '../hooks/use-mark-read';
import type { Conversation } from '../types';
import { Composer } from './Composer';
import { ThreadItem } from './ThreadItem';
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
  const schedule = useScheduleMessage();
  const cancel = useCancelScheduled(conversationId);
  const note = useAddNote(conversationId);
  const [refusal, setRefusal] = useState<string | null>(null);
  const refusalOf = (error: unknown) =>
    error instanceof HttpError && error.status === 422 ? (Object.values(error.fieldErrors).flat()[0] ?? error.message) : null;
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
              <ThreadItem
                key={item.id}
                item={item}
                onCancelScheduled={(id) => cancel.mutate(id, { onSuccess: () => notify.success('Scheduled message cancelled') })}
                cancelling={cancel.isPending}
              />
            ))}
          </Stack>
        )}
      </ScrollArea>
      {conversation ? (
        <Composer
          error={refusal}
          pending={schedule.isPending}
          onSend={(content, media) => {
            setRefusal(null);
            send.mutate(
              { conversation_id: conversationId, number_id: conversation.number.id, to: conversation.recipient, content, media },
              { onError: (e) => setRefusal(refusalOf(e)) },
            );
          }}
          onSchedule={async (content, media, shouldBeSentAt) => {
            setRefusal(null);
            try {
              await schedule.mutateAsync({
                conversation_id: conversationId,
                number_id: conversation.number.id,
                to: conversation.recipient,
                content,
                media,
                shouldBeSentAt,
              });
              notify.success('Message scheduled');
            } catch (e) {
              setRefusal(refusalOf(e) ?? (e instanceof HttpError ? e.message : null));
              throw e;
            }
          }}
          onNote={async (body) => {
            await note.mutateAsync(body);
          }}
        />
      ) : (
        <Text size="sm" c="dimmed">
          Loading conversation…
        </Text>
      )}
    </Stack>
  );
}
