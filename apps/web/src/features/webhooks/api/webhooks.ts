/**
 * Outbound webhooks (docs/api-and-webhooks.md): GET/POST /api/webhook-endpoints, PATCH/DELETE …/{id},
 * GET …/{id}/secret, POST …/{id}/rotate-secret, POST …/{id}/test, GET …/{id}/deliveries (page, status),
 * GET …/{id}/deliveries/{deliveryId}, POST …/{id}/deliveries/{deliveryId}/replay.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookInput, PageMeta, UpdateWebhookInput, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@switchboard/contracts';
import { http, request } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

function key(companyId: number | null) {
  return companyKey(companyId, 'webhooks');
}

export function useWebhooks() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...key(companyId), 'list'],
    queryFn: () => http.get<{ data: WebhookEndpoint[] }>('/api/webhook-endpoints', { params: { company_id: companyId } }),
    enabled: companyId !== null,
    select: (r) => r.data,
  });
}

export function useCreateWebhook() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<CreateWebhookInput, 'company_id'>) =>
      http.post<{ message: string; data: WebhookEndpoint }>('/api/webhook-endpoints', { ...input, company_id: companyId }, { silent: true }),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: key(companyId) });
    },
  });
}

export function useUpdateWebhook() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number; input: UpdateWebhookInput }) =>
      (await request<{ message: string; data: WebhookEndpoint }>(`/api/webhook-endpoints/${id}`, { method: 'PATCH', data: input, silent: true })).data,
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: key(companyId) });
    },
  });
}

export function useDeleteWebhook() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`/api/webhook-endpoints/${id}`),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: key(companyId) });
    },
  });
}

/** The signing secret, fetched only when asked (`enabled`). */
export function useWebhookSecret(id: number, enabled: boolean) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...key(companyId), 'secret', id],
    queryFn: () => http.get<{ data: { secret: string } }>(`/api/webhook-endpoints/${id}/secret`),
    enabled,
    select: (r) => r.data.secret,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useRotateSecret() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<{ message: string; data: { secret: string } }>(`/api/webhook-endpoints/${id}/rotate-secret`),
    onSuccess: (r, id) => {
      notify.success(r.message);
      qc.setQueryData([...key(companyId), 'secret', id], { data: r.data });
    },
  });
}

export function useSendTest() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<{ message: string; data: WebhookDelivery }>(`/api/webhook-endpoints/${id}/test`),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: [...key(companyId), 'deliveries'] });
    },
  });
}

/** An endpoint's delivery log; re-read every 3 s while a delivery is pending (retries land without a live event). */
export function useDeliveries(id: number | null, page: number, status: string | null) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...key(companyId), 'deliveries', id, page, status],
    queryFn: () =>
      http.get<{ data: WebhookDelivery[]; meta: PageMeta }>(`/api/webhook-endpoints/${id}/deliveries`, {
        params: { page, per_page: 20, status: status ?? undefined },
      }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 3000 : false),
  });
}

export function useDelivery(endpointId: number | null, deliveryId: number | null) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...key(companyId), 'deliveries', endpointId, 'one', deliveryId],
    queryFn: () =>
      http.get<{ data: WebhookDelivery & { payload: Record<string, unknown>; attempts_log: WebhookAttempt[] } }>(
        `/api/webhook-endpoints/${endpointId}/deliveries/${deliveryId}`,
      ),
    enabled: endpointId !== null && deliveryId !== null,
    select: (r) => r.data,
  });
}

/**
 * The delivery of a test event just sent, re-read every second until its first attempt is known (issue 23: "Send
 * test event" gave no feedback); later retries are the delivery log's.
 */
export function useTestDelivery(endpointId: number, deliveryId: number) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...key(companyId), 'deliveries', endpointId, 'one', deliveryId],
    queryFn: () => http.get<{ data: WebhookDelivery }>(`/api/webhook-endpoints/${endpointId}/deliveries/${deliveryId}`),
    select: (r) => r.data,
    refetchInterval: (q) => {
      const d = q.state.data?.data;
      return !d || (d.status === 'pending' && d.attempts === 0) ? 1000 : false;
    },
  });
}

export function useReplay() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, deliveryId }: { endpointId: number; deliveryId: number }) =>
      http.post<{ message: string; data: WebhookDelivery }>(`/api/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/replay`),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: [...key(companyId), 'deliveries'] });
    },
  });
}
