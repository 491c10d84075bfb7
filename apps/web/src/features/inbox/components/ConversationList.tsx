import { ActionIcon, Button, Checkbox, Group, Loader, Menu, SegmentedControl, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useIntersection } from '@mantine/hooks';
import { IconArchive, IconArrowBackUp, IconChecks, IconListCheck, IconMail, IconMessages, IconSearch, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { notify } from '../../../lib/notify';
import { useBulkUpdate, type BulkType } from '../api/bulk-update';
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
  /** Whether a number or type filter narrows the list (empty-state wording). */
  narrowed?: boolean;
}

const BULK_DONE: Record<BulkType, string> = { read: 'Marked as read', unread: 'Marked as unread', archive: 'Archived', restore: 'Restored', delete: 'Deleted' };

/**
 * The end of the list: a sentinel that loads the next cursor page while it is on screen (again and
 * again until the list fills the card or the pages run out), a loading line while a page is on
 * its way, "Load more" for keyboards, and "No more conversations" at the end.
 */
function ListEnd({ list }: { list: ReturnType<typeof useConversations> }) {
  const { ref, entry } = useIntersection<HTMLDivElement>({ rootMargin: '0px 0px 200px 0px' });
  const visible = entry?.isIntersecting ?? false;
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list;
  useEffect(() => {
    if (visible && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [visible, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);
  const pages = list.data?.pages.length ?? 0;
  return (
    <div ref={ref} data-testid="conversation-list-end">
      {isFetchingNextPage ? (
        <Group justify="center" gap="xs" py="xs" data-testid="conversation-list-loading">
          <Loader size="xs" />
          <Text size="xs" c="dimmed">
            Loading more conversations…
          </Text>
        </Group>
      ) : hasNextPage ? (
        <Group justify="center">
          <Button variant="subtle" size="xs" onClick={() => void fetchNextPage()}>
            {isFetchNextPageError ? 'Could not load more. Retry' : 'Load more'}
          </Button>
        </Group>
      ) : pages > 1 ? (
        <Text size="xs" c="dimmed" ta="center" py="xs" data-testid="conversation-list-done">
          No more conversations
        </Text>
      ) : null}
    </div>
  );
}

/** Conversation list with search, the archived toggle, bulk selection and an endless list (cursor pages load as it scrolls). */
export function ConversationList({ list, search, onSearch, view, onView, activeId, onOpen, narrowed }: ConversationListProps) {
  const debounced = search.trim();
  const conversations = list.data?.pages.flatMap((p) => p.data) ?? [];
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirmDelete, setConfirmDelete] = useState(false);
  const bulk = useBulkUpdate();
  const allSelected = conversations.length > 0 && conversations.every((c) => selected.has(c.id));

  const run = async (type: BulkType) => {
    const ids = [...selected];
    await bulk.mutateAsync({ ids, type });
    notify.success(`${BULK_DONE[type]}: ${ids.length} ${ids.length === 1 ? 'conversation' : 'conversations'}`);
    setSelected(new Set());
    setConfirmDelete(false);
  };

  return (
    <Stack gap="sm" h="100%">
      <Group gap="xs" wrap="nowrap">
        <TextInput
          aria-label="Search conversations"
          placeholder="Search by name, number or text"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => onSearch(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Tooltip label={selecting ? 'Done selecting' : 'Select conversations'}>
          <ActionIcon
            variant={selecting ? 'filled' : 'default'}
            size="lg"
            aria-label="Select conversations"
            onClick={() => {
              setSelecting((s) => !s);
              setSelected(new Set());
            }}
          >
            <IconListCheck size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <SegmentedControl
        fullWidth
        size="xs"
        value={view}
        onChange={(v) => {
          onView(v as InboxView);
          setSelected(new Set());
        }}
        data={[
          { value: 'open', label: 'Inbox' },
          { value: 'archived', label: 'Archived' },
        ]}
        aria-label="Show archived conversations"
      />
      {selecting ? (
        <Group justify="space-between" gap="xs" data-testid="inbox-bulk-bar">
          <Checkbox
            size="xs"
            label={selected.size ? `${selected.size} selected` : 'Select all'}
            checked={allSelected}
            indeterminate={selected.size > 0 && !allSelected}
            onChange={() => setSelected(allSelected ? new Set() : new Set(conversations.map((c) => c.id)))}
          />
          <Group gap={4}>
            <Tooltip label="Mark read">
              <ActionIcon
                variant="light"
                aria-label="Mark read"
                disabled={!selected.size}
                loading={bulk.isPending && bulk.variables?.type === 'read'}
                onClick={() => void run('read')}
              >
                <IconChecks size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Mark unread">
              <ActionIcon
                variant="light"
                aria-label="Mark unread"
                disabled={!selected.size}
                loading={bulk.isPending && bulk.variables?.type === 'unread'}
                onClick={() => void run('unread')}
              >
                <IconMail size={16} />
              </ActionIcon>
            </Tooltip>
            {view === 'archived' ? (
              <Tooltip label="Restore">
                <ActionIcon variant="light" aria-label="Restore" disabled={!selected.size} onClick={() => void run('restore')}>
                  <IconArrowBackUp size={16} />
                </ActionIcon>
              </Tooltip>
            ) : (
              <Tooltip label="Archive">
                <ActionIcon variant="light" aria-label="Archive" disabled={!selected.size} onClick={() => void run('archive')}>
                  <IconArchive size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            <Menu>
              <Menu.Target>
                <ActionIcon variant="light" color="red" aria-label="Delete" disabled={!selected.size}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item color="red" onClick={() => setConfirmDelete(true)}>
                  Delete {selected.size} {selected.size === 1 ? 'conversation' : 'conversations'}…
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      ) : null}
      {list.isPending ? (
        <ListSkeleton rows={5} height={64} />
      ) : list.isError ? (
        <EmptyBlock
          icon={<IconMessages />}
          title="Error loading conversations"
          description="Please try again later"
          action={
            <Button variant="light" onClick={() => void list.refetch()}>
              Retry
            </Button>
          }
        />
      ) : conversations.length === 0 ? (
        <EmptyBlock
          icon={<IconMessages />}
          title={debounced || narrowed ? 'No matches' : view === 'archived' ? 'Nothing archived' : 'No conversations yet'}
          description={
            debounced || narrowed
              ? 'Try another name, number or filter.'
              : 'Text one of your numbers from the Phone simulator and the conversation appears here live.'
          }
        />
      ) : (
        <Stack gap={2} data-testid="conversation-list">
          {conversations.map((c) => (
            <ConversationRow
              key={c.id}
              conversation={c}
              active={c.id === activeId}
              onOpen={() => onOpen(c)}
              selected={selected.has(c.id)}
              onSelect={
                selecting
                  ? (on) =>
                      setSelected((prev) => {
                        const next = new Set(prev);
                        if (on) next.add(c.id);
                        else next.delete(c.id);
                        return next;
                      })
                  : undefined
              }
            />
          ))}
          <ListEnd list={list} />
        </Stack>
      )}
      <ConfirmModal
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title="Delete conversations"
        loading={bulk.isPending}
        onConfirm={() => run('delete')}
      >
        Delete {selected.size} conversations with all their messages? Calls and voicemails stay in Activity.
      </ConfirmModal>
    </Stack>
  );
}
