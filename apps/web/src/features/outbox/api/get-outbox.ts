/**
 * GET /api/dev/outbox: the development mail outbox (mails kept in the database when SMTP_URL is
 * unset), signed-in only: the caller's own mail, or every mail for an operator.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutboxList } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export type OutboxMail = OutboxList['data'][number];

export function getOutbox(): Promise<OutboxList> {
  return http.get<OutboxList>('/api/dev/outbox');
}

export function outboxQueryOptions() {
  return queryOptions({ queryKey: ['dev-outbox'], queryFn: getOutbox, staleTime: 0 });
}

export function useOutbox() {
  return useQuery({ ...outboxQueryOptions(), refetchOnMount: 'always' });
}
