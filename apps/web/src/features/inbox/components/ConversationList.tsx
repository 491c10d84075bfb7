import { Button, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { IconMessages, IconSearch } from '@tabler/icons-react';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import type { useConversations } from '../api/get-conversations';
import type { Conversation } from '../types';
import { ConversationRow } from './ConversationRow';

export type InboxView = 'open' | 'archived';

interface ConversationListProps {
  list: ReturnType<typeof useConversations>;
  search: string;
  onSearch: (search: string) => void;
  view: InboxView;
  onView: (view: InboxView) => void;
  activeId: number | null;
  onOpen: (conversation: Conversation) => void;
}

/** Conversation list with search, the archived toggle and cursor paging ('Load more'). */
export function ConversationList({ list, search, onSearch, view, onView, activeId, onOpen }: ConversationListProps) {
  const debounced = search.trim();
  const conversations = list.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <Stack gap="sm" h="100%">
      <TextInput
        aria-label="Search conversations"
        placeholder="Search by name or number"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
      />
      <SegmentedControl
        fullWidth
        size="xs"
        value={view}
        onChange={(v) => onView(v as InboxView)}
        data={[
          { value: 'open', label: 'Inbox' },
          { value: 'archived', label: 'Archived' },
        ]}
        aria-label="Show archived conversations"
      />
      {list.isPending ? (
        <ListSkeleton rows={5} height={64} />
      ) : conversations.length === 0 ? (
        <EmptyBlock
          icon={<IconMessages />}
          title={debounced ? 'No matches' : view === 'archived' ? 'Nothing archived' : 'No conversations yet'}
          description={debounced ? 'Try another name or number.' : 'Text one of your numbers from the Phone simulator and the conversation appears here live.'}
        />
      ) : (
        <Stack gap={2} data-testid="conversation-list">
          {conversations.map((c) => (
            <ConversationRow key={c.id} conversation={c} active={c.id === activeId} onOpen={() => onOpen(c)} />
          ))}
          {list.hasNextPage ? (
            <Button variant="subtle" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
              Load more
            </Button>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}
