/**
 * The signed-in app's router (apps/web/README.md "First page"): loaded as its own chunk by app/App.tsx only when a
 * user is signed in (or was, last time, while the session probe is out), with the data router, the route table and
 * the layout's pages. Every page is its own chunk too, fetched when first shown (app/lazy-page.ts).
 */
import { Suspense, useDeferredValue, useEffect, useState } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, Outlet, useLocation, useMatches, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { useSession } from '../lib/session';
import { FullPageLoader } from './guards';
import { page, type PreloadHandle } from './lazy-page';
import { setNavigator } from './navigation';
import { publicRoutes } from './public-routes';

/**
 * Routes for signed-in users (apps/web/README.md "First page"):
 * - signed in: the pages, fetched when first shown; the matched pages' chunks are fetched together;
 * - probe still out (this browser was signed in last time, app/App.tsx): the loader, while those chunks are fetched;
 * - not signed in: to /login, coming back here after signing in (`state.from`).
 */
function RequireAuth() {
  // Deferred: the switch from the loader to the shell and its page renders as a transition, in slices, rather than
  // as one long task (apps/web/README.md "First page").
  const status = useDeferredValue(useSession().status);
  const location = useLocation();
  const matches = useMatches();
  useEffect(() => {
    if (status === 'anonymous') return;
    for (const match of matches) void (match.handle as PreloadHandle | undefined)?.preload?.();
  }, [status, matches]);
  if (status === 'authenticated') {
    return (
      <Suspense fallback={<FullPageLoader />}>
        <Outlet />
      </Suspense>
    );
  }
  if (status === 'unknown') return <FullPageLoader />;
  return <Navigate to="/login" replace state={{ from: location.pathname + location.search + location.hash }} />;
}

/**
 * Routes: the public pages (app/public-routes.tsx: /login, /signup, /forgot-password, /reset-password,
 * /accept-invitation) and the signed-in app (/inbox, /activity, /numbers, /numbers/:numberId, /simulator,
 * /settings, …).
 */
