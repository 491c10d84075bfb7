import { Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession, type SessionStatus } from '../lib/session';
import { loadSignedInApp } from './navigation';

/** The loader shown while the session probe or a page's chunk is out. */
export function FullPageLoader() {
  return (
    <Center h="100vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}

/**
 * localStorage key remembering that this browser had a signed-in session ('1'). Only a hint about what to show
 * while the session probe (GET /api/user) is out, never an authorization: the server decides.
 */
const SIGNED_IN_HINT_KEY = 'switchboard.signedIn';

/** Whether this browser had a signed-in session last time (see {@link SIGNED_IN_HINT_KEY}). */
export function readHint(): boolean {
  try {
    return globalThis.localStorage?.getItem(SIGNED_IN_HINT_KEY) === '1';
  } catch (error) {
    if (error instanceof DOMException) return false; // storage unavailable (disabled, private mode)
    throw error;
  }
}

/** Remembers the probe's answer for the next start (nothing while it is still out). */
export function writeHint(status: SessionStatus): void {
  if (status === 'unknown') return;
  try {
    if (status === 'authenticated') globalThis.localStorage?.setItem(SIGNED_IN_HINT_KEY, '1');
    else globalThis.localStorage?.removeItem(SIGNED_IN_HINT_KEY);
  } catch (error) {
    if (!(error instanceof DOMException)) throw error;
  }
}

/** A path of this app (not `//host`), else undefined (the same test as the sign-in page's). */
export function appPath(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?![/\\])[^\s\\\u0000-\u001f\u007f]*$/.test(value) ? value : undefined;
}

/**
 * Sign-in and sign-up: a signed-in user goes straight to the app (to `state.from`, the page a deep link asked
 * for, else /inbox). The form shows at once, while the session probe is still out (most visitors here are not
 * signed in); one who is stays on it until the signed-in app and that page are loaded, then goes on (no loader
 * in between, as a data router keeps the current page while the next one loads).
 */
export function PublicOnly() {
  const { status } = useSession();
  const location = useLocation();
  const from = appPath((location.state as { from?: unknown } | null)?.from);
  const target = from && !/^\/(login|signup)\b/.test(from) ? from : '/inbox';
  const [readyFor, setReadyFor] = useState<string | null>(null);
  useEffect(() => {
    if (status !== 'authenticated') return;
    let live = true;
    const done = () => {
      if (live) setReadyFor(target);
    };
    loadSignedInApp()
      .then((app) => app.preloadPages(new URL(target, window.location.origin).pathname))
      .then(done, done);
    return () => {
      live = false;
    };
  }, [status, target]);
  if (status === 'authenticated' && readyFor === target) return <Navigate to={target} replace />;
  return <Outlet />;
}
