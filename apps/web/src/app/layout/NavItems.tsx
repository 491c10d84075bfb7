import { NavLink, Stack } from '@mantine/core';
import { IconActivity, IconAddressBook, IconDeviceMobile, IconForms, IconHash, IconMessages, IconSettings, IconSpeakerphone, IconUsersGroup } from '@tabler/icons-react';
import { IconArrowsTransferDown, IconBan, IconCalendarTime, IconMicrophone, IconTemplate, IconPhoneIncoming } from '@tabler/icons-react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import { InboxUnreadBadge } from '../../features/inbox/components/InboxUnreadBadge';

const ITEMS = [
  { to: '/inbox', label: 'Inbox', icon: IconMessages },
  { to: '/activity', label: 'Activity', icon: IconActivity },
  { to: '/contacts', label: 'Contacts', icon: IconAddressBook },
  { to: '/groups', label: 'Groups', icon: IconUsersGroup },
  { to: '/campaigns', label: 'Campaigns', icon: IconSpeakerphone },
  { to: '/custom-fields', label: 'Custom fields', icon: IconForms },
  { to: '/numbers', label: 'Numbers', icon: IconHash },
  { to: '/voicemail', label: 'Voicemail', icon: IconPhoneIncoming },
  { to: '/greetings', label: 'Greetings', icon: IconMicrophone },
  { to: '/schedule', label: 'Schedule', icon: IconCalendarTime },
  { to: '/blocks', label: 'Blocked callers', icon: IconBan },
  { to: '/number-templates', label: 'Number templates', icon: IconTemplate },
  { to: '/ports', label: 'Port requests', icon: IconArrowsTransferDown },
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
          rightSection={to === '/inbox' ? <InboxUnreadBadge /> : undefined}
          active={pathname === to || pathname.startsWith(`${to}/`)}
          onClick={onNavigate}
          style={{ borderRadius: 8 }}
        />
      ))}
    </Stack>
  );
}