const routes: RouteObject[] = [
  ...publicRoutes,
  {
    element: <RequireAuth />,
    children: [
      // The development outbox shows a signed-in person their own mail only (docs/auth.md).
      { path: '/outbox', ...page(() => import('../features/outbox/components/OutboxPage'), 'OutboxPage') },
      {
        ...page(() => import('./layout/AppLayout'), 'AppLayout'),
        children: [
          { index: true, ...page(() => import('./routes/HomeRoute'), 'HomeRoute') },
          { path: '/inbox', ...page(() => import('./routes/InboxRoute'), 'InboxRoute') },
          { path: '/inbox/:conversationId', ...page(() => import('./routes/InboxRoute'), 'InboxRoute') },
          { path: '/activity', ...page(() => import('../features/activity/components/ActivityPage'), 'ActivityPage') },
          { path: '/contacts', ...page(() => import('./routes/ContactsRoute'), 'ContactsRoute') },
          { path: '/groups', ...page(() => import('./routes/GroupsRoute'), 'GroupsRoute') },
          { path: '/custom-fields', ...page(() => import('../features/custom-fields/components/CustomFieldsPage'), 'CustomFieldsPage') },
          { path: '/campaigns', ...page(() => import('../features/campaigns/components/CampaignsPage'), 'CampaignsPage') },
          { path: '/campaigns/new', ...page(() => import('./routes/CampaignRoutes'), 'CampaignEditorRoute') },
          { path: '/campaigns/:campaignId', ...page(() => import('./routes/CampaignRoutes'), 'CampaignDetailRoute') },
          { path: '/campaigns/:campaignId/edit', ...page(() => import('./routes/CampaignRoutes'), 'CampaignEditorRoute') },
          { path: '/numbers', ...page(() => import('./routes/NumbersRoute'), 'NumbersRoute') },
          { path: '/numbers/:numberId', ...page(() => import('./routes/TelephonyRoutes'), 'NumberEditorRoute') },
          { path: '/voicemail', ...page(() => import('../features/voicemail/components/VoicemailPage'), 'VoicemailPage') },
          { path: '/greetings', ...page(() => import('../features/greetings/components/GreetingsPage'), 'GreetingsPage') },
          { path: '/schedule', ...page(() => import('../features/schedule/components/SchedulePage'), 'SchedulePage') },
          { path: '/blocks', ...page(() => import('./routes/TelephonyRoutes'), 'BlocksRoute') },
          { path: '/number-templates', ...page(() => import('./routes/TelephonyRoutes'), 'NumberTemplatesRoute') },
          { path: '/ports', ...page(() => import('../features/ports/components/PortsPage'), 'PortsPage') },
          { path: '/calls/:callId', ...page(() => import('./routes/TelephonyRoutes'), 'CallRoute') },
          { path: '/dashboard', ...page(() => import('./routes/AnalyticsRoutes'), 'DashboardRoute') },
          { path: '/reports', ...page(() => import('./routes/AnalyticsRoutes'), 'ReportsRoute') },
          { path: '/favorite-reports', ...page(() => import('./routes/AlertsRoutes'), 'FavoriteReportsRoute') },
          { path: '/alerts', ...page(() => import('./routes/AlertsRoutes'), 'AlertsRoute') },
          { path: '/tracking', ...page(() => import('./routes/TrackingRoutes'), 'TrackingPoolsRoute') },
          { path: '/tracking/pools/:poolId', ...page(() => import('./routes/TrackingRoutes'), 'TrackingPoolRoute') },
          { path: '/tracking/sources', ...page(() => import('./routes/TrackingRoutes'), 'TrackingSourcesRoute') },
          { path: '/tracking/script', ...page(() => import('./routes/TrackingRoutes'), 'TrackingScriptRoute') },
          { path: '/tracking/feed', ...page(() => import('./routes/TrackingRoutes'), 'TrackingFeedRoute') },
          { path: '/tracking/sessions/:sessionId', ...page(() => import('./routes/TrackingRoutes'), 'TrackingSessionRoute') },
          { path: '/tracking/leads', ...page(() => import('./routes/TrackingRoutes'), 'TrackingLeadsRoute') },
          { path: '/tracking/leads/:leadId', ...page(() => import('./routes/TrackingRoutes'), 'TrackingLeadRoute') },
          { path: '/tracking/reports', ...page(() => import('./routes/TrackingRoutes'), 'TrackingReportsRoute') },
          { path: '/tracking/bulk-update', ...page(() => import('./routes/TrackingRoutes'), 'TrackingBulkUpdateRoute') },
          { path: '/organizations', ...page(() => import('./routes/AccountsRoutes'), 'OrganizationsRoute') },
          { path: '/organizations/:organizationId', ...page(() => import('./routes/AccountsRoutes'), 'OrganizationRoute') },
          { path: '/users', ...page(() => import('./routes/AccountsRoutes'), 'UsersRoute') },
          { path: '/integrations', ...page(() => import('../features/integrations/components/IntegrationsRoute'), 'IntegrationsRoute') },
          { path: '/api-keys', ...page(() => import('./routes/IntegrationsRoutes'), 'ApiKeysRoute') },
          { path: '/webhooks', ...page(() => import('./routes/IntegrationsRoutes'), 'WebhooksRoute') },
          { path: '/audit-log', ...page(() => import('./routes/IntegrationsRoutes'), 'AuditLogRoute') },
          { path: '/general-settings', ...page(() => import('./routes/WorkspaceRoutes'), 'GeneralSettingsRoute') },
          { path: '/tags', ...page(() => import('./routes/WorkspaceRoutes'), 'TagsRoute') },
          { path: '/data-groups', ...page(() => import('./routes/WorkspaceRoutes'), 'DataGroupsRoute') },
          { path: '/tenant', ...page(() => import('./routes/WorkspaceRoutes'), 'TenantRoute') },
          { path: '/support', ...page(() => import('./routes/WorkspaceRoutes'), 'SupportRoute') },
          { path: '/billing', ...page(() => import('../features/billing/components/BillingPage'), 'BillingPage') },
          { path: '/calls/search', ...page(() => import('./routes/CallIntelligenceRoutes'), 'CallSearchRoute') },
          { path: '/fax', ...page(() => import('./routes/FaxRoutes'), 'FaxRoute') },
          { path: '/sms-verification', ...page(() => import('./routes/ComplianceRoutes'), 'SmsVerificationRoute') },
          { path: '/marketplace', ...page(() => import('./routes/MarketplaceRoutes'), 'MarketplaceRoute') },
          { path: '/simulator', ...page(() => import('./routes/SimulatorRoute'), 'SimulatorRoute') },
          { path: '/ops/outbox', ...page(() => import('./routes/OpsRoutes'), 'OpsOutboxRoute') },
          { path: '/settings', ...page(() => import('./routes/SettingsRoute'), 'SettingsRoute') },
          { path: '*', ...page(() => import('./routes/NotFound'), 'NotFound') },
        ],
      },
    ],
  },
];

/** Fetches the chunks of the pages `pathname` shows (the layout and the page), for a signed-in person about to go there. */
export function preloadPages(pathname: string): Promise<unknown> {
  return Promise.all((matchRoutes(routes, pathname) ?? []).map((m) => (m.route.handle as PreloadHandle | undefined)?.preload?.()));
}

/** Routers whose app is on screen (a router is disposed once its app has left the screen, see {@link SignedInApp}). */
const mounted = new Set<ReturnType<typeof createBrowserRouter>>();

/**
 * The signed-in app: a data router made when it mounts (it starts from the address the public router left), and
 * disposed when it leaves (sign-out hands over to the public router). React's development double mount keeps it.
 */
export function SignedInApp() {
  const [router] = useState(() => createBrowserRouter(routes));
  useEffect(() => {
    mounted.add(router);
    const unregister = setNavigator((to, options) => void router.navigate(to, options));
    return () => {
      mounted.delete(router);
      unregister();
      setTimeout(() => {
        if (!mounted.has(router)) router.dispose();
      });
    };
  }, [router]);
  return <RouterProvider router={router} />;
}
