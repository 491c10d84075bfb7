import { NavLink, Stack } from '@mantine/core';
import { IconActivity, IconDeviceMobile, IconHash, IconMessages, IconSettings } from '@tabler/icons-react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';

const ITEMS = [
  { to: '/inbox', label: 'Inbox', icon: IconMessages },
  { to: '/activity', label: 'Activity', icon: IconActivity },
  { to: '/numbers', label: 'Numbers', icon: IconHash },
  { to: '/simulator', label: 'Phone simulator', icon: IconDeviceMobile },
  { to: '/settings', label: 'Settings', icon: IconSettings },
];

/** The main navigation. */
export function NavItems({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <Stack gap={4} component="nav" aria-label="Main">
      {ITEMS.map(({ to, label, icon: Icon }) => (
        <NavLink
          key={to}
          component={RouterNavLink}
          to={to}
          label={label}
          leftSection={<Icon size={18} />}
          active={pathname === to || pathname.startsWith(`${to}/`)}
          onClick={onNavigate}
          style={{ borderRadius: 8 }}
        />
      ))}
    </Stack>
  );
}
