import { Avatar, Menu, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconLogout, IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router';
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

/** The signed-in user's menu: settings and sign out. */
export function UserMenu() {
  const { user } = useSession();
  const { signOut } = useSignOut();
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
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={signOut}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
