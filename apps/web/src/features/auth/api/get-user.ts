/**
 * GET /api/user (foundation §7): the current user. Used as the session probe at start, so it skips
 * the automatic 401 handling (a visitor who is not signed in simply sees the sign-in page).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import type { SessionUser } from '../../../lib/session';

export function getUser(): Promise<SessionUser> {
  return http.get<SessionUser>('/api/user', { skipAuthHandling: true });
}

export function userQueryOptions() {
  return queryOptions({ queryKey: ['user'], queryFn: getUser, staleTime: CACHE_MS.company });
}

export function useUser() {
  return useQuery(userQueryOptions());
}
