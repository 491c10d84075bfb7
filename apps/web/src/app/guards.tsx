import { Center, Loader } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSessionBootstrap } from '../features/auth/hooks/use-session-bootstrap';
import { useSession } from '../lib/session';

function FullPageLoader() {
  return (
    <Center h="100vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}

/** Routes for signed-in users; others go to /login (and come back after signing in). */
export function RequireAuth() {
  useSessionBootstrap();
  const { status } = useSession();
  const location = useLocation();
  if (status === 'unknown') return <FullPageLoader />;
  if (status === 'anonymous') return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

/**
 * Sign-in and sign-up: a signed-in user goes straight to the app. The form shows at once, while
 * the session probe is still out (most visitors here are not signed in; one who is is redirected
 * as soon as the probe answers).
 */
export function PublicOnly() {
  useSessionBootstrap();
  const { status } = useSession();
  if (status === 'authenticated') return <Navigate to="/inbox" replace />;
  return <Outlet />;
}
