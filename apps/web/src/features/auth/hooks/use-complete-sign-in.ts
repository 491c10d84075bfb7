/**
 * After a successful login, MFA step or sign-up: re-read the current user (GET /api/user carries the
 * companies), store the session, open the live connection and go to the page asked for. Notices of the failed
 * attempts before (a wrong password, an expired code) are removed: they no longer apply (issue 23).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/notify';
import { connectRealtime } from '../../../lib/realtime';
import { signIn, type SessionUser } from '../../../lib/session';
import { userQueryOptions } from '../api/get-user';

export function useCompleteSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (fallbackUser: SessionUser | undefined, redirectTo: string) => {
    const options = userQueryOptions();
    await queryClient.invalidateQueries({ queryKey: options.queryKey });
    const user = await queryClient.fetchQuery(options).catch(() => fallbackUser);
    if (!user) return;
    signIn(user);
    notify.clear();
    connectRealtime();
    navigate(redirectTo, { replace: true });
  };
}
