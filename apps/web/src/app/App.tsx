import { LINK_EXPIRED } from '@switchboard/domain';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useSessionBootstrap } from '../features/auth/hooks/use-session-bootstrap';
import { setAfterLogout } from '../lib/http';
import { notify } from '../lib/notify';
import { useSession } from '../lib/session';
import { FullPageLoader, readHint, writeHint } from './guards';
import { loadSignedInApp, navigateApp } from './navigation';
import { AppProviders } from './providers';
import { PublicApp } from './public-app';
import { isPublicPath } from './public-routes';

/** The signed-in app (app/router.tsx): the data router, the route table, the shell; its own chunk. */
const SignedInApp = lazy(() => loadSignedInApp().then((m) => ({ default: m.SignedInApp })));

// Foundation §8: after a forced logout, back to sign-in with "Link expired. Please log in."
setAfterLogout(() => {
  navigateApp('/login?expired=1', { replace: true });
  notify.show({ type: 'warn', message: LINK_EXPIRED });
});

/**
 * Which app is on screen (apps/web/README.md "First page"). A visitor who is not signed in gets the public app
 * (app/public-app.tsx): the sign-in form at once on `/`, `/login` or any deep link, with nothing of the signed-in
 * app downloaded. The signed-in app (its own chunk) comes once the session probe finds a user or a person signs in,
 * or at once, beside the probe, when this browser was signed in last time and the address is not a public page.
 */
function Root() {
  // The session probe (GET /api/user), once at start.
  useSessionBootstrap();
  const { status } = useSession();
  useEffect(() => writeHint(status), [status]);
  const [inApp, setInApp] = useState(() => readHint() && !isPublicPath(window.location.pathname));
  const enterApp = useCallback(() => setInApp(true), []);
  if (status === 'anonymous' && inApp) setInApp(false);
  if (status === 'authenticated' && !inApp && !isPublicPath(window.location.pathname)) setInApp(true);
  if (!inApp || status === 'anonymous') return <PublicApp onSignedIn={enterApp} />;
  return (
    <Suspense fallback={<FullPageLoader />}>
      <SignedInApp />
    </Suspense>
  );
}

/** The application root. */
export function App() {
  return (
    <AppProviders>
      <Root />
    </AppProviders>
  );
}
