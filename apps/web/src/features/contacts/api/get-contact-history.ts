/**
 * A contact's history (issue 23: the contact drawer had none): the inbox conversations with the contact's number,
 * archived or not (GET /api/companies/{id}/conversations?search=<number>, the inbox's phone search), newest activity
 * first. Each conversation is the thread of calls, voicemails, texts, faxes and notes between one company number and
 * the person; the drawer lists them with their latest item and opens them in the inbox. Needs `inbox.read`.
 */
import type { Conversation, ConversationList, Infer } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

/** At most this many conversations are listed (one per company number the person dealt with). */
const HISTORY_CONVERSATIONS = 10;

export function useContactHistory(number: string | null, enabled: boolean) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: companyKey(companyId, 'contact-history', number),
    queryFn: async (): Promise<Conversation[]> => {
      const list = (isArchived: boolean) =>
        http.get<Infer<typeof ConversationList>>(`/api/companies/${companyId}/conversations`, {
          params: { search: number, perPage: HISTORY_CONVERSATIONS, isArchived: isArchived ? 1 : 0 },
        });
      const [open, archived] = await Promise.all([list(false), list(true)]);
      return [...open.data, ...archived.data]
        .filter((c) => c.recipient === number)
        .sort((a, b) => b.lastActivityAt.localeCompare(a.lastActivityAt))
        .slice(0, HISTORY_CONVERSATIONS);
    },
    enabled: enabled && companyId !== null && Boolean(number),
  });
}
