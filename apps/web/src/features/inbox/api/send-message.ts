/**
 * POST /api/message (multipart: company_id, number_id, to or conversation_id, content, media[]):
 * sends an SMS/MMS and answers 201 with the new ConversationItem. Applied optimistically: the
 * message shows at once as 'sending' and is replaced by the server's item (or marked undelivered on
 * failure).
 */
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { SendMessageBody } from '@switchboard/contracts';
import { http, HttpError } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { ConversationItem, CursorPage } from '../types';
import { conversationItemsQueryOptions } from './get-conversation-items';
import { conversationListsKey } from './get-conversations';

/** The fields of the contract's `SendMessageBody` the composer sends (company_id is added), plus the media files. */
export type SendMessageInput = Pick<SendMessageBody, 'conversation_id' | 'to'> & Required<Pick<SendMessageBody, 'number_id' | 'content'>> & { media?: File[] };

type Items = InfiniteData<CursorPage<ConversationItem>>;

/** The multipart body of a message: company_id, number_id, conversation_id?, to?, content, `extra` fields, media[]. */
export function messageForm(companyId: number, input: SendMessageInput, extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('company_id', String(companyId));
  form.append('number_id', String(input.number_id));
  if (input.conversation_id !== undefined) form.append('conversation_id', String(input.conversation_id));
  if (input.to) form.append('to', input.to);
  form.append('content', input.content);
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  for (const file of input.media ?? []) form.append('media[]', file);
  return form;
}

export function sendMessage(companyId: number, input: SendMessageInput): Promise<ConversationItem> {
  return http.post<ConversationItem>('/api/message', messageForm(companyId, input));
}

let tempCounter = 0;

function patchItems(data: Items | undefined, fn: (items: ConversationItem[]) => ConversationItem[]): Items | undefined {
  if (!data || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first!, data: fn(first!.data) }, ...rest] };
}

export function useSendMessage() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (input: SendMessageInput) => sendMessage(companyId!, input),
    onMutate: async (input) => {
      if (input.conversation_id === undefined) return { tempId: null as number | null };
      const key = conversationItemsQueryOptions(companyId, input.conversation_id).queryKey;
      await queryClient.cancelQueries({ queryKey: key });
      // A negative id never collides with a server item's.
      const tempId = -++tempCounter;
      const optimistic: ConversationItem = {
        id: tempId,
        conversationId: input.conversation_id,
        isInbound: false,
        isRead: true,
        createdAt: new Date().toISOString(),
        details: {
          content: input.content,
          deliveryState: 'sending',
          errorCode: null,
          errorText: null,
          media: (input.media ?? []).map((f) => ({ url: URL.createObjectURL(f), contentType: f.type })),
          type: 'message',
          callId: null,
          voicemailId: null,
          callStatus: null,
          callStatusLabel: null,
          durationS: null,
          shouldBeSentAt: null,
          userId: null,
        },
      };
      queryClient.setQueryData<Items>(key, (data) => patchItems(data, (items) => [optimistic, ...items]));
      return { tempId };
    },
    onSuccess: (item, input, context) => {
      if (input.conversation_id === undefined || !context?.tempId) return;
      const key = conversationItemsQueryOptions(companyId, input.conversation_id).queryKey;
      queryClient.setQueryData<Items>(key, (data) =>
        patchItems(data, (items) => {
          // A live refetch may already have replaced the optimistic item with the server's.
          if (!items.some((i) => i.id === context.tempId)) return items;
          const without = items.filter((i) => i.id !== item.id);
          return without.map((i) => (i.id === context.tempId ? item : i));
        }),
      );
    },
    onError: (error, input, context) => {
      if (input.conversation_id === undefined || !context?.tempId) return;
      const key = conversationItemsQueryOptions(companyId, input.conversation_id).queryKey;
      // A refusal (422, e.g. an unsubscribed contact) was never sent: the composer shows it instead.
      if (error instanceof HttpError && error.status === 422) {
        queryClient.setQueryData<Items>(key, (data) => patchItems(data, (items) => items.filter((i) => i.id !== context.tempId)));
        return;
      }
      queryClient.setQueryData<Items>(key, (data) =>
        patchItems(data, (items) =>
          items.map((i) => (i.id === context.tempId ? { ...i, details: { ...i.details, deliveryState: 'undelivered', errorText: error.message } } : i)),
        ),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationListsKey(companyId) }),
  });
}
