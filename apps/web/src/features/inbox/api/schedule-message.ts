/**
 * POST /api/inbox/message/schedule (multipart: company_id, number_id, conversation_id, to, content,
 * media[], shouldBeSentAt ISO) → 201 ConversationItem of type scheduledmessage. Not shown
 * optimistically (spec): the thread is refetched once the server answered. 422 refusals are
 * returned to the composer (silent).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { ConversationItem } from '../types';
import { conversationItemsQueryOptions } from './get-conversation-items';
import { messageForm, type SendMessageInput } from './send-message';

export async function scheduleMessage(companyId: number, input: SendMessageInput & { shouldBeSentAt: string }): Promise<ConversationItem> {
  const form = messageForm(companyId, input, { shouldBeSentAt: input.shouldBeSentAt });
  return (await request<ConversationItem>('/api/inbox/message/schedule', { method: 'POST', data: form, silent: true })).data;
}

export function useScheduleMessage() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (input: SendMessageInput & { shouldBeSentAt: string }) => scheduleMessage(companyId!, input),
    onSuccess: (_item, input) => queryClient.invalidateQueries({ queryKey: conversationItemsQueryOptions(companyId, input.conversation_id ?? null).queryKey }),
  });
}
