/** Sign out: end the server session, then clear the session, cached data and the live connection. */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { disconnectRealtime } from '../../../lib/realtime';
import { clearSession } from '../../../lib/session';
import { useLogout } from '../api/logout';

export function useSignOut() {
  const logout = useLogout();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = () =>
    logout.mutate(undefined, {
      onSettled: () => {
        clearSession();
        queryClient.clear();
        disconnectRealtime();
        navigate('/login', { replace: true });
      },
    });
  return { signOut, pending: logout.isPending };
}
