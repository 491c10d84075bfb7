import { Avatar, Menu, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconActivityHeartbeat, IconLifebuoy, IconLogout, IconMail, IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { useAdminSession } from '../../features/auth/api/admin-session';
import { useSignOut } from '../../features/auth/hooks/use-sign-out';
import { useSession } from '../../lib/session';

function initials(name: string | undefined): string {
  return (name ?? '?')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

/**
 * Whether the development outbox is on (no SMTP: GET /api/dev/outbox answers; 404 otherwise). Asked with a plain
 * fetch only while the menu is open, so a server with real mail neither toasts nor shows the entry.
 */
function useDevOutbox(): boolean {
  const probe = useQuery({
    queryKey: ['dev-outbox', 'available'],
    queryFn: async () => (await fetch('/api/dev/outbox', { credentials: 'include' })).ok,
    staleTime: Infinity,
  });
  return probe.data === true;
}

/**
 * Entries that depend on the server, rendered only while the menu is open: the development outbox when on, and
 * for an operator outside admin mode (the admin session's `can_open_accounts`) the "Event delivery" screen.
 */
function ServerEntries() {
  const outbox = useDevOutbox();
  const operator = useAdminSession().data?.can_open_accounts === true;
  return (
    <>
      {outbox ? (
        <Menu.Item component={Link} to="/outbox" leftSection={<IconMail size={16} />}>
          Development outbox
        </Menu.Item>
      ) : null}
      {operator ? (
        <Menu.Item component={Link} to="/ops/outbox" leftSection={<IconActivityHeartbeat size={16} />}>
          Event delivery
        </Menu.Item>
      ) : null}
    </>
  );
}

/** The signed-in user's menu: settings, support (with the page they are on), the development outbox when on, event delivery for operators, sign out. */
export function UserMenu() {
  const { user } = useSession();
  const { signOut } = useSignOut();
  const { pathname, search } = useLocation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton>
          {/* Named by its hidden text, not aria-label: the initials are decoration (WCAG 2.5.3). */}
          <Avatar color="indigo" radius="xl" aria-hidden>
            {initials(user?.name)}
          </Avatar>
          <VisuallyHidden>Account menu</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user?.email}</Menu.Label>
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
          Settings
        </Menu.Item>
        <Menu.Item component={Link} to={`/support?page=${encodeURIComponent(pathname + search)}`} leftSection={<IconLifebuoy size={16} />}>
          Contact support
        </Menu.Item>
        <ServerEntries />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={signOut}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
