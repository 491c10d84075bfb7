/**
 * The operators' outbox calls (docs/operations.md "Domain-event outbox"; operators only, 403 for anyone else):
 * - GET  /api/ops/outbox: consumers and the newest dead letters, read again every 5 s while the screen is open;
 * - POST /api/ops/outbox/consumers/{consumer}/retry {eventId?}: dead letters due again;
 * - POST /api/ops/outbox/consumers/{consumer}/replay {since, companyId?}: the consumer takes its events again.
 * Not company data: the query key names no company.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OutboxCount, OutboxReplayInput, OutboxRetryInput, OutboxStatus } from '@switchboard/contracts';
import { http, HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { OUTBOX_REFRESH_MS } from '../outbox-view';

/** Query key of the outbox's status. */
export const OUTBOX_STATUS_KEY = ['ops', 'outbox'] as const;

/**
 * The outbox's status, read again every {@link OUTBOX_REFRESH_MS} (also in a background tab: an operator keeps
 * it open while fixing). Silent: a refusal (403, not an operator) is the screen's "not available" state, not a
 * toast every 5 s. `enabled` false (not an operator) asks nothing.
 */
export function useOutboxStatus(enabled: boolean) {
  return useQuery({
    queryKey: OUTBOX_STATUS_KEY,
    queryFn: ({ signal }) => http.get<OutboxStatus>('/api/ops/outbox', { silent: true, signal }),
    enabled,
    refetchInterval: OUTBOX_REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    // A refusal will not change by asking again; anything else is retried by the next refresh.
    retry: (count, error) => !(error instanceof HttpError && error.status === 403) && count < 1,
  });
}

/** Retries one consumer's dead letters (all, or one event's); shows the answer's sentence and reads the status again. */
export function useRetryDeadLetters() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ consumer, ...body }: OutboxRetryInput & { consumer: string }) =>
      http.post<OutboxCount>(`/api/ops/outbox/consumers/${encodeURIComponent(consumer)}/retry`, body),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: OUTBOX_STATUS_KEY });
    },
  });
}

/** Replays a consumer from a point in time. Silent: the dialog shows 422 field errors beside its inputs. */
export function useReplayConsumer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ consumer, ...body }: OutboxReplayInput & { consumer: string }) =>
      http.post<OutboxCount>(`/api/ops/outbox/consumers/${encodeURIComponent(consumer)}/replay`, body, { silent: true }),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: OUTBOX_STATUS_KEY });
    },
  });
}
