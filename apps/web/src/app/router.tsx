import { LINK_EXPIRED } from '@switchboard/domain';
import { createBrowserRouter, Navigate } from 'react-router';
import { ActivityPage } from '../features/activity/components/ActivityPage';
import { ForgotPasswordPage } from '../features/auth/components/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/auth/components/ResetPasswordPage';
import { SignInPage } from '../features/auth/components/SignInPage';
import { SignUpPage } from '../features/auth/components/SignUpPage';
import { InboxPage } from '../features/inbox/components/InboxPage';
import { NumberEditorPage } from '../features/numbers/components/NumberEditorPage';
import { NumbersPage } from '../features/numbers/components/NumbersPage';
import { OutboxPage } from '../features/outbox/components/OutboxPage';
import { SettingsPage } from '../features/settings/components/SettingsPage';
import { setAfterLogout } from '../lib/http';
import { notify } from '../lib/notify';
import { PublicOnly, RequireAuth } from './guards';
import { AppLayout } from './layout/AppLayout';
import { NotFound } from './routes/NotFound';
import { SimulatorRoute } from './routes/SimulatorRoute';

/**
 * Routes: public sign-in pages (/login, /signup, /forgot-password, /reset-password, /outbox) and
 * the signed-in app (/inbox, /activity, /numbers, /numbers/:numberId, /simulator, /settings).
 */
export const router = createBrowserRouter([
  {
    element: <PublicOnly />,
    children: [
      { path: '/login', element: <SignInPage /> },
      { path: '/signup', element: <SignUpPage /> },
    ],
  },
  { path: '/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/reset-password', element: <ResetPasswordPage /> },
  { path: '/outbox', element: <OutboxPage /> },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <Navigate to="/inbox" replace /> },
          { path: '/inbox', element: <InboxPage /> },
          { path: '/inbox/:conversationId', element: <InboxPage /> },
          { path: '/activity', element: <ActivityPage /> },
          { path: '/numbers', element: <NumbersPage /> },
          { path: '/numbers/:numberId', element: <NumberEditorPage /> },
          { path: '/simulator', element: <SimulatorRoute /> },
          { path: '/settings', element: <SettingsPage /> },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
]);

// Foundation §8: after a forced logout, back to sign-in with "Link expired. Please log in."
setAfterLogout(() => {
  void router.navigate('/login?expired=1', { replace: true });
  notify.show({ type: 'warn', message: LINK_EXPIRED });
});
