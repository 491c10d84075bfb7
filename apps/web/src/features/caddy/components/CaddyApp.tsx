/**
 * The consumer area under `/caddy` (spec 002 "Consumer area"; docs/consumer-area.md "Screens"): its own routes, its own
 * session (a bearer token in localStorage, api/client.ts) and its own sign-out, apart from the business app. Mobile
 * first: at phone width a header with the menu and a bottom tab bar of the four main screens; from `sm` up a side
 * navigation. The live connection (Socket.IO namespace `/caddy`, channel `caddy.{accountId}`, api/live.ts) is open
 * while the shell is on screen, so usage and a number's calls and texts move live on every page, and the call bar
 * (CallBar.tsx) rings for incoming calls and follows the current call on every page.
 *
 * Routes: `signup`, `signin`, `reset-password` (signed out); `numbers`, `numbers/:id`, `catalog` (`?replace=<id>`),
 * `usage`, `invitations`, `review`, `support`, `profile` (signed in).
 */
import { AppShell, Badge, Burger, Button, Group, NavLink, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconChartBar,
  IconHeadset,
  IconLogout,
  IconPhone,
  IconPhonePlus,
  IconStar,
  IconUser,
  IconUserPlus,
  type Icon as TablerIcon,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, NavLink as RouterNavLink, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { MAIN_CONTENT_ID, SkipLink } from '../../../components/SkipLink';
import { notify } from '../../../lib/notify';
import { useCaddyLive, type LiveState } from '../api/live';
import { logoutOnServer } from '../api/auth';
import { clearCaddySession, getCaddySession, setCaddyUnauthorizedHandler, useCaddySession } from '../api/client';
import { ResetPasswordPage, SignInPage, SignUpPage } from './AuthPages';
import { CallBar } from './CallBar';
import { CatalogPage } from './CatalogPage';
import { InvitationsPage, ReviewPage } from './CommunityPages';
import { NumberPage } from './NumberPage';
import { NumbersPage } from './NumbersPage';
import { ProfilePage } from './ProfilePage';
import { SupportPage } from './SupportPage';
import { PRODUCT, useTitle } from './ui';
import { UsagePage } from './UsagePage';

interface NavEntry {
  to: string;
  label: string;
  icon: TablerIcon;
  /** Shown in the bottom tab bar at phone width (as `short`). */
  tab?: string;
}

const NAV: NavEntry[] = [
  { to: '/caddy/numbers', label: 'My numbers', icon: IconPhone, tab: 'Numbers' },
  { to: '/caddy/catalog', label: 'Get a number', icon: IconPhonePlus, tab: 'Get number' },
  { to: '/caddy/usage', label: 'Usage and plan', icon: IconChartBar, tab: 'Usage' },
  { to: '/caddy/invitations', label: 'Invite friends', icon: IconUserPlus, tab: 'Invite' },
  { to: '/caddy/review', label: 'Review', icon: IconStar },
  { to: '/caddy/support', label: 'Help and support', icon: IconHeadset },
  { to: '/caddy/profile', label: 'Profile', icon: IconUser },
];

const STREAM_LABEL: Record<LiveState, { label: string; color: string }> = {
  connecting: { label: 'Connecting', color: 'gray' },
  live: { label: 'Live', color: 'teal' },
  reconnecting: { label: 'Reconnecting', color: 'yellow' },
};

/** Signs the person out of the consumer area only (the business session, if any, stays). */
function useCaddySignOut() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return () => {
    void logoutOnServer();
    clearCaddySession();
    qc.removeQueries({ queryKey: ['caddy'] });
    notify.success('You are signed out.');
    void navigate('/caddy/signin', { replace: true });
  };
}

/** The bottom tab bar (phone width). */
function TabBar() {
  const { pathname } = useLocation();
  return (
    <Group component="nav" aria-label="Main" h="100%" gap={0} grow wrap="nowrap" px={4}>
      {NAV.filter((n) => n.tab).map((n) => {
        const current = pathname === n.to || pathname.startsWith(`${n.to}/`);
        return (
          <UnstyledButton
            key={n.to}
            component={Link}
            to={n.to}
            aria-current={current ? 'page' : undefined}
            py={6}
            style={{ textAlign: 'center', borderRadius: 8, color: current ? 'var(--mantine-color-teal-8)' : 'var(--mantine-color-gray-7)' }}
          >
            <Stack gap={2} align="center">
              <n.icon size={22} aria-hidden />
              <Text size="xs" fw={current ? 700 : 500} lh={1.2}>
                {n.tab}
              </Text>
            </Stack>
          </UnstyledButton>
        );
      })}
    </Group>
  );
}

