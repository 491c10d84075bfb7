import { useEffect } from 'react';
import { BrowserRouter, Navigate, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router';
import { useSession } from '../lib/session';
import { FullPageLoader } from './guards';
import { setNavigator } from './navigation';
import { publicRoutes } from './public-routes';

/**
 * Any other address, for a visitor who is not known to be signed in: straight to the sign-in form, coming back here
 * after signing in (`state.from`). Signed in (the probe found a session, or the person just signed in), it hands
 * over to the signed-in app (`onSignedIn`, app/App.tsx) and shows the loader meanwhile.
 */
function ElsewhereRoute({ onSignedIn }: { onSignedIn: () => void }) {
  const { status } = useSession();
  const location = useLocation();
  const signedIn = status === 'authenticated';
  useEffect(() => {
    if (signedIn) onSignedIn();
  }, [signedIn, onSignedIn]);
  if (signedIn) return <FullPageLoader />;
  return <Navigate to="/login" replace state={{ from: location.pathname + location.search + location.hash }} />;
}

/** Registers this router's navigate for app/navigation.ts while it is on screen. */
function NavigatorRegistration() {
  const navigate = useNavigate();
  useEffect(() => setNavigator((to, options) => void navigate(to, options)), [navigate]);
  return null;
}

function PublicRoutes({ onSignedIn }: { onSignedIn: () => void }) {
  const routes: RouteObject[] = [...publicRoutes, { path: '*', element: <ElsewhereRoute onSignedIn={onSignedIn} /> }];
  return useRoutes(routes);
}

/**
 * What a visitor who is not signed in gets (apps/web/README.md "First page"): the public pages with a plain browser
 * router, in the main chunk, without the data router, the signed-in shell or its pages. `onSignedIn` is called when
 * a signed-in person is on an address of the signed-in app.
 */
export function PublicApp({ onSignedIn }: { onSignedIn: () => void }) {
  return (
    <BrowserRouter>
      <NavigatorRegistration />
      <PublicRoutes onSignedIn={onSignedIn} />
    </BrowserRouter>
  );
}
