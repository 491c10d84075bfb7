/**
 * Live inbox (spec 001 §4): 'conversation updated' on `conversations.{companyId}` carries the
 * Conversation. The list caches move it to the top of the lists it belongs to (same archived state,
 * no search), and its thread is refetched, so new messages and delivery states appear without a reload.
 * 'transcript updated' on `company.{companyId}` for a voicemail refetches the open threads, so its
 * transcript shows once the job settles.
 */
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import { conversationQueryOptions } from '../api/get-conversation';
import { conversationItemsQueryOptions } from '../api/get-conversation-items';
import { conversationListsKey, type ConversationFilters } from '../api/get-conversations';
import type { Conversation, CursorPage } from '../types';

type Lists = InfiniteData<CursorPage<Conversation>>;

export function useConversationUpdates() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  useRealtimeEvent(companyId === null ? null : `conversations.${companyId}`, 'conversation updated', (event) => {
    // A deleted conversation arrives as `{id, conversationId, deleted: true}` (ConversationDeletedEvent).
    const conversation = 'deleted' in event ? null : event;
    for (const [key, data] of queryClient.getQueriesData<Lists>({ queryKey: conversationListsKey(companyId) })) {
      if (!data) continue;
      const filters = key[key.length - 1] as ConversationFilters | undefined;
      const narrowed = !!filters && (!!filters.types?.length || !!filters.numberIds?.length);
      const belongs =
        conversation !== null &&
        !!filters &&
        !filters.search &&
        filters.isArchived === conversation.isArchived &&
        (!filters.numberIds?.length || filters.numberIds.includes(conversation.number.id));
      const pages = data.pages.map((p) => ({ ...p, data: p.data.filter((c) => c.id !== event.id) }));
      if (belongs && narrowed) {
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
        continue;
      }
      if (belongs && conversation && pages[0]) pages[0] = { ...pages[0], data: [conversation, ...pages[0].data] };
      else if (filters?.search || (narrowed && conversation)) {
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
        continue;
      }
      queryClient.setQueryData<Lists>(key, { ...data, pages });
    }
    if (!conversation) return;
    const singleKey = conversationQueryOptions(companyId, conversation.id).queryKey;
    if (queryClient.getQueryData(singleKey)) queryClient.setQueryData(singleKey, conversation);
    void queryClient.invalidateQueries({ queryKey: conversationItemsQueryOptions(companyId, conversation.id).queryKey, refetchType: 'all' });
  });
  useRealtimeEvent(companyId === null ? null : `company.${companyId}`, 'transcript updated', (event) => {
    if (event.voicemail_id !== null) void queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'conversation-items') });
  });
}
