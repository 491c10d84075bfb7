/**
 * At start, asks the server who is signed in (GET /api/user, without the automatic 401 handling):
 * a user → the session is stored and the live connection opened; otherwise the visitor is anonymous.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectRealtime } from '../../../lib/realtime';
import { clearSession, getSession, signIn } from '../../../lib/session';
import { userQueryOptions } from '../api/get-user';

export function useSessionBootstrap() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (getSession().status !== 'unknown') return;
    queryClient
      .fetchQuery(userQueryOptions())
      .then((user) => {
        signIn(user);
        connectRealtime();
      })
      .catch(() => clearSession());
  }, [queryClient]);
}
