import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/** The call tracking pages, in the order a company sets them up and then uses them. */
export const TRACKING_PAGES = [
  { to: '/tracking', label: 'Pools' },
  { to: '/tracking/sources', label: 'Sources' },
  { to: '/tracking/script', label: 'Script' },
  { to: '/tracking/feed', label: 'Real-time feed' },
  { to: '/tracking/leads', label: 'Leads' },
  { to: '/tracking/reports', label: 'Reports' },
  { to: '/tracking/bulk-update', label: 'Bulk update' },
] as const;

/** Which sub-navigation entry a path belongs to: a pool editor and a session page belong to Pools and the feed, a lead to Leads. */
export function activeTrackingPage(pathname: string): string {
  if (pathname.startsWith('/tracking/pools/')) return '/tracking';
  if (pathname.startsWith('/tracking/sessions/')) return '/tracking/feed';
  const match = TRACKING_PAGES.filter((p) => p.to !== '/tracking' && pathname.startsWith(p.to))[0];
  return match ? match.to : '/tracking';
}

/**
 * The sub-navigation across the call tracking pages (docs/tracking-screens.md "Navigation"): plain
 * links (the current one marked `aria-current="page"`), scrolling sideways on a phone-width screen.
 */
export function TrackingNav() {
  const { pathname } = useLocation();
  const active = activeTrackingPage(pathname);
  return (
    <Group component="nav" aria-label="Call tracking" gap={4} wrap="wrap" mb="md" data-testid="tracking-nav">
      {TRACKING_PAGES.map((p) => (
        <Button
          key={p.to}
          component={Link}
          to={p.to}
          size="compact-sm"
          variant={p.to === active ? 'light' : 'subtle'}
          color={p.to === active ? undefined : 'gray'}
          aria-current={p.to === active ? 'page' : undefined}
          style={{ flexShrink: 0 }}
        >
          {p.label}
        </Button>
      ))}
    </Group>
  );
}
