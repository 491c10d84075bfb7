import { LINK_EXPIRED } from '@switchboard/domain';
import { createBrowserRouter, Navigate } from 'react-router';
import { ActivityPage } from '../features/activity/components/ActivityPage';
import { CampaignsPage } from '../features/campaigns/components/CampaignsPage';
import { CustomFieldsPage } from '../features/custom-fields/components/CustomFieldsPage';
import { ForgotPasswordPage } from '../features/auth/components/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/auth/components/ResetPasswordPage';
import { SignInPage } from '../features/auth/components/SignInPage';
import { SignUpPage } from '../features/auth/components/SignUpPage';
import { NumbersPage } from '../features/numbers/components/NumbersPage';
import { OutboxPage } from '../features/outbox/components/OutboxPage';
import { setAfterLogout } from '../lib/http';
import { notify } from '../lib/notify';
import { PublicOnly, RequireAuth } from './guards';
import { AppLayout } from './layout/AppLayout';
import { CampaignDetailRoute, CampaignEditorRoute } from './routes/CampaignRoutes';
import { ContactsRoute } from './routes/ContactsRoute';
import { GroupsRoute } from './routes/GroupsRoute';
import { InboxRoute } from './routes/InboxRoute';
import { NotFound } from './routes/NotFound';
import { SettingsRoute } from './routes/SettingsRoute';
import { SimulatorRoute } from './routes/SimulatorRoute';
import { BlocksRoute, CallRoute, NumberEditorRoute, NumberTemplatesRoute } from './routes/TelephonyRoutes';
import { GreetingsPage } from '../features/greetings/components/GreetingsPage';
import { PortsPage } from '../features/ports/components/PortsPage';
import { SchedulePage } from '../features/schedule/components/SchedulePage';
import { VoicemailPage } from '../features/voicemail/components/VoicemailPage';

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
          { path: '/inbox', element: <InboxRoute /> },
          { path: '/inbox/:conversationId', element: <InboxRoute /> },
          { path: '/activity', element: <ActivityPage /> },
          { path: '/contacts', element: <ContactsRoute /> },
          { path: '/groups', element: <GroupsRoute /> },
          { path: '/custom-fields', element: <CustomFieldsPage /> },
          { path: '/campaigns', element: <CampaignsPage /> },
          { path: '/campaigns/new', element: <CampaignEditorRoute /> },
          { path: '/campaigns/:campaignId', element: <CampaignDetailRoute /> },
          { path: '/campaigns/:campaignId/edit', element: <CampaignEditorRoute /> },
          { path: '/numbers', element: <NumbersPage /> },
          { path: '/numbers/:numberId', element: <NumberEditorRoute /> },
          { path: '/voicemail', element: <VoicemailPage /> },
          { path: '/greetings', element: <GreetingsPage /> },
          { path: '/schedule', element: <SchedulePage /> },
          { path: '/blocks', element: <BlocksRoute /> },
          { path: '/number-templates', element: <NumberTemplatesRoute /> },
          { path: '/ports', element: <PortsPage /> },
          { path: '/calls/:callId', element: <CallRoute /> },
          { path: '/simulator', element: <SimulatorRoute /> },
          { path: '/settings', element: <SettingsRoute /> },
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
