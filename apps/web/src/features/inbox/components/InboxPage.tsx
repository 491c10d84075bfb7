import { Badge, Button, Card, Chip, Grid, Group, Select, Skeleton } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { normalizeConversationSearch } from '@switchboard/domain';
import { IconMessagePlus, IconMessages } from '@tabler/icons-react';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { HiddenPageTitle, PageHeader } from '../../../components/PageHeader';
import { useCan } from '../../../lib/access';
import { useCompanyId } from '../../../lib/session';
import { useConversation } from '../api/get-conversation';
import { conversationListsKey, useConversations } from '../api/get-conversations';
import { useNotificationCounts } from '../api/get-notification-counts';
import { useConversationUpdates } from '../realtime/use-conversation-updates';
import type { Conversation, CursorPage, ItemType } from '../types';
import { ConversationList, type InboxView } from './ConversationList';
import { ConversationThread } from './ConversationThread';
import { NewMessageModal } from './NewMessageModal';

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

const TYPES: Array<{ type: ItemType; label: string; countKey: 'message' | 'call' | 'voicemail' }> = [
  { type: 'message', label: 'Messages', countKey: 'message' },
  { type: 'call', label: 'Calls', countKey: 'call' },
  { type: 'voicemail', label: 'Voicemails', countKey: 'voicemail' },
];

/** A company number the inbox can be narrowed to (handed in by the app). */
export interface InboxNumberOption {
  value: string;
  label: string;
}

/**
 * Inbox `/inbox/:conversationId?`: unread counts per type, number and type filters, the list beside
 * the open thread (one at a time on small screens), and "New message" (`?to=<number>` opens it with
 * the recipient filled in: the Text buttons elsewhere link here).
 */
export function InboxPage({ numbers }: { numbers?: InboxNumberOption[] }) {
  const counts = useNotificationCounts();
  const [types, setTypes] = useState<string[]>([]);
  const [numberId, setNumberId] = useState<string | null>(null);
  useConversationUpdates();
  const { conversationId } = useParams();
  const navigate = useNavigate();
  const small = useMediaQuery('(max-width: 48em)');
  const activeId = conversationId ? Number(conversationId) : null;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(normalizeConversationSearch(search), 300);
  const [view, setView] = useState<InboxView>('open');
  const list = useConversations({ search: debounced, isArchived: view === 'archived', types, numberIds: numberId ? [Number(numberId)] : [] });
  const cached = useCachedConversation(activeId, list.data?.pages.flatMap((p) => p.data) ?? []);
  const single = useConversation(activeId, cached === null);
  const conversation = cached ?? single.data ?? null;
  const open = (c: Conversation) => navigate(`/inbox/${c.id}`);
  const canText = useCan('inbox.work');
  const [params, setParams] = useSearchParams();
  const composeTo = params.get('to');
  const [composing, setComposing] = useState(false);
  const closeCompose = () => {
    setComposing(false);
    if (composeTo !== null) setParams({}, { replace: true });
  };

  const showList = !small || activeId === null;
  const showThread = !small || activeId !== null;
  // Phone-sized: an open thread takes the whole screen below the app header (the reply box stays
  // on screen); the list flows with the page and loads more as the page scrolls.
  const threadOnly = small && activeId !== null;

  return (
    <>
      {threadOnly ? (
        <HiddenPageTitle title="Inbox" />
      ) : (
        <>
          <PageHeader
            title="Inbox"
            description="Texts, calls and voicemails with your customers, live."
            actions={
              <Group gap={6}>
                {/* Laid out before the counts arrive (a placeholder of the same size), so the list below does not move. */}
                <Group
                  gap={6}
                  wrap="nowrap"
                  style={{ overflowX: 'auto', maxWidth: '100%' }}
                  data-testid={counts.data ? 'inbox-counts' : undefined}
                  aria-busy={!counts.data}
                >
                  {TYPES.map(({ label, countKey }) => {
                    const n = counts.data?.[countKey] ?? 0;
                    return (
                      <Skeleton key={countKey} visible={!counts.data} width="auto" radius="xl">
                        <Badge variant="light" color={n ? 'red' : 'gray'} size="lg" tt="none">
                          {n} unread {n === 1 ? label.toLowerCase().replace(/s$/, '') : label.toLowerCase()}
                        </Badge>
                      </Skeleton>
                    );
                  })}
                </Group>
                {canText ? (
                  <Button size="xs" leftSection={<IconMessagePlus size={16} />} onClick={() => setComposing(true)}>
                    New message
                  </Button>
                ) : null}
              </Group>
            }
          />
          <Group mb="sm" gap="sm" wrap="wrap">
            <Chip.Group multiple value={types} onChange={setTypes}>
              {/* One line whatever the counts (a count arriving must not wrap the row and move the list). */}
              <Group gap={6} wrap="nowrap" style={{ overflowX: 'auto', maxWidth: '100%' }} role="group" aria-label="Conversation types">
                {TYPES.map(({ type, label, countKey }) => (
                  <Chip key={type} value={type} variant="light" size="sm">
                    {label}
                    {counts.data?.[countKey] ? ` (${counts.data[countKey]})` : ''}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            {numbers === undefined || numbers.length > 1 ? (
              <Select
                aria-label="Number"
                placeholder="All numbers"
                clearable
                data={numbers ?? []}
                disabled={numbers === undefined}
                value={numberId}
                onChange={setNumberId}
                w={240}
                maw="100%"
                size="xs"
              />
            ) : null}
          </Group>
        </>
      )}
      <Grid gap="md">
        {showList ? (
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Card
              withBorder
              radius="md"
              padding="sm"
              h={small ? undefined : 'calc(100dvh - 230px)'}
              mih={small ? undefined : 320}
              style={small ? undefined : { overflowY: 'auto' }}
              data-testid="conversation-list-card"
            >
              <ConversationList
                narrowed={types.length > 0 || numberId !== null}
                list={list}
                search={search}
                onSearch={setSearch}
                view={view}
                onView={setView}
                activeId={activeId}
                onOpen={open}
              />
            </Card>
          </Grid.Col>
        ) : null}
        {showThread ? (
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Card
              withBorder
              radius="md"
              padding={small ? 'xs' : 'md'}
              h={small ? 'calc(100dvh - 60px - 2 * var(--mantine-spacing-sm))' : 'calc(100dvh - 230px)'}
              mih={small ? undefined : 320}
              data-testid="thread-card"
            >
              {activeId !== null ? (
                <ConversationThread
                  key={activeId}
                  conversationId={activeId}
                  conversation={conversation}
                  onBack={small ? () => navigate('/inbox') : undefined}
                />
              ) : (
                <EmptyBlock icon={<IconMessages />} title="Pick a conversation" description="Choose a conversation on the left to read and reply." />
              )}
            </Card>
          </Grid.Col>
        ) : null}
      </Grid>
      {canText ? (
        <NewMessageModal
          opened={composing || composeTo !== null}
          onClose={closeCompose}
          numbers={numbers ?? []}
          initialTo={composeTo ?? ''}
          onSent={(item) => {
            setComposing(false);
            navigate(`/inbox/${item.conversationId}`, { replace: composeTo !== null });
          }}
        />
      ) : null}
    </>
  );
}