/** The signed-in shell: header, side navigation (a drawer at phone width), bottom tabs, page. */
function CaddyShell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const signOut = useCaddySignOut();
  const stream = useCaddyLive();
  const { pathname } = useLocation();
  const small = useMediaQuery('(max-width: 48em)');
  useEffect(close, [pathname, close]);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      footer={{ height: { base: 64, sm: 0 } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" aria-expanded={opened} />
            <Link to="/caddy/numbers" aria-label={`${PRODUCT} home`} style={{ textDecoration: 'none', color: 'inherit' }}>
              <Group gap={8} wrap="nowrap">
                <ThemeIcon radius="xl" size="md" color="teal">
                  <IconPhonePlus size={16} aria-hidden />
                </ThemeIcon>
                <Text fw={700}>{PRODUCT}</Text>
              </Group>
            </Link>
          </Group>
          <Badge color={STREAM_LABEL[stream].color} variant="light" data-testid="caddy-stream" aria-label={`Live updates: ${STREAM_LABEL[stream].label}`}>
            {STREAM_LABEL[stream].label}
          </Badge>
        </Group>
      </AppShell.Header>
      {/* Off screen at phone width until the menu opens: out of the tab order and the accessibility tree meanwhile. */}
      <AppShell.Navbar p="sm" aria-label="Consumer area" inert={small && !opened}>
        <AppShell.Section grow component="nav" aria-label="Sections">
          {NAV.map((n) => (
            <NavLink
              key={n.to}
              component={RouterNavLink}
              to={n.to}
              label={n.label}
              active={pathname === n.to || pathname.startsWith(`${n.to}/`)}
              leftSection={<n.icon size={18} aria-hidden />}
            />
          ))}
        </AppShell.Section>
        <AppShell.Section pt="xs" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          <Button variant="subtle" color="gray" fullWidth justify="flex-start" leftSection={<IconLogout size={18} aria-hidden />} onClick={signOut}>
            Sign out
          </Button>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} bg="var(--mantine-color-gray-0)">
        <CallBar />
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer hiddenFrom="sm">
        <TabBar />
      </AppShell.Footer>
    </AppShell>
  );
}

/** Signed-in pages: without a consumer session, to sign-in (coming back here after). */
function RequireCaddy({ children }: { children: ReactNode }) {
  const session = useCaddySession();
  const location = useLocation();
  if (!session) return <Navigate to="/caddy/signin" replace state={{ from: location.pathname + location.search }} />;
  return children;
}

/**
 * Sign-up and sign-in: a person already signed in when opening them goes on to their numbers. Signing in on the page
 * itself is left to the page, which goes where it should (sign-up: the catalogue; sign-in: the page asked for).
 */
function SignedOutOnly({ children }: { children: ReactNode }) {
  const [signedIn] = useState(() => getCaddySession() !== null);
  if (signedIn) return <Navigate to="/caddy/numbers" replace />;
  return children;
}

function NotFound() {
  useTitle('Not found');
  return (
    <Stack align="center" py="xl">
      <Text fw={600} component="h1" fz="h2">
        This page does not exist
      </Text>
      <Button component={Link} to="/caddy/numbers">
        Go to my numbers
      </Button>
    </Stack>
  );
}

/** The consumer area's root (route `/caddy/*`, app/public-routes.tsx). */
export function CaddyApp() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  useEffect(() => {
    // A refused consumer token (expired, or ended by a password change elsewhere): back to sign-in, with a word why.
    setCaddyUnauthorizedHandler(() => {
      qc.removeQueries({ queryKey: ['caddy'] });
      notify.show({ type: 'warn', message: 'Your session ended. Please sign in again.' });
      void navigate('/caddy/signin', { replace: true });
    });
    return () => setCaddyUnauthorizedHandler(() => {});
  }, [navigate, qc]);
  return (
    <Routes>
      <Route
        path="signup"
        element={
          <SignedOutOnly>
            <SignUpPage />
          </SignedOutOnly>
        }
      />
      <Route
        path="signin"
        element={
          <SignedOutOnly>
            <SignInPage />
          </SignedOutOnly>
        }
      />
      <Route path="reset-password" element={<ResetPasswordPage />} />
      <Route
        element={
          <RequireCaddy>
            <CaddyShell />
          </RequireCaddy>
        }
      >
        <Route index element={<Navigate to="/caddy/numbers" replace />} />
        <Route path="numbers" element={<NumbersPage />} />
        <Route path="numbers/:id" element={<NumberPage />} />
        <Route path="catalog" element={<CatalogPage />} />
        <Route path="usage" element={<UsagePage />} />
        <Route path="invitations" element={<InvitationsPage />} />
        <Route path="review" element={<ReviewPage />} />
        <Route path="support" element={<SupportPage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
