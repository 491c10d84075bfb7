/**
 * Organizations (business units) the person administers, their accounts, users and administrators
 * (docs/accounts.md): /api/business-units CRUD, .../companies (create, bulk-update), .../admins; the spec's
 * /api/business-unit-companies (list by `businessUnitId`, status, delete) and /api/business-unit-users.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Infer,
  BulkAccountUpdateInput,
  BulkAccountUpdated,
  CreateOrganizationCompanyInput,
  OrganizationAdminList,
  OrganizationAdminSaved,
  OrganizationBody,
  OrganizationCompanyList,
  OrganizationCompanySaved,
  OrganizationList,
  OrganizationSaved,
  OrganizationUserList,
  AccountStatus,
} from '@switchboard/contracts';
import { http } from '../../../lib/http';

export type Organization = Infer<typeof OrganizationBody>['data'];
export type OrganizationCompany = Infer<typeof OrganizationCompanyList>['data'][number];
export type OrganizationUser = Infer<typeof OrganizationUserList>['data'][number];
export type OrganizationAdmin = Infer<typeof OrganizationAdminList>['data'][number];

const orgsKey = ['business-units'];
const orgKey = (id: number) => ['business-units', id];

export function useOrganizations() {
  return useQuery({
    queryKey: orgsKey,
    queryFn: () => http.get<Infer<typeof OrganizationList>>('/api/business-units', { params: { perPage: 1000 } }),
  });
}

export function useOrganization(id: number) {
  return useQuery({
    queryKey: orgKey(id),
    queryFn: () => http.get<Infer<typeof OrganizationBody>>(`/api/business-units/${id}`, { silent: true }),
    select: (r) => r.data,
    retry: false,
  });
}

export function useOrganizationCompanies(id: number, q: { page: number; search: string; status: AccountStatus | null }) {
  return useQuery({
    queryKey: [...orgKey(id), 'companies', q],
    queryFn: () =>
      http.get<Infer<typeof OrganizationCompanyList>>('/api/business-unit-companies', {
        params: { businessUnitId: id, page: q.page, perPage: 100, search: q.search || undefined, status: q.status ?? undefined },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useOrganizationUsers(id: number) {
  return useQuery({
    queryKey: [...orgKey(id), 'users'],
    queryFn: () => http.get<Infer<typeof OrganizationUserList>>('/api/business-unit-users', { params: { businessUnitId: id } }),
    select: (r) => r.data,
  });
}

export function useOrganizationAdmins(id: number) {
  return useQuery({
    queryKey: [...orgKey(id), 'admins'],
    queryFn: () => http.get<Infer<typeof OrganizationAdminList>>(`/api/business-units/${id}/admins`),
    select: (r) => r.data,
  });
}

function useRefresh(id?: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: id ? orgKey(id) : orgsKey }),
      queryClient.invalidateQueries({ queryKey: orgsKey, exact: true }),
      // The switcher lists the accounts the person reaches.
      queryClient.invalidateQueries({ queryKey: ['companies'] }),
    ]);
}

export function useCreateOrganization() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (name: string) => http.post<Infer<typeof OrganizationSaved>>('/api/business-units', { name }, { silent: true }),
    onSuccess: refresh,
  });
}

export function useRenameOrganization(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (name: string) => http.put<Infer<typeof OrganizationSaved>>(`/api/business-units/${id}`, { name }, { silent: true }),
    onSuccess: refresh,
  });
}

export function useDeleteOrganization(id: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => http.delete<{ message: string }>(`/api/business-units/${id}`),
    onSuccess: refresh,
  });
}

export function useCreateAccount(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (body: CreateOrganizationCompanyInput) =>
      http.post<Infer<typeof OrganizationCompanySaved>>(`/api/business-units/${id}/companies`, body, { silent: true }),
    onSuccess: refresh,
  });
}

export function useSetAccountStatus(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: ({ accountId, status }: { accountId: number; status: AccountStatus }) =>
      http.put<Infer<typeof OrganizationCompanySaved>>(`/api/business-unit-companies/${accountId}/status`, { status }),
    onSuccess: refresh,
  });
}

export function useDeleteAccount(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (accountId: number) => http.delete<{ message: string }>(`/api/business-unit-companies/${accountId}`),
    onSuccess: refresh,
  });
}

export function useBulkUpdateAccounts(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (body: BulkAccountUpdateInput) => http.post<Infer<typeof BulkAccountUpdated>>(`/api/business-units/${id}/companies/bulk-update`, body),
    onSuccess: refresh,
  });
}

export function useAddAdmin(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (email: string) => http.post<Infer<typeof OrganizationAdminSaved>>(`/api/business-units/${id}/admins`, { email }, { silent: true }),
    onSuccess: refresh,
  });
}

export function useRemoveAdmin(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (userId: number) => http.delete<{ message: string }>(`/api/business-units/${id}/admins/${userId}`),
    onSuccess: refresh,
  });
}
