/**
 * Admin mode calls (spec 000 §3 `isAdmin`, §4 "Admin login", §7 `GET /sanctum/remoteLogin/{x}`; docs/auth.md
 * "Admin mode"): the current session's admin facts, opening an account as an operator, leaving admin mode.
 */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AdminSession, RemoteLoginResponse, UserEnvelope } from '@switchboard/contracts';
import { http } from '../../../lib/http';

/** Query key of the admin facts; cleared with the rest of the cache on every switch of session. */
export const ADMIN_SESSION_KEY = ['admin-session'] as const;

export function adminSessionQueryOptions() {
  // Re-read every minute: the banner's time left and the hard end of the session.
  return queryOptions({ queryKey: ADMIN_SESSION_KEY, queryFn: () => http.get<AdminSession>('/api/sanctum/admin-session'), staleTime: 60_000 });
}

export function useAdminSession() {
  return useQuery(adminSessionQueryOptions());
}

/** GET /api/sanctum/remoteLogin/{companyId}: an operator opens the account (the server switches the session cookie). */
export function useRemoteLogin() {
  return useMutation({ mutationFn: (companyId: number) => http.get<RemoteLoginResponse>(`/api/sanctum/remoteLogin/${companyId}`) });
}

/** POST /api/sanctum/admin-session/leave: back to the operator's own session. */
export function useLeaveAdminMode() {
  return useMutation({ mutationFn: () => http.post<UserEnvelope>('/api/sanctum/admin-session/leave') });
}
