import { Card, Grid } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { normalizeConversationSearch } from '@switchboard/domain';
import { IconMessages } from '@tabler/icons-react';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { PageHeader } from '../../../components/PageHeader';
import { useCompanyId } from '../../../lib/session';
import { useConversation } from '../api/get-conversation';
import { conversationListsKey, useConversations } from '../api/get-conversations';
import { useConversationUpdates } from '../realtime/use-conversation-updates';
import type { Conversation, CursorPage } from '../types';
import { ConversationList, type InboxView } from './ConversationList';
import { ConversationThread } from './ConversationThread';

/** The conversation with `id` from the shown list, else from any cached list, or null. */
function useCachedConversation(id: number | null, shown: Conversation[]): Conversation | null {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  if (id === null) return null;
  const inList = shown.find((c) => c.id === id);
  if (inList) return inList;
  for (const [, data] of queryClient.getQueriesData<InfiniteData<CursorPage<Conversation>>>({ queryKey: conversationListsKey(companyId) })) {
    const found = data?.pages.flatMap((p) => p.data).find((c) => c.id === id);
    if (found) return found;
  }
  return null;
}

/** Inbox `/inbox/:conversationId?`: the list beside the open thread (one at a time on small screens). */
export function InboxPage() {
  useConversationUpdates();
  const { conversationId } = useParams();
  const navigate = useNavigate();
  const small = useMediaQuery('(max-width: 48em)');
  const activeId = conversationId ? Number(conversationId) : null;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(normalizeConversationSearch(search), 300);
  const [view, setView] = useState<InboxView>('open');
  const list = useConversations({ search: debounced, isArchived: view === 'archived' });
  const cached = useCachedConversation(activeId, list.data?.pages.flatMap((p) => p.data) ?? []);
  const single = useConversation(activeId, cached === null);
  const conversation = cached ?? single.data ?? null;
  const open = (c: Conversation) => navigate(`/inbox/${c.id}`);

  const showList = !small || activeId === null;
  const showThread = !small || activeId !== null;

  return (
    <>
      <PageHeader title="Inbox" description="Text conversations with your customers, live." />
      <Grid gap="md">
        {showList ? (
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Card withBorder radius="md" padding="sm" h="calc(100vh - 190px)" style={{ overflowY: 'auto' }}>
              <ConversationList list={list} search={search} onSearch={setSearch} view={view} onView={setView} activeId={activeId} onOpen={open} />
            </Card>
          </Grid.Col>
        ) : null}
        {showThread ? (
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Card withBorder radius="md" padding="md" h="calc(100vh - 190px)">
              {activeId !== null ? (
                <ConversationThread key={activeId} conversationId={activeId} conversation={conversation} onBack={small ? () => navigate('/inbox') : undefined} />
              ) : (
                <EmptyBlock icon={<IconMessages />} title="Pick a conversation" description="Choose a conversation on the left to read and reply." />
              )}
            </Card>
          </Grid.Col>
        ) : null}
      </Grid>
    </>
  );
}
