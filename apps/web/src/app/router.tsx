import { LINK_EXPIRED } from '@switchboard/domain';
import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { SignInPage } from '../features/auth/components/SignInPage';
import { setAfterLogout } from '../lib/http';
import { notify } from '../lib/notify';
import { PublicOnly, RequireAuth } from './guards';

/**
 * A route whose page is loaded when first visited (its own script chunk), so the sign-in page
 * does not download the whole app: `page(() => import('…'), 'ExportName')`. Mantine's whole
 * stylesheet comes with it (app/full-styles.ts).
 */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return async () => {
    const [module] = await Promise.all([load(), import('./full-styles')]);
    return { Component: module[name] as ComponentType };
  };
}

/**
 * Routes: public sign-in pages (/login, /signup, /forgot-password, /reset-password) and
 * the signed-in app (/inbox, /activity, /numbers, /numbers/:numberId, /simulator, /settings, …).
 * Every page is its own chunk, loaded on first visit.
 */
export const router = createBrowserRouter([
  {
    element: <PublicOnly />,
    children: [
      // The page most visitors open first is in the main chunk: no second round trip before it shows.
      { path: '/login', element: <SignInPage /> },
      { path: '/signup', lazy: page(() => import('../features/auth/components/SignUpPage'), 'SignUpPage') },
    ],
  },
  { path: '/forgot-password', lazy: page(() => import('../features/auth/components/ForgotPasswordPage'), 'ForgotPasswordPage') },
  { path: '/reset-password', lazy: page(() => import('../features/auth/components/ResetPasswordPage'), 'ResetPasswordPage') },
  { path: '/accept-invitation', lazy: page(() => import('../features/users/components/AcceptInvitationPage'), 'AcceptInvitationPage') },
  {
    element: <RequireAuth />,
    children: [
      // The development outbox shows a signed-in person their own mail only (docs/auth.md).
      { path: '/outbox', lazy: page(() => import('../features/outbox/components/OutboxPage'), 'OutboxPage') },
      {
        lazy: page(() => import('./layout/AppLayout'), 'AppLayout'),
        children: [
          { index: true, lazy: page(() => import('./routes/HomeRoute'), 'HomeRoute') },
          { path: '/inbox', lazy: page(() => import('./routes/InboxRoute'), 'InboxRoute') },
          { path: '/inbox/:conversationId', lazy: page(() => import('./routes/InboxRoute'), 'InboxRoute') },
          { path: '/activity', lazy: page(() => import('../features/activity/components/ActivityPage'), 'ActivityPage') },
          { path: '/contacts', lazy: page(() => import('./routes/ContactsRoute'), 'ContactsRoute') },
          { path: '/groups', lazy: page(() => import('./routes/GroupsRoute'), 'GroupsRoute') },
          { path: '/custom-fields', lazy: page(() => import('../features/custom-fields/components/CustomFieldsPage'), 'CustomFieldsPage') },
          { path: '/campaigns', lazy: page(() => import('../features/campaigns/components/CampaignsPage'), 'CampaignsPage') },
          { path: '/campaigns/new', lazy: page(() => import('./routes/CampaignRoutes'), 'CampaignEditorRoute') },
          { path: '/campaigns/:campaignId', lazy: page(() => import('./routes/CampaignRoutes'), 'CampaignDetailRoute') },
          { path: '/campaigns/:campaignId/edit', lazy: page(() => import('./routes/CampaignRoutes'), 'CampaignEditorRoute') },
          { path: '/numbers', lazy: page(() => import('./routes/NumbersRoute'), 'NumbersRoute') },
          { path: '/numbers/:numberId', lazy: page(() => import('./routes/TelephonyRoutes'), 'NumberEditorRoute') },
          { path: '/voicemail', lazy: page(() => import('../features/voicemail/components/VoicemailPage'), 'VoicemailPage') },
          { path: '/greetings', lazy: page(() => import('../features/greetings/components/GreetingsPage'), 'GreetingsPage') },
          { path: '/schedule', lazy: page(() => import('../features/schedule/components/SchedulePage'), 'SchedulePage') },
          { path: '/blocks', lazy: page(() => import('./routes/TelephonyRoutes'), 'BlocksRoute') },
          { path: '/number-templates', lazy: page(() => import('./routes/TelephonyRoutes'), 'NumberTemplatesRoute') },
          { path: '/ports', lazy: page(() => import('../features/ports/components/PortsPage'), 'PortsPage') },
          { path: '/calls/:callId', lazy: page(() => import('./routes/TelephonyRoutes'), 'CallRoute') },
          { path: '/dashboard', lazy: page(() => import('./routes/AnalyticsRoutes'), 'DashboardRoute') },
          { path: '/reports', lazy: page(() => import('./routes/AnalyticsRoutes'), 'ReportsRoute') },
          { path: '/favorite-reports', lazy: page(() => import('./routes/AlertsRoutes'), 'FavoriteReportsRoute') },
          { path: '/alerts', lazy: page(() => import('./routes/AlertsRoutes'), 'AlertsRoute') },
          { path: '/tracking', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingPoolsRoute') },
          { path: '/tracking/pools/:poolId', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingPoolRoute') },
          { path: '/tracking/sources', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingSourcesRoute') },
          { path: '/tracking/script', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingScriptRoute') },
          { path: '/tracking/feed', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingFeedRoute') },
          { path: '/tracking/sessions/:sessionId', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingSessionRoute') },
          { path: '/tracking/leads', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingLeadsRoute') },
          { path: '/tracking/leads/:leadId', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingLeadRoute') },
          { path: '/tracking/reports', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingReportsRoute') },
          { path: '/tracking/bulk-update', lazy: page(() => import('./routes/TrackingRoutes'), 'TrackingBulkUpdateRoute') },
          { path: '/organizations', lazy: page(() => import('./routes/AccountsRoutes'), 'OrganizationsRoute') },
          { path: '/organizations/:organizationId', lazy: page(() => import('./routes/AccountsRoutes'), 'OrganizationRoute') },
          { path: '/users', lazy: page(() => import('./routes/AccountsRoutes'), 'UsersRoute') },
          { path: '/api-keys', lazy: page(() => import('./routes/IntegrationsRoutes'), 'ApiKeysRoute') },
          { path: '/webhooks', lazy: page(() => import('./routes/IntegrationsRoutes'), 'WebhooksRoute') },
          { path: '/audit-log', lazy: page(() => import('./routes/IntegrationsRoutes'), 'AuditLogRoute') },
          { path: '/general-settings', lazy: page(() => import('./routes/WorkspaceRoutes'), 'GeneralSettingsRoute') },
          { path: '/tags', lazy: page(() => import('./routes/WorkspaceRoutes'), 'TagsRoute') },
          { path: '/data-groups', lazy: page(() => import('./routes/WorkspaceRoutes'), 'DataGroupsRoute') },
          { path: '/tenant', lazy: page(() => import('./routes/WorkspaceRoutes'), 'TenantRoute') },
          { path: '/support', lazy: page(() => import('./routes/WorkspaceRoutes'), 'SupportRoute') },
          { path: '/billing', lazy: page(() => import('../features/billing/components/BillingPage'), 'BillingPage') },
          { path: '/calls/search', lazy: page(() => import('./routes/CallIntelligenceRoutes'), 'CallSearchRoute') },
          { path: '/fax', lazy: page(() => import('./routes/FaxRoutes'), 'FaxRoute') },
          { path: '/sms-verification', lazy: page(() => import('./routes/ComplianceRoutes'), 'SmsVerificationRoute') },
          { path: '/marketplace', lazy: page(() => import('./routes/MarketplaceRoutes'), 'MarketplaceRoute') },
          { path: '/simulator', lazy: page(() => import('./routes/SimulatorRoute'), 'SimulatorRoute') },
          { path: '/settings', lazy: page(() => import('./routes/SettingsRoute'), 'SettingsRoute') },
          { path: '*', lazy: page(() => import('./routes/NotFound'), 'NotFound') },
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
