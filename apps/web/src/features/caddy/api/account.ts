/**
 * The person's account (docs/consumer-area.md): profile with plan and subscription state, usage (live: api/live.ts),
 * invitations, the one review, support uploads and reports, account deletion.
 */
import type {
  CaddyInvitationAnswer,
  CaddyInvitationList,
  CaddyMessageAnswer,
  CaddyProfileAnswer,
  CaddyReportAnswer,
  CaddyReviewAnswer,
  CaddyReviewSaved,
  CaddySandboxAnswer,
  CaddyUploadAnswer,
  CaddyUsageAnswer,
  Infer,
} from '@switchboard/contracts';
import { CADDY_INVITATIONS_PER_PAGE } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { caddy, caddyRequest, useCaddySession } from './client';
import { caddyKey } from './numbers';

export type CaddyProfile = Infer<typeof CaddyProfileAnswer>['data'];
export type CaddyUsage = Infer<typeof CaddyUsageAnswer>['data'];
export type CaddyInvitation = Infer<typeof CaddyInvitationList>['data'][number];
export type CaddyReview = NonNullable<Infer<typeof CaddyReviewAnswer>['data']>;
type MessageAnswer = Infer<typeof CaddyMessageAnswer>;

function useAccountId(): number | null {
  return useCaddySession()?.accountId ?? null;
}

/** `GET /caddy/profile`: name, e-mail or phone, plan and subscription state. */
export function useCaddyProfile() {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'profile'),
    queryFn: ({ signal }) => caddy.get<Infer<typeof CaddyProfileAnswer>>('/profile', undefined, signal),
    enabled: accountId !== null,
    staleTime: 30_000,
    refetchOnMount: true,
    select: (r) => r.data,
  });
}

/** `PUT /caddy/profile {name}`. */
export function useSaveProfile() {
  const accountId = useAccountId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => caddy.put<MessageAnswer>('/profile', input),
    onSuccess: () => void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'profile') }),
  });
}

/** `DELETE /caddy/accounts`: the account and its data go; the answer says the store subscription is not cancelled. */
export function useDeleteAccount() {
  return useMutation({ mutationFn: () => caddy.delete<MessageAnswer>('/accounts') });
}

/** `GET /caddy/billing/usage`: this month's usage against the plan (kept current by the live channel, api/live.ts). */
export function useCaddyUsage() {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'usage'),
    queryFn: ({ signal }) => caddy.get<Infer<typeof CaddyUsageAnswer>>('/billing/usage', undefined, signal),
    enabled: accountId !== null,
    refetchOnMount: true,
    select: (r) => r.data,
  });
}

/** `GET /caddy/invitations?page=1&perPage=1000`: the person's invitations and who joined. */
export function useInvitations() {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'invitations'),
    queryFn: ({ signal }) => caddy.get<Infer<typeof CaddyInvitationList>>('/invitations', { page: 1, perPage: CADDY_INVITATIONS_PER_PAGE }, signal),
    enabled: accountId !== null,
    refetchOnMount: true,
    select: (r) => r.data,
  });
}

/** `POST /caddy/invitations {phoneNumber}`: a text with a link to the app (10 a day, one per number a week). */
export function useInvite() {
  const accountId = useAccountId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (phoneNumber: string) => caddy.post<Infer<typeof CaddyInvitationAnswer>>('/invitations', { phoneNumber }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'invitations') });
      void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'usage') });
    },
  });
}

/** `GET /caddy/reviews`: the person's one review, or null. */
export function useReview() {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'review'),
    queryFn: ({ signal }) => caddy.get<Infer<typeof CaddyReviewAnswer>>('/reviews', undefined, signal),
    enabled: accountId !== null,
    select: (r) => r.data,
  });
}

/** `POST /caddy/reviews {rating, comment}`: leaves or edits the one review. */
export function useSaveReview() {
  const accountId = useAccountId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { rating: number; comment: string }) => caddy.post<Infer<typeof CaddyReviewSaved>>('/reviews', input),
    onSuccess: (answer) => qc.setQueryData(caddyKey(accountId, 'review'), { data: answer.data }),
  });
}

export type UploadedFile = Infer<typeof CaddyUploadAnswer>['data'];

/** `POST /caddy/support/upload-file` (multipart `file`). */
export async function uploadSupportFile(file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.append('file', file);
  return (await caddyRequest<Infer<typeof CaddyUploadAnswer>>('/support/upload-file', { method: 'POST', data: form })).data.data;
}

/** `POST /caddy/support/customer-report` (multipart: subject, message, email?, fileIds[] of earlier uploads). */
export function useSendReport() {
  return useMutation({
    mutationFn: async (input: { subject: string; message: string; email?: string; fileIds: string[] }) => {
      const form = new FormData();
      form.append('subject', input.subject);
      form.append('message', input.message);
      if (input.email) form.append('email', input.email);
      for (const id of input.fileIds) form.append('fileIds', id);
      return (await caddyRequest<Infer<typeof CaddyReportAnswer>>('/support/customer-report', { method: 'POST', data: form })).data;
    },
  });
}

/**
 * Whether this server runs the offline sandbox store (`CADDY_STORES=sandbox`, docs/consumer-area.md "Sandbox store").
 * There is no read call for it, so this asks the sandbox's notification call with an empty body: answered 422 (the
 * body refused, nothing done) where the sandbox exists, 404 where it does not (live stores).
 */
export function useSandboxStoreAvailable() {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'sandbox-store'),
    queryFn: async () => {
      try {
        await caddyRequest('/stores/sandbox/notifications', { method: 'POST', data: {} });
        return true;
      } catch (error) {
        return (error as { status?: number }).status === 422;
      }
    },
    enabled: accountId !== null,
    staleTime: Infinity,
  });
}

/** The sandbox store's subscribe and cancel (`POST /caddy/stores/sandbox/subscribe`, `…/cancel`); refreshes plan and usage. */
export function useSandboxStore() {
  const accountId = useAccountId();
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'profile') });
    void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'usage') });
    void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'numbers') });
  };
  const subscribe = useMutation({
    mutationFn: (input: { store: 'apple' | 'google'; plan: string }) => caddy.post<Infer<typeof CaddySandboxAnswer>>('/stores/sandbox/subscribe', input),
    onSuccess: refresh,
  });
  const cancel = useMutation({
    mutationFn: () => caddy.post<Infer<typeof CaddySandboxAnswer>>('/stores/sandbox/cancel', {}),
    onSuccess: refresh,
  });
  return { subscribe, cancel };
}
