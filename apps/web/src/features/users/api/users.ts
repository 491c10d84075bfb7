/**
 * Users of the selected account and their invitations (docs/accounts.md): GET /api/roles,
 * GET /api/companies/{companyId}/users, PUT|DELETE .../users/{userId}, POST .../activate|deactivate,
 * GET|POST /api/companies/{companyId}/invitations, POST .../{id}/resend, DELETE .../{id}, and the
 * public accept page's GET /api/invitations/{token}, POST /api/invitations/{token}/accept.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Infer,
  EavAttributeList,
  AcceptInvitationInput,
  InvitationAccepted,
  InvitationList,
  InvitationOut,
  InvitationPreview,
  InvitationSaved,
  InviteInput,
  InviteSaved,
  MemberList,
  MemberOut,
  MemberSaved,
  OutboxList,
  RolesBody,
  UpdateMemberInput,
} from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId, type SessionUser } from '../../../lib/session';

export type Member = MemberOut;
export type Invitation = InvitationOut;
export type RoleOption = Infer<typeof RolesBody>['data'][number];

const usersKey = (companyId: number | null) => companyKey(companyId, 'users');
const invitationsKey = (companyId: number | null) => companyKey(companyId, 'invitations');

export function useRoles() {
  return useQuery({
    queryKey: ['roles'],
    queryFn: () => http.get<Infer<typeof RolesBody>>('/api/roles'),
    staleTime: Infinity,
    select: (r) => r.data,
  });
}

export function useMembers(enabled = true) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: usersKey(companyId),
    // The spec's `/users` (spec 002 §7), the account in `company_id`.
    queryFn: () => http.get<Infer<typeof MemberList>>('/api/users', { params: { company_id: companyId } }),
    enabled: enabled && companyId !== null,
    select: (r) => r.data,
  });
}

export function useInvitations(enabled = true) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: invitationsKey(companyId),
    queryFn: () => http.get<Infer<typeof InvitationList>>(`/api/companies/${companyId}/invitations`),
    enabled: enabled && companyId !== null,
    select: (r) => r.data,
  });
}

function useRefreshUsers() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: usersKey(companyId) }), queryClient.invalidateQueries({ queryKey: invitationsKey(companyId) })]);
}

export function useUpdateMember() {
  const companyId = useCompanyId();
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: ({ userId, ...body }: UpdateMemberInput & { userId: number }) =>
      http.put<Infer<typeof MemberSaved>>(`/api/companies/${companyId}/users/${userId}`, body),
    onSuccess: refresh,
  });
}

export function useSetMemberActive() {
  const companyId = useCompanyId();
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: ({ userId, active }: { userId: number; active: boolean }) =>
      http.post<Infer<typeof MemberSaved>>(`/api/companies/${companyId}/users/${userId}/${active ? 'activate' : 'deactivate'}`),
    onSuccess: refresh,
  });
}

export function useRemoveMember() {
  const companyId = useCompanyId();
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: (userId: number) => http.delete<{ message: string }>(`/api/companies/${companyId}/users/${userId}`),
    onSuccess: refresh,
  });
}

export function useInvite() {
  const companyId = useCompanyId();
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: (body: InviteInput) => http.post<Infer<typeof InviteSaved>>(`/api/companies/${companyId}/invitations`, body, { silent: true }),
    onSuccess: refresh,
  });
}

export function useResendInvitation() {
  const companyId = useCompanyId();
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: (id: number) => http.post<Infer<typeof InvitationSaved>>(`/api/companies/${companyId}/invitations/${id}/resend`),
    onSuccess: refresh,
  });
}

export function useCancelInvitation() {
  const companyId = useCompanyId();
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`/api/companies/${companyId}/invitations/${id}`),
    onSuccess: refresh,
  });
}

/** Public: what the invitation link invites to (404 used/unknown, 410 expired: shown by the page). */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: () => http.get<Infer<typeof InvitationPreview>>(`/api/invitations/${encodeURIComponent(token)}`, { skipAuthHandling: true, silent: true }),
    enabled: token.length > 0,
    retry: false,
    select: (r) => r.data,
  });
}

/**
 * GET /api/dev/outbox/invitations/{token} (public, development outbox only; docs/auth.md): the invitation's own mail,
 * readable through the link by an invitee without an account. Asked only when the preview says mail goes to the
 * development outbox; quiet (a failure shows nothing more than the invitation itself).
 */
export function useInvitationMail(token: string, enabled: boolean) {
  return useQuery({
    queryKey: ['invitation', token, 'mail'],
    queryFn: () => http.get<OutboxList>(`/api/dev/outbox/invitations/${encodeURIComponent(token)}`, { skipAuthHandling: true, silent: true }),
    enabled: enabled && token.length > 0,
    retry: false,
    select: (r) => r.data,
  });
}

/** GET /api/user after accepting: the invitee, now signed in (the accept answer set the session cookie). */
export function getSignedInUser(): Promise<SessionUser> {
  return http.get<SessionUser>('/api/user', { skipAuthHandling: true });
}

export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: (body: AcceptInvitationInput) =>
      http.post<Infer<typeof InvitationAccepted>>(`/api/invitations/${encodeURIComponent(token)}/accept`, body, { skipAuthHandling: true, silent: true }),
  });
}

/** GET /api/eavAttributes?company_id&entity_type=5: the account's custom fields of users (entity type User 5). */
export function useUserAttributes(enabled: boolean) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...companyKey(companyId, 'eav-attributes'), 5],
    queryFn: () => http.get<Infer<typeof EavAttributeList>>('/api/eavAttributes', { params: { company_id: companyId, entity_type: 5 } }),
    enabled: enabled && companyId !== null,
    select: (r) => r.data,
  });
}
