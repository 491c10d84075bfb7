import { Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { SignInPage } from '../features/auth/components/SignInPage';
import { FullPageLoader, PublicOnly } from './guards';
import { page } from './lazy-page';

/** The paths of {@link publicRoutes}: pages anyone may open, signed in or not. */
export const PUBLIC_PATHS = ['/login', '/signup', '/forgot-password', '/reset-password', '/accept-invitation'] as const;

/** Whether `pathname` is one of {@link PUBLIC_PATHS}. */
export function isPublicPath(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  // The consumer area (features/caddy) has its own accounts and session: public to the business app.
  return (PUBLIC_PATHS as readonly string[]).includes(path) || path === '/caddy' || path.startsWith('/caddy/');
}

/**
 * The public pages, in both routers (app/App.tsx): sign-in and sign-up (a signed-in user goes on to the app), the
 * password reset and the invitation. The sign-in page, the one most visitors open first, is in the main chunk;
 * the others are their own chunks.
 */
export const publicRoutes: RouteObject[] = [
  {
    element: (
      <Suspense fallback={<FullPageLoader />}>
        <Outlet />
      </Suspense>
    ),
    children: [
      {
        element: <PublicOnly />,
        children: [
          { path: '/login', element: <SignInPage /> },
          { path: '/signup', ...page(() => import('../features/auth/components/SignUpPage'), 'SignUpPage') },
        ],
      },
      { path: '/forgot-password', ...page(() => import('../features/auth/components/ForgotPasswordPage'), 'ForgotPasswordPage') },
      { path: '/reset-password', ...page(() => import('../features/auth/components/ResetPasswordPage'), 'ResetPasswordPage') },
      { path: '/accept-invitation', ...page(() => import('../features/users/components/AcceptInvitationPage'), 'AcceptInvitationPage') },
      // The consumer area (docs/consumer-area.md): its own routes, session and sign-out, apart from the business app.
      // Through its entry, so the area's preload list stays out of the main chunk (features/caddy/entry.ts).
      { path: '/caddy/*', ...page(() => import('../features/caddy/entry').then((m) => m.loadCaddyApp()), 'CaddyApp') },
    ],
  },
];
